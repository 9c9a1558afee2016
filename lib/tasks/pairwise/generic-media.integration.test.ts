import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { importBatch, readBatchSource } from "@/lib/import";
import { nextForMember } from "@/lib/annotate/next";
import { recordEvents } from "@/lib/responses/events";
import { submitResponse } from "@/lib/responses/responses";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { clearDashboardCaches } from "@/lib/dashboard/snapshot";
import { parseTrajectoryBatch } from "@/lib/validations/annotate";
import { describeEvent } from "@/components/replay/describe-event";
import { addMember, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { generateRatingDemoBatch } from "@/scripts/demo-data/rating/generate-rating-batch";
import { generatePairwiseDemoBatch } from "@/scripts/demo-data/pairwise/generate-pairwise-batch";
import type { RatingSection } from "@/lib/tasks/rating/dashboard";
import type { PairwiseSection } from "@/lib/tasks/pairwise/dashboard";

/**
 * The rating and pairwise kinds on the server with real PostgreSQL: their demo batches (drawn
 * frames, and the real demo clip as a video file) through the real importer, answered by two people through the functions the routes
 * call, with player events; then the dashboard's sections: watch time and share watched from the
 * stored events, alpha per dimension, win rates and Bradley-Terry strengths, position bias.
 */

const t0 = Date.UTC(2026, 10, 27, 9, 0, 0);
let dir = "";

beforeAll(async () => {
  await resetDatabase();
  clearDashboardCaches();
  dir = await mkdtemp(path.join(tmpdir(), "yardstick-generic-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await disconnectDb();
});

/** Answers every item of the study for one person: the events `events(view)` gives, then the answer. */
async function answerAll(
  slug: string,
  userId: string,
  answer: (view: Record<string, unknown>, itemIndex: number) => { events: Array<{ type: string; payload: unknown }>; answer: Record<string, unknown> },
) {
  for (let n = 0; ; n++) {
    const next = await nextForMember(slug, userId, []);
    if (next.status !== "item") return n;
    const { assignmentId, view } = next.assignment;
    const plan = answer(view as Record<string, unknown>, n);
    const sent = [
      { type: "item_shown", payload: { kind: next.assignment.kind, resumed: false } },
      ...plan.events,
      { type: "confidence_changed", payload: { value: 4, previous: null } },
    ].map((event, seq) => ({
      assignmentId,
      seq,
      clientTime: t0 + seq * 1000,
      ...event,
    }));
    const { valid, rejected } = parseTrajectoryBatch(sent);
    expect(rejected, JSON.stringify(rejected)).toEqual([]);
    const clientId = randomUUID();
    const submitted = parseTrajectoryBatch([
      { assignmentId, seq: valid.length, clientTime: t0 + 60_000, type: "submitted", payload: { answer: plan.answer, confidence: 4, clientId } },
    ]).valid;
    await recordEvents(userId, [...valid, ...submitted]);
    await submitResponse(userId, { assignmentId, clientId, answer: plan.answer, confidence: 4, wallMs: 60_000, activeMs: 60_000, submitSeq: valid.length });
  }
}

describe("generic media kinds on the server", () => {
  it("rating: imported with its frames, answered, and its dashboard section computed from answers and player events", async () => {
    const admin = await createUser("ADMIN");
    const study = await createStudy({ overlap: 2 });
    await db.study.update({ where: { id: study.id }, data: { status: "OPEN" } });
    const folder = path.join(dir, "rating");
    await generateRatingDemoBatch({ outDir: folder });
    const imported = await importBatch({ source: await readBatchSource({ folder }), studySlug: study.slug, importedById: admin.id });
    expect(imported.itemCount).toBe(5);
    const people = [await createUser("ANNOTATOR"), await createUser("ANNOTATOR")];
    for (const person of people) await addMember(study.id, person.id);

    const given = [
      { instruction: 3, gravity: "yes", penetration: "no", quality: "yes" },
      { instruction: 2, gravity: "yes", penetration: "no", quality: "no" },
    ];
    for (const [p, person] of people.entries()) {
      const answered = await answerAll(study.slug, person.id, (view, n) => {
        expect(JSON.stringify(view)).not.toContain("model");
        // four clips of drawn frames, and the demo clip as a video
        const media = view.media as { frames?: string[]; video?: string };
        expect(media.frames?.[0] ?? media.video).toMatch(/^\/api\/assets\/[0-9a-f]{64}$/);
        const ratings = { ...given[p], instruction: (given[p].instruction + n) % 4 };
        return {
          events: [
            { type: "media_play", payload: { time: 0, duration: 2, rate: 1, via: "click" } },
            // person 0 watches all; person 1 pauses at half time
            p === 0 ? { type: "media_ended", payload: { time: 2, duration: 2 } } : { type: "media_pause", payload: { time: 1, duration: 2, via: "keyboard" } },
            ...Object.entries(ratings).map(([id, value]) => ({ type: "rating_set", payload: { id, value, previous: null, via: "keyboard" } })),
          ],
          answer: { ratings },
        };
      });
      expect(answered).toBe(5);
    }
    const stored = await db.response.findMany({ where: { assignment: { studyId: study.id } }, select: { score: true } });
    expect(stored).toHaveLength(10);
    const videos = await db.item.findMany({ where: { studyId: study.id, externalId: "wmb-ball-reference" }, select: { public: true } });
    expect((videos[0].public as { media: { video: string } }).media.video).toMatch(/^\/api\/assets\/[0-9a-f]{64}$/);

    const dashboard = await getStudyDashboard(study.slug, {});
    const section = dashboard.sections.rating as RatingSection;
    expect(section.answers).toBe(10);
    expect(section.watch.pooled).toEqual({ people: 10, watchSeconds: 1.5, shareWatched: 0.75 });
    // the clip cut at 1.75 s: the logged duration (2) is what counts, as the browser logged it
    expect(section.watch.items.every((row) => row.people === 2 && row.ended === 1)).toBe(true);
    const physics = section.alpha.find((a) => a.dimension === "physics")!;
    expect(physics.level).toBe("nominal");
    // both agree on every physics check: alpha undefined (no variation) or 1
    expect(physics.alpha === null || physics.alpha === 1).toBe(true);
    const instruction = section.alpha.find((a) => a.dimension === "instruction")!;
    expect(instruction.level).toBe("ordinal");
    expect(instruction.units).toBe(5);
    expect(section.judges).toHaveLength(0);
    expect(section.byGenerator.map((g) => g.model)).toEqual(["gen-a", "gen-b", "reference"]);
    expect(section.pooled.commonsense).toEqual({ mean: 0.5, n: 10 });
    const events = await db.event.findMany({
      where: { assignment: { studyId: study.id }, type: { startsWith: "media_" } },
      take: 2,
      orderBy: [{ assignmentId: "asc" }, { seq: "asc" }],
      select: { type: true, payload: true },
    });
    expect(events.map((event) => describeEvent(event))).toEqual([
      "Played from 0:00.0 (click)",
      expect.stringMatching(/^(Video ended at 0:02.0|Paused at 0:01.0 \(keyboard\))$/),
    ]);
  });

  it("pairwise: win rates, Bradley-Terry strengths and the side each person saw, from stored answers and events", async () => {
    const admin = await createUser("ADMIN");
    const study = await createStudy({ overlap: 1 });
    await db.study.update({ where: { id: study.id }, data: { status: "OPEN" } });
    const folder = path.join(dir, "pairwise");
    await generatePairwiseDemoBatch({ outDir: folder });
    await importBatch({ source: await readBatchSource({ folder }), studySlug: study.slug, importedById: admin.id });
    const person = await createUser("ANNOTATOR");
    await addMember(study.id, person.id);
    const items = await db.item.findMany({ where: { studyId: study.id }, select: { id: true, public: true } });
    // the real demo clip beside drawn frames: a video asset on side A
    const reference = items.find((item) => (item.public as { models: { a: string } }).models.a === "reference")!.public as {
      a: { video: string };
      b: { frames: string[] };
    };
    expect(reference.a.video).toMatch(/^\/api\/assets\/[0-9a-f]{64}$/);
    expect(reference.b.frames).toHaveLength(16);
    const modelsOf = new Map(
      items.map((item) => [
        JSON.stringify({ a: (item.public as { a: unknown }).a, b: (item.public as { b: unknown }).b }),
        (item.public as { models: { a: string; b: string } }).models,
      ]),
    );
    const rank: Record<string, number> = { reference: 4, "gen-a": 3, "gen-b": 2, "gen-c": 1 };
    // the better one wins quality; physics is a tie when gen-c or the reference clip is in the pair; A is on the left every time
    await answerAll(study.slug, person.id, (view) => {
      expect(JSON.stringify(view)).not.toContain("gen-");
      const models = modelsOf.get(JSON.stringify({ a: view.a, b: view.b }))!;
      const better = rank[models.a] > rank[models.b] ? "a" : "b";
      const physics = [models.a, models.b].some((model) => model === "gen-c" || model === "reference") ? "tie" : better;
      return {
        events: [
          { type: "media_sides", payload: { left: "a", right: "b" } },
          { type: "media_play", payload: { time: 0, duration: 2, rate: 1, side: "both", via: "touch" } },
          { type: "media_ended", payload: { time: 2, duration: 2, side: "both" } },
          { type: "preference_set", payload: { dimension: "quality", value: better, previous: null, shown: better === "a" ? "1" : "2", via: "touch" } },
        ],
        answer: { prefs: { quality: better, physics, instruction: "tie" } },
      };
    });
    const dashboard = await getStudyDashboard(study.slug, {});
    const section = dashboard.sections.pairwise as PairwiseSection;
    expect(section.items).toBe(7);
    const quality = section.dimensions.find((d) => d.id === "quality")!;
    // gen-a beats both (4 of 4), gen-b 2 of 5 (it loses to the reference clip too), gen-c 0 of 4, the reference 1 of 1: gen-c never wins -> no strengths
    expect(quality.models.map((m) => [m.model, m.winRate])).toEqual([
      ["gen-a", 1],
      ["gen-b", 0.4],
      ["gen-c", 0],
      ["reference", 1],
    ]);
    expect(quality.models.every((m) => m.strength === null)).toBe(true);
    expect(quality.strengthReason).toMatch(/never wins or never loses/);
    expect(quality.firstShown.of).toBe(7);
    const physics = section.dimensions.find((d) => d.id === "physics")!;
    // gen-c ties everything: every model wins and loses somewhere -> strengths exist
    expect(physics.models.every((m) => m.strength !== null)).toBe(true);
    expect(physics.models[0].strength!).toBeGreaterThan(physics.models[1].strength!);
    expect(physics.correlation).toMatchObject({ n: 4 });
    expect(section.watch.items.every((row) => row.aLeft === 1 && row.shareWatched === 1)).toBe(true);
  });
});
