import fc from "fast-check";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { importBatch, readBatchSource } from "@/lib/import";
import type { ImportErrorDetails } from "@/lib/import/types";
import { taskKinds } from "@/lib/tasks";
import { createStudy, resetDatabase } from "@/tests/db-helpers";
import { batchFiles, forwardItem, jsonl, zipOf, type BatchFiles } from "@/tests/fixtures/import-batches";
import { withValueAt, wrongValueText } from "@/tests/fixtures/fuzz-values";

/**
 * Property-based fuzzing of the importer: items.jsonl lines made of valid
 * items with one field replaced by something wrong (wrong types, huge strings, deep nesting,
 * unicode edge cases, negative and enormous numbers), arbitrary JSON and arbitrary text, and zips
 * that are not zips. Every run must end in a clear AppError (4xx) whose issues name the file and
 * line, or in a clean import; never another exception, and a refused batch changes nothing.
 */

/**
 * seeded, so that CI is the same run every time: 160668373 is the seed of the run that found text
 * PostgreSQL cannot store (the test below); FUZZ_SEED runs another
 */
const SEED = Number(process.env.FUZZ_SEED ?? 160668373);

const weird = wrongValueText;

/** A path into a valid item, where the fuzz puts its value (or deletes the key). */
const place: fc.Arbitrary<string[]> = fc.constantFrom<string[]>(
  ["id"],
  ["kind"],
  ["public"],
  ["public", "initialImage"],
  ["public", "actions"],
  ["public", "actions", "0"],
  ["public", "candidates"],
  ["public", "candidates", "1"],
  ["key"],
  ["key", "order"],
  ["key", "order", "0"],
  ["tags"],
  ["tags", "steps"],
  ["practice"],
  ["gold"],
  ["extra"],
);

function mutate(item: Record<string, unknown>, path: string[], valueText: string, remove: boolean): string {
  return withValueAt(item, path, valueText, remove);
}

const line = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(place, weird, fc.integer({ min: 0, max: 9 }))
      .map(([path, value, dice]) => mutate(forwardItem("fz") as unknown as Record<string, unknown>, path, value, dice === 0)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...taskKinds), weird)
      .map(([kind, value]) => `{"id":"fz","kind":${JSON.stringify(kind)},"public":${value},"key":${value}}`),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
);

async function counts() {
  const [batches, items, assets, audits] = await Promise.all([db.batch.count(), db.item.count(), db.asset.count(), db.auditLog.count()]);
  return { batches, items, assets, audits };
}

let studySlug: string;
let images: BatchFiles;

beforeAll(async () => {
  await resetDatabase();
  studySlug = (await createStudy()).slug;
  const files = await batchFiles([forwardItem("fz"), forwardItem("ok")]);
  delete files["items.jsonl"];
  images = files;
});
afterAll(async () => {
  await disconnectDb();
});

/** Imports the zip; returns "imported"/"unchanged" or the AppError, failing the test on anything else. */
async function importZip(zip: Buffer): Promise<string | AppError> {
  const before = await counts();
  try {
    const result = await importBatch({ source: await readBatchSource({ zip, fileName: "fuzz.zip" }), studySlug });
    return result.status;
  } catch (error) {
    if (!(error instanceof AppError)) throw new Error(`the importer threw ${String(error)} instead of an AppError`, { cause: error });
    expect(await counts(), "a refused batch must change nothing").toEqual(before);
    return error;
  }
}

describe("the importer under fuzzed input", () => {
  it("answers every items.jsonl with a clean import or errors naming file and line", async () => {
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 4 }), fc.boolean(), async (lines, withValid) => {
        const text = jsonl(withValid ? [forwardItem("ok"), ...lines] : lines);
        const outcome = await importZip(await zipOf({ ...images, "items.jsonl": text }));
        if (typeof outcome === "string") return;
        refused += 1;
        expect(["INVALID", "TOO_LARGE", "NOT_FOUND", "CONFLICT"]).toContain(outcome.code);
        expect(outcome.message.length).toBeGreaterThan(10);
        const details = outcome.details as ImportErrorDetails | undefined;
        if (outcome.code === "INVALID" && details?.errors) {
          expect(details.errors.length).toBeGreaterThan(0);
          for (const issue of details.errors) {
            expect(issue.file).toBe("items.jsonl");
            expect(typeof issue.message).toBe("string");
            if (issue.line !== undefined) expect(issue.line).toBeGreaterThanOrEqual(1);
          }
          // an items file of blank lines is refused as a whole ("no items"): no line to name
          if (text.trim() !== "") expect(details.errors.some((issue) => issue.line !== undefined)).toBe(true);
        }
      }),
      { numRuns: 120, seed: SEED },
    );
    expect(refused).toBeGreaterThan(60);
  });

  it("refuses text PostgreSQL cannot store (found by the fuzzer: seed 160668373), naming line and field", async () => {
    for (const [bad, reason] of [
      ["\udfff", /unpaired UTF-16 surrogate/],
      ["an\u0000apple", /NUL/],
    ] as const) {
      const item = forwardItem("fz") as { public: { actions: string[] } };
      item.public.actions[0] = bad;
      const outcome = await importZip(await zipOf({ ...images, "items.jsonl": jsonl([forwardItem("ok"), item]) }));
      expect(outcome).toBeInstanceOf(AppError);
      const details = (outcome as AppError).details as ImportErrorDetails;
      expect(details.errors).toEqual([
        expect.objectContaining({ file: "items.jsonl", line: 2, field: "public.actions[0]", message: expect.stringMatching(reason) }),
      ]);
    }
  });

  it("refuses archives that are not zips, or hold nothing to import, or names that leave the batch", async () => {
    const cases: Buffer[] = [
      Buffer.alloc(0),
      Buffer.from("PK\u0003\u0004 not really a zip"),
      Buffer.from(await fc.sample(fc.uint8Array({ minLength: 1, maxLength: 2000 }), { numRuns: 1, seed: SEED })[0]),
      await zipOf({ "readme.txt": "no items here" }),
      await zipOf({ ...images, "items.jsonl": "" }),
      await zipOf({ ...images, "../items.jsonl": jsonl([forwardItem("fz")]) }),
      await zipOf({ ...images, "items.jsonl": jsonl([forwardItem("fz", { candidates: ["../../../etc/passwd", "img/fz-b.png"] })]) }),
      await zipOf({
        "img/fz-a.png": "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
        "img/start.png": images["img/start.png"],
        "img/fz-b.png": images["img/fz-b.png"],
        "items.jsonl": jsonl([forwardItem("fz")]),
      }),
    ];
    const nested = new JSZip();
    nested.file("inner.zip", await zipOf({ ...images, "items.jsonl": jsonl([forwardItem("fz")]) }));
    cases.push(await nested.generateAsync({ type: "nodebuffer" }));
    for (const [index, zip] of cases.entries()) {
      const outcome = await importZip(zip);
      expect(outcome, `case ${index}`).toBeInstanceOf(AppError);
      expect((outcome as AppError).message, `case ${index}`).not.toMatch(/\n\s+at /);
    }
  });
});
