import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { ALL } from "@/lib/dashboard/accuracy";
import { clearDashboardCaches } from "@/lib/dashboard/snapshot";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { importModelRun } from "@/lib/models/runs";
import { createStudy, resetDatabase } from "@/tests/db-helpers";

async function seed() {
  const study = await createStudy();
  const batch = await createBatch(study.id);
  for (const id of ["f1", "f2", "f3"]) await createOrderItem(study.id, batch.id, { externalId: id, order: [0, 1, 2] });
  await createOrderItem(study.id, batch.id, { externalId: "f5", order: [0, 1, 2, 3] });
  await createOrderItem(study.id, batch.id, { externalId: "i1", order: [0, 1, 2], kind: "enact-inverse" });
  return study;
}

const lines = (...values: unknown[]) => values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join("\n");

describe("importModelRun", () => {
  beforeEach(async () => {
    await resetDatabase();
    clearDashboardCaches();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("parses raw text and answer objects, scores with the kind's scorer, and shows beside the humans", async () => {
    const study = await seed();
    const result = await importModelRun({
      studySlug: study.slug,
      name: "GPT-5",
      fileName: "gpt5.jsonl",
      answersJsonl: lines(
        { id: "f1", answer: "Let me think. The order is [3, 1, 2]. No wait, final answer: [1, 2, 3]" }, // last list, 1-based -> [0,1,2]: accepted
        { id: "f2", answer: { order: [1, 0, 2] } }, // 0-based object: 1 of 3 slots
        "",
        { id: "f5", answer: "[1, 2]" }, // another length: 2 aligned pairs of 4, never accepted
        { id: "i1", answer: "[3, 1, 2]" }, // [2,0,1]: no slot right
      ),
    });
    expect(result.scored).toBe(4);
    expect(result.replaced).toBe(false);
    expect(result.message).toMatch(/Imported model run "GPT-5"/);
    // PA pools the pairs: (3 + 1 + 2) / (3 + 3 + 4); PA_item, the released report, means the ratios: (1 + 1/3 + 2/4) / 3
    expect(result.message).toMatch(/enact-forward: TA 33\.33%, PA 60\.00%, PA_item 61\.11% \(n=3\)/);
    expect(result.message).toMatch(/1 item of the study has no prediction in this run/);

    const predictions = await db.modelPrediction.findMany({
      where: { runId: result.runId },
      select: { answer: true, score: true, correct: true, item: { select: { externalId: true } } },
    });
    const byId = Object.fromEntries(predictions.map((p) => [p.item.externalId, p]));
    expect(byId.f1).toMatchObject({ answer: { order: [0, 1, 2] }, correct: true, score: { accepted: true, correctPairs: 3, L: 3 } });
    expect(byId.f2).toMatchObject({ correct: false, score: { accepted: false, correctPairs: 1 } });
    expect(byId.f5).toMatchObject({ answer: { order: [0, 1] }, correct: false, score: { accepted: false, correctPairs: 2, L: 4 } });
    expect(byId.i1).toMatchObject({ answer: { order: [2, 0, 1] }, correct: false, score: { correctPairs: 0 } });

    const d = await getStudyDashboard(study.slug, {});
    const forward = d.accuracy.modelRows.find((r) => r.label === "GPT-5" && r.kind === "enact-forward")!;
    expect(forward.cells["3"].n).toBe(2);
    expect(forward.cells["3"].metrics.TA.value).toBe(0.5);
    expect(forward.cells["3"].metrics.PA.value).toBeCloseTo(4 / 6, 12);
    expect(forward.cells["4"].metrics.PA.value).toBe(0.5);
    expect(forward.cells[ALL].metrics.PA.value).toBeCloseTo(6 / 10, 12);
    expect(d.models.map((m) => [m.name, m.predictions])).toEqual([["GPT-5", 4]]);
  });

  it("is all or nothing, with errors that name the line and field", async () => {
    const study = await seed();
    const attempt = importModelRun({
      studySlug: study.slug,
      name: "bad",
      fileName: "bad.jsonl",
      answersJsonl: lines(
        { id: "f1", answer: "[1, 2, 3]" },
        { id: "nope", answer: "[1, 2, 3]" },
        "not json",
        { id: "f1", answer: "[1, 2, 3]" },
        { id: "f3", answer: "I don't know" },
        { id: "f2" },
      ),
    });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    const error = (await attempt.catch((e) => e)) as AppError;
    expect(error.code).toBe("INVALID");
    expect(error.message).toMatch(/5 errors in bad\.jsonl; nothing was imported/);
    const errors = (error.details as { errors: Array<{ line: number; field?: string; message: string }> }).errors;
    expect(errors.map((e) => e.line).sort()).toEqual([2, 3, 4, 5, 6]);
    expect(errors.find((e) => e.line === 2)).toMatchObject({ field: "id", message: expect.stringMatching(/no item "nope"/) });
    expect(errors.find((e) => e.line === 3)!.message).toMatch(/invalid JSON/);
    expect(errors.find((e) => e.line === 4)!.message).toMatch(/line 1 already/);
    expect(errors.find((e) => e.line === 5)).toMatchObject({ field: "answer", message: expect.stringMatching(/cannot read an answer/) });
    expect(errors.find((e) => e.line === 6)!.field).toBe("answer");
    expect(await db.modelRun.count()).toBe(0);
    expect(await db.modelPrediction.count()).toBe(0);
  });

  it("replaces a run imported again under the same name", async () => {
    const study = await seed();
    const first = await importModelRun({
      studySlug: study.slug,
      name: "M",
      fileName: "a.jsonl",
      answersJsonl: lines({ id: "f1", answer: "[1, 2, 3]" }, { id: "f2", answer: "[1, 2, 3]" }),
    });
    const second = await importModelRun({ studySlug: study.slug, name: "M", fileName: "b.jsonl", answersJsonl: lines({ id: "f3", answer: "[2, 1, 3]" }) });
    expect(second.replaced).toBe(true);
    expect(second.message).toMatch(/Replaced the previous run of that name \(2 predictions\)/);
    expect(await db.modelRun.count()).toBe(1);
    expect(await db.modelRun.findUnique({ where: { id: first.runId } })).toBeNull();
    const left = await db.modelPrediction.findMany({ select: { item: { select: { externalId: true } } } });
    expect(left.map((p) => p.item.externalId)).toEqual(["f3"]);
  });

  it("refuses an unknown study and an empty file", async () => {
    await expect(importModelRun({ studySlug: "nope", name: "M", fileName: "a.jsonl", answersJsonl: "{}" })).rejects.toThrow(/No study/);
    const study = await seed();
    await expect(importModelRun({ studySlug: study.slug, name: "M", fileName: "a.jsonl", answersJsonl: "\n\n" })).rejects.toThrow(/holds no answers/);
  });
});
