import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** The command line as `npx yardstick` runs it: built once to dist/cli/yardstick.mjs, plain node, no tsx. */
const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "dist", "cli", "yardstick.mjs");
const { YARDSTICK_CWD: _cwd, ...env } = process.env;
const run = (args: string[], options: { cwd: string; input?: string }) => spawnSync(process.execPath, [bin, ...args], { ...options, encoding: "utf8", env });

describe("the built CLI (dist/cli/yardstick.mjs)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "yardstick-cli-"));
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(root, "scripts", "build-cli.mjs"), "--if-stale"], { cwd: root, stdio: "pipe" });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("computes alpha from stdin", () => {
    const result = run(["alpha", "--level", "nominal"], { cwd: dir, input: '{"data": [[1, 2], [1, 2]]}' });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe('{"alpha":1,"units":2,"pairable":4}\n');
    expect(result.status).toBe(0);
  });

  it("reads paths relative to where it was started", () => {
    const item = { id: "inv-1", kind: "enact-inverse", public: { observations: ["o0.png", "o1.png", "o2.png"], candidates: ["close it", "open it"] }, key: { order: [1, 0] }, tags: {}, practice: false, gold: false };
    writeFileSync(path.join(dir, "items.jsonl"), JSON.stringify(item) + "\n");
    writeFileSync(path.join(dir, "answers.jsonl"), JSON.stringify({ id: "inv-1", answer: { order: [1, 0] } }) + "\n");
    const result = run(["score", "--items", "items.jsonl", "--answers=answers.jsonl"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ items: [expect.objectContaining({ id: "inv-1" })] });
  });

  it("names what is wrong, with the usage, and exits non-zero", () => {
    const missing = run(["score", "--items", "items.jsonl"], { cwd: dir });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("yardstick: --answers is required\n\nusage: yardstick <command>");
    const flag = run(["alpha", "--level"], { cwd: dir, input: "{}" });
    expect(flag.stderr).toContain("yardstick: --level needs a value (usage: yardstick alpha");
    const unknown = run(["frobnicate"], { cwd: dir });
    expect(unknown.stderr).toContain('yardstick: unknown command "frobnicate"');
    expect(run([], { cwd: dir }).status).toBe(2);
  });
});
