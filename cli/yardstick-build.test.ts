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
    const item = {
      id: "inv-1",
      kind: "enact-inverse",
      public: { observations: ["o0.png", "o1.png", "o2.png"], candidates: ["close it", "open it"] },
      key: { order: [1, 0] },
      tags: {},
      practice: false,
      gold: false,
    };
    writeFileSync(path.join(dir, "items.jsonl"), JSON.stringify(item) + "\n");
    writeFileSync(path.join(dir, "answers.jsonl"), JSON.stringify({ id: "inv-1", answer: { order: [1, 0] } }) + "\n");
    const result = run(["score", "--items", "items.jsonl", "--answers=answers.jsonl"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ items: [expect.objectContaining({ id: "inv-1" })] });
  });

  it("compare and plan print their JSON; a bad line is named, exit 1", () => {
    const item = (id: string) => ({
      id,
      kind: "choice",
      public: {
        question: "?",
        options: [
          { id: "A", text: "a" },
          { id: "B", text: "b" },
        ],
      },
      key: { answer: "A" },
      tags: {},
    });
    const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
    writeFileSync(path.join(dir, "c-items.jsonl"), lines([item("q1"), item("q2"), item("q3")]));
    // 3 people x 3 items: p1 right on all, p2 on q1 and q2, p3 on q1
    const answers = ["p1", "p2", "p3"].flatMap((p, k) => ["q1", "q2", "q3"].map((id, i) => ({ id, annotator: p, answer: { choice: i + k < 3 ? "A" : "B" } })));
    writeFileSync(path.join(dir, "c-answers.jsonl"), lines(answers));
    writeFileSync(
      path.join(dir, "c-models.jsonl"),
      lines([
        { model: "m", id: "q1", answer: "A" },
        { model: "m", id: "q2", answer: "A" },
        { model: "m", id: "q3", answer: "A" },
      ]),
    );
    const compare = run(["compare", "--items", "c-items.jsonl", "--answers", "c-answers.jsonl", "--models", "c-models.jsonl"], { cwd: dir });
    expect(compare.stderr).toBe("");
    expect(compare.status).toBe(0);
    const out = JSON.parse(compare.stdout) as {
      kinds: Record<
        string,
        {
          metric: string;
          humans: Record<string, unknown>;
          models: Record<string, { estimate: number; items: number; difference: { estimate: number; p: number } }>;
        }
      >;
    };
    // people 6 of 9 right, the model 3 of 3: D = 6/9 - 1
    expect(out.kinds.choice.humans).toMatchObject({ estimate: 6 / 9, answers: 9, annotators: 3, items: 3 });
    expect(out.kinds.choice.models.m).toMatchObject({ estimate: 1, items: 3 });
    expect(out.kinds.choice.models.m.difference.estimate).toBeCloseTo(6 / 9 - 1, 12);
    const plan = run(["plan", "--items", "c-items.jsonl", "--answers", "c-answers.jsonl", "--halfwidth", "0.9", "--k", "5"], { cwd: dir });
    expect(plan.stderr).toBe("");
    // by hand (two-way ANOVA): MS_people = MS_items = 1/3, MS_e = 1/6: people = items = (1/3 - 1/6) / 3
    expect(JSON.parse(plan.stdout)).toMatchObject({ components: { items: 0.055556, people: 0.055556, residual: 0.166667 }, k: 5 });
    expect(Object.keys(JSON.parse(plan.stdout) as object)).toEqual(["components", "people", "k", "halfwidth"]);
    writeFileSync(path.join(dir, "c-bad.jsonl"), lines([{ model: "m", id: "q1", answer: "A" }]) + '{"model": "m", "id": "q9", "score": 1}\n');
    const bad = run(["compare", "--items", "c-items.jsonl", "--answers", "c-answers.jsonl", "--models", "c-bad.jsonl"], { cwd: dir });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('yardstick: c-bad.jsonl line 2: unknown item id "q9"');
  }, 30_000); // three node processes: on a loaded machine more than the default 5 s

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
