import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { STREAM_BATCH_SIZE } from "@/lib/dashboard/constants";
import { addEvents, answer, createBatch, createOrderItem } from "@/lib/dashboard/testing/seed";
import { parseCsv } from "@/lib/exports/csv";
import { createStudyExport, pseudonymousId } from "@/lib/exports/study-export";
import { importModelRun } from "@/lib/models/runs";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

async function text(stream: ReadableStream<Uint8Array>): Promise<{ text: string; chunks: number }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let out = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks++;
    out += decoder.decode(value, { stream: true });
  }
  return { text: out, chunks };
}

async function seed() {
  const [a, b] = await Promise.all([
    createUser("ANNOTATOR", { name: "Ann", email: "ann-secret@example.org" }),
    createUser("ANNOTATOR", { name: "Bob", email: "bob-secret@example.org" }),
  ]);
  const study = await createStudy();
  await db.studyMember.createMany({
    data: [
      { studyId: study.id, userId: a.id },
      { studyId: study.id, userId: b.id },
    ],
  });
  const batch = await createBatch(study.id, "enact-batch");
  const f = await createOrderItem(study.id, batch.id, { externalId: "f,1", order: [0, 1, 2], tags: { steps: 3, hand: "left" } });
  const g = await createOrderItem(study.id, batch.id, { externalId: "g1", order: [0, 1, 2, 3], tags: { steps: 4 } });
  const i = await createOrderItem(study.id, batch.id, { externalId: "i1", order: [0, 1, 2], kind: "enact-inverse", tags: { steps: 3 } });
  const p = await createOrderItem(study.id, batch.id, { externalId: "p1", order: [0, 1, 2], practice: true });
  const r1 = await answer(f, a.id, [0, 1, 2], { confidence: 0.75, activeMs: 1000, wallMs: 2000 });
  await answer(f, b.id, [1, 0, 2]);
  await answer(g, a.id, [0, 1, 2, 3]);
  await answer(i, b.id, [0, 1, 2]);
  await answer(p, a.id, [0, 1, 2], { purpose: "PRACTICE" });
  await addEvents(r1.assignmentId, ["item_shown", "slot_filled", "page_hidden", "submitted"]);
  return { study, users: { a, b } };
}

