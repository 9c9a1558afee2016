import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { createStudy, resetDatabase } from "@/tests/db-helpers";
import { openEqaQuestion } from "@/lib/tasks/free-text/testing/openeqa-question";

/**
 * `yardstick import` as built (dist/cli/yardstick.mjs, plain node) into the test database: the
 * import's two choices as flags, --skip-invalid (skipInvalid) and --text-only (textOnly), on
 * OpenEQA's release with one bad entry and without its episodes' frames.
 */
const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "dist", "cli", "yardstick.mjs");
const { YARDSTICK_CWD: _cwd, ...env } = process.env;
const run = (args: string[], cwd: string) => spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", env });

describe("yardstick import --skip-invalid --text-only", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "yardstick-cli-import-"));
  beforeAll(async () => {
    await resetDatabase();
    execFileSync(process.execPath, [path.join(root, "scripts", "build-cli.mjs"), "--if-stale"], { cwd: root, stdio: "pipe" });
    mkdirSync(path.join(dir, "release"));
    writeFileSync(
      path.join(dir, "release", "open-eqa-v0.json"),
      JSON.stringify([openEqaQuestion(1), openEqaQuestion(2, ["by the door", ""]), openEqaQuestion(3)], null, 2),
    );
  }, 120_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await disconnectDb();
  });

  it("is all or nothing without the flags: the missing frames and the bad entry refuse the batch, exit 1", async () => {
    const study = await createStudy();
    const plain = run(["import", "release", "--study", study.slug], dir);
    expect(plain.status).toBe(1);
    expect(plain.stderr).toContain('add them, or choose "text only"');
    const textOnly = run(["import", "release", "--study", study.slug, "--text-only"], dir);
    expect(textOnly.status).toBe(1);
    expect(textOnly.stderr).toContain("open-eqa-v0.json entry 2");
    expect(textOnly.stderr).not.toContain("frames");
    expect(await db.item.count({ where: { studyId: study.id } })).toBe(0);
  }, 60_000);

  it("imports the good entries as text only with both flags, listing the skipped one", async () => {
    const study = await createStudy();
    const result = run(["import", "--skip-invalid", "release", "--text-only", "--study", study.slug], dir);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Skipped 1 entry that could not be imported (as chosen):\n  open-eqa-v0.json entry 2");
    const items = await db.item.findMany({ where: { studyId: study.id }, select: { externalId: true }, orderBy: { externalId: "asc" } });
    expect(items.map((item) => item.externalId)).toEqual(["q-1", "q-3"]);
  }, 60_000);

  it("refuses a value given to a flag that takes none", () => {
    const result = run(["import", "release", "--study", "any", "--text-only=yes"], dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("yardstick: --text-only takes no value (usage: yardstick <command>");
  });
});