describe("study exports", () => {
  beforeEach(async () => {
    await resetDatabase();
  });
  afterAll(async () => {
    await disconnectDb();
  });

  it("streams responses as CSV with documented columns, scores flattened and pseudonymous annotators", async () => {
    const { study, users } = await seed();
    const out = await createStudyExport(study.slug, "responses", "csv");
    expect(out.fileName).toBe(`${study.slug}-responses.csv`);
    expect(out.contentType).toMatch(/text\/csv/);
    const rows = parseCsv((await text(out.stream)).text);
    expect(rows[0]).toEqual([
      "response_id",
      "item_id",
      "kind",
      "annotator",
      "agent",
      "purpose",
      "practice",
      "answer",
      "confidence_raw",
      "confidence",
      "correct",
      "score_L",
      "score_accepted",
      "score_correctPairs",
      "score_exact",
      "score_semanticAvailable",
      "score",
      "wall_ms",
      "active_ms",
      "started_at",
      "submitted_at",
      "created_at",
      "tag_hand",
      "tag_steps",
    ]);
    expect(rows).toHaveLength(1 + 5); // every response, practice included and marked
    const header = rows[0];
    const records = rows.slice(1).map((r) => Object.fromEntries(header.map((h, k) => [h, r[k]])));
    const first = records.find((r) => r.item_id === "f,1" && r.annotator === pseudonymousId(study.id, users.a.id))!;
    expect(first).toMatchObject({
      kind: "enact-forward",
      purpose: "MAIN",
      practice: "false",
      answer: '{"order":[0,1,2]}',
      confidence: "0.75",
      correct: "true",
      score_accepted: "true",
      score_L: "3",
      active_ms: "1000",
      wall_ms: "2000",
      tag_hand: "left",
      tag_steps: "3",
    });
    expect(records.filter((r) => r.practice === "true")).toHaveLength(1);
    expect(records.every((r) => /^ann_[0-9a-f]{12}$/.test(r.annotator))).toBe(true);
  });

  it("filters by kind and tag, and writes JSONL with nested tags and scores", async () => {
    const { study } = await seed();
    const byKind = await createStudyExport(study.slug, "responses", "jsonl", { kind: "enact-inverse" });
    expect(byKind.fileName).toBe(`${study.slug}-responses-enact-inverse.jsonl`);
    const lines = (await text(byKind.stream)).text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ item_id: "i1", kind: "enact-inverse", score: { accepted: true }, answer: { order: [0, 1, 2] } });
    expect(lines[0]).not.toHaveProperty("score_accepted");

    const bySteps = await createStudyExport(study.slug, "items", "csv", { tag: "steps=3" });
    const rows = parseCsv((await text(bySteps.stream)).text);
    expect(
      rows
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual(["f,1", "i1", "p1"]); // p1 (practice) has steps 3 too
  });

  it("exports items with their keys, events as trajectories, and annotators with names but no emails", async () => {
    const { study } = await seed();
    const items = parseCsv((await text((await createStudyExport(study.slug, "items", "csv")).stream)).text);
    expect(items[0]).toEqual(["item_id", "kind", "practice", "gold", "batch_file", "created_at", "tag_hand", "tag_steps", "tags", "public", "key"]);
    expect(items).toHaveLength(1 + 4);
    expect(items.find((r) => r[0] === "g1")![10]).toBe('{"order":[0,1,2,3]}');

    const events = (await text((await createStudyExport(study.slug, "events", "jsonl")).stream)).text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [0, "item_shown"],
      [1, "slot_filled"],
      [2, "page_hidden"],
      [3, "submitted"],
    ]);
    expect(events[0]).toMatchObject({ item_id: "f,1", purpose: "MAIN" });

    const annotatorsText = (await text((await createStudyExport(study.slug, "annotators", "csv")).stream)).text;
    expect(annotatorsText).not.toMatch(/secret@example/);
    const annotators = parseCsv(annotatorsText);
    expect(annotators[0].slice(0, 3)).toEqual(["annotator", "agent", "name"]);
    const ann = Object.fromEntries(annotators[0].map((h, k) => [h, annotators.find((r) => r[2] === "Ann")![k]]));
    expect(ann).toMatchObject({
      agent: "false",
      member: "true",
      main_submitted: "2",
      practice_submitted: "1",
      responses: "2",
      correct: "2",
      events: "4",
      focus_losses: "1",
      median_active_ms: "4500",
    });
  });

  it("exports model predictions", async () => {
    const { study } = await seed();
    await importModelRun({ studySlug: study.slug, name: "GPT-5", fileName: "a.jsonl", answersJsonl: JSON.stringify({ id: "g1", answer: "[1, 2, 4, 3]" }) });
    const rows = parseCsv((await text((await createStudyExport(study.slug, "predictions", "csv")).stream)).text);
    expect(rows).toHaveLength(2);
    const record = Object.fromEntries(rows[0].map((h, k) => [h, rows[1][k]]));
    expect(record).toMatchObject({ model: "GPT-5", item_id: "g1", correct: "false", score_correctPairs: "2", tag_steps: "4" });
  });

  it("reads in batches: more rows than one batch arrive in several chunks, all of them", async () => {
    const study = await createStudy();
    const batch = await createBatch(study.id);
    const total = STREAM_BATCH_SIZE + 7;
    const rows = Array.from({ length: total }, (_, n) => ({
      studyId: study.id,
      batchId: batch.id,
      externalId: `bulk-${n}`,
      kind: "enact-forward",
      public: { initialImage: "a", actions: ["x"], candidates: ["c"] },
      key: { order: [0] },
      tags: { steps: 1 },
      contentHash: `h${n}`,
    }));
    await db.item.createMany({ data: rows });
    const out = await text((await createStudyExport(study.slug, "items", "jsonl")).stream);
    expect(out.text.trim().split("\n")).toHaveLength(total);
    expect(out.chunks).toBeGreaterThanOrEqual(2);
  });

  it("writes the CSV of responses and events by COPY and in the database with the same bytes as csvRow over the records, over several pages and with filters", async () => {
    const { study, users } = await seed();
    const batch = await createBatch(study.id, "awkward");
    // awkward values: formula-looking texts, separators, nested JSON with integer-like keys, tiny and huge numbers
    const odd = await createOrderItem(study.id, batch.id, {
      externalId: "=cmd|' /C calc'!A0",
      order: [0, 1],
      tags: { steps: 2, hand: ' left, "up"', note: "@SUM(1)", weight: 1e-7 },
    });
    const r = await answer(odd, users.a.id, [1, 0], { confidence: 0.1 + 0.2 });
    await db.response.update({ where: { id: r.id }, data: { answer: { order: [1, 0], note: "x, y: z", 10: { 2: "b", a: 1e21 } }, score: [1, "-2+3"] } });
    await db.event.createMany({
      data: [
        {
          assignmentId: r.assignmentId,
          seq: 0,
          type: "=type",
          payload: { "a, b": "c: d", 1: [1.5e-7, "+x"], z: { y: null } },
          clientTime: new Date("2026-01-01T00:00:00.001Z"),
        },
        { assignmentId: r.assignmentId, seq: 1, type: "slot_filled", payload: "just text", clientTime: new Date("2026-01-01T00:00:01Z") },
        { assignmentId: r.assignmentId, seq: 2, type: "slot_filled", payload: 12.5, clientTime: new Date("2026-01-01T00:00:02Z") },
      ],
    });
    // more than the first CSV page (500 rows) and than one batch of events
    const bulkItems = Array.from({ length: 700 }, (_, n) => ({
      studyId: study.id,
      batchId: batch.id,
      externalId: `bulk-${n}`,
      kind: n % 2 ? "enact-forward" : "enact-inverse",
      public: {},
      key: { order: [0] },
      tags: { steps: 1 + (n % 3) },
      contentHash: `bulk-${n}`,
    }));
    await db.item.createMany({ data: bulkItems });
    const items = await db.item.findMany({ where: { studyId: study.id, externalId: { startsWith: "bulk-" } }, select: { id: true } });
    await db.assignment.createMany({
      data: items.map((item, n) => ({
        id: `bulk-a-${n}`,
        studyId: study.id,
        itemId: item.id,
        userId: users.b.id,
        status: "SUBMITTED" as const,
        position: 1000 + n,
        startedAt: new Date(1_700_000_000_000 + n),
        submittedAt: new Date(1_700_000_100_000 + n),
      })),
    });
    await db.response.createMany({
      data: items.map((_, n) => ({
        assignmentId: `bulk-a-${n}`,
        clientId: `bulk-c-${n}`,
        answer: { order: [0] },
        confidenceRaw: n % 101,
        confidence: (n % 101) / 100,
        wallMs: n,
        activeMs: n,
        score: { accepted: n % 2 === 0, L: 1, ratio: n / 7 },
        correct: n % 2 === 0,
      })),
    });
    await db.event.createMany({
      data: Array.from({ length: STREAM_BATCH_SIZE + 300 }, (_, n) => ({
        assignmentId: `bulk-a-${n % 700}`,
        seq: Math.floor(n / 700),
        type: "slot_filled",
        payload: { slot: n, at: n / 3 },
        clientTime: new Date(1_700_000_000_000 + n),
      })),
    });

    for (const filter of [{}, { kind: "enact-forward" }, { tag: "steps=2" }, { tag: `hand= left, "up"` }]) {
      for (const what of ["responses", "events"] as const) {
        const byCopy = await text((await createStudyExport(study.slug, what, "csv", filter)).stream);
        const fromDatabase = await text((await createStudyExport(study.slug, what, "csv", filter, { csvFrom: "database" })).stream);
        const fromRecords = await text((await createStudyExport(study.slug, what, "csv", filter, { csvFrom: "records" })).stream);
        expect(fromRecords.text.length, `${what} ${JSON.stringify(filter)}`).toBeGreaterThan(0);
        expect(byCopy.text === fromRecords.text, `${what} ${JSON.stringify(filter)}, by COPY`).toBe(true);
        expect(fromDatabase.text === fromRecords.text, `${what} ${JSON.stringify(filter)}, in the database`).toBe(true);
      }
    }
    const all = await text((await createStudyExport(study.slug, "events", "csv")).stream);
    expect(parseCsv(all.text)).toHaveLength(1 + 4 + 3 + STREAM_BATCH_SIZE + 300);
    expect(all.chunks).toBeGreaterThanOrEqual(3);
    expect(all.text).toContain(`"'=type"`);
  });

  it("refuses an unknown study", async () => {
    await expect(createStudyExport("no-such-study", "items", "csv")).rejects.toThrow(/No study/);
  });
});
