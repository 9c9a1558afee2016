import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { assignItemsTo, endParticipation, nextAssignment, releaseOpenWork } from "@/lib/assignment";
import { getStudyProgress, recomputeStudyProgress } from "@/lib/dashboard/progress";
import { MIGRATIONS_DIR } from "@/lib/db/schema-engine";
import { actOnParticipant, withdrawFromStudy } from "@/lib/participants/participants";
import { recordEvents } from "@/lib/responses/events";
import { submitResponse } from "@/lib/responses/responses";
import { addMember, createEnactItems, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * The progress tallies (kept by PostgreSQL triggers) against the full recomputation
 * (recomputeProgressCounts, lib/repos/dashboard-progress.ts): a seeded random sequence of writes, through the app's own functions
 * where they exist (next item, events, submissions, releases, exclusions, withdrawals,
 * pre-assignment) and raw SQL for the rest (items made practice or gold, added and deleted, the
 * study's conditions, agents' work, answers deleted or moved to another day, assignments moved to
 * another purpose or condition); after every few steps every StudyProgress figure, at several
 * overlaps, must be exactly the recomputed one.
 */

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATUSES = ["ASSIGNED", "STARTED", "SUBMITTED", "RELEASED"] as const;
const PURPOSES = ["MAIN", "AGREEMENT", "PRACTICE"] as const;
const CONDITIONS: string[][] = [[], ["single"], ["single", "multi"]];

async function expectTalliesRight(studyId: string, label: () => string) {
  for (const overlap of [0, 1, 2, 3]) {
    const [fromTallies, recomputed] = [await getStudyProgress(studyId, overlap), await recomputeStudyProgress(studyId, overlap)];
    expect(fromTallies, `${label()} (overlap ${overlap})`).toEqual(recomputed);
  }
}

/** The seeded random sequence of writes; returns the study's id and the steps taken. */
async function randomWrites(seed: number, steps: number, check: (studyId: string, log: string[]) => Promise<void>) {
  const random = mulberry32(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const log: string[] = [];
  const researcher = await createUser("RESEARCHER");
  const study = await createStudy({ overlap: 2 });
  await db.study.update({ where: { id: study.id }, data: { conditions: pick(CONDITIONS) } });
  await createEnactItems(study.id, { count: 6 });
  const users: Array<{ id: string }> = [];
  for (let u = 0; u < 4; u++) {
    const user = await createUser("ANNOTATOR");
    await addMember(study.id, user.id);
    users.push(user);
  }
  const agent = await createUser("ANNOTATOR");
  let seq = 0;
  const itemIds = async () => (await db.item.findMany({ where: { studyId: study.id }, select: { id: true }, orderBy: { id: "asc" } })).map((i) => i.id);
  const assignmentsOf = async (userId?: string) =>
    db.assignment.findMany({
      where: { studyId: study.id, ...(userId ? { userId } : {}) },
      select: { id: true, userId: true, status: true, itemId: true, response: { select: { id: true } } },
      orderBy: { id: "asc" },
    });

  const actions: Array<[number, string, () => Promise<unknown>]> = [
    [10, "next item", async () => (await nextAssignment(study.id, pick(users).id)).status],
    [
      4,
      "shown (item_shown event)",
      async () => {
        const user = pick(users);
        const open = (await assignmentsOf(user.id)).filter((a) => a.status === "ASSIGNED");
        if (open.length === 0) return;
        const a = pick(open);
        await recordEvents(user.id, [
          { assignmentId: a.id, seq: seq++, type: "item_shown", clientTime: Date.now(), payload: { kind: "enact-forward", resumed: false } },
        ]);
      },
    ],
    [
      12,
      "submission",
      async () => {
        const unanswered = (await assignmentsOf()).filter((a) => a.response === null && a.userId !== agent.id);
        if (unanswered.length === 0) return "nothing to answer";
        const a = pick(unanswered);
        await submitResponse(a.userId, {
          assignmentId: a.id,
          clientId: randomUUID(),
          answer: {
            order: pick([
              [1, 2, 0],
              [0, 1, 2],
            ]),
          },
          confidence: 3,
          wallMs: 1,
          activeMs: 1,
          submitSeq: 0,
        });
      },
    ],
    [2, "open work released", async () => releaseOpenWork(db, study.id, pick(users).id)],
    [1, "excluded by rule", async () => endParticipation(db, study.id, pick(users).id, "EXCLUDED", "failed checks (test)")],
    [2, "re-included", async () => actOnParticipant(study.slug, { action: "reinclude", userId: pick(users).id }, researcher.id)],
    [1, "withdrawal", async () => withdrawFromStudy(study.slug, pick(users).id)],
    [2, "pre-assigned (agreement or practice)", async () => assignItemsTo(pick(users).id, [pick(await itemIds())], pick(["AGREEMENT", "PRACTICE"] as const))],
    [
      2,
      "item made practice / gold / ordinary",
      async () => {
        const id = pick(await itemIds());
        await db.item.update({ where: { id }, data: pick([{ practice: true }, { gold: true }, { practice: false, gold: false }, { gold: false }]) });
      },
    ],
    [1, "items added", async () => createEnactItems(study.id, { count: 1 + Math.floor(random() * 2) })],
    [1, "item deleted", async () => db.item.delete({ where: { id: pick(await itemIds()) } })],
    [
      1,
      "batch deleted",
      async () => {
        const batches = await db.batch.findMany({ where: { studyId: study.id }, select: { id: true } });
        if (batches.length > 2) await db.batch.delete({ where: { id: pick(batches).id } });
      },
    ],
    [1, "conditions changed", async () => db.study.update({ where: { id: study.id }, data: { conditions: pick(CONDITIONS) } })],
    [
      3,
      "assignment of any purpose and status (raw)",
      async () => {
        const user = pick(users);
        const had = new Set((await assignmentsOf(user.id)).map((a) => a.itemId));
        const free = (await itemIds()).filter((id) => !had.has(id));
        if (free.length === 0) return "nothing free";
        const study_ = await db.study.findUniqueOrThrow({ where: { id: study.id }, select: { conditions: true } });
        await db.assignment.create({
          data: {
            studyId: study.id,
            itemId: pick(free),
            userId: user.id,
            position: 0,
            purpose: pick(PURPOSES),
            status: pick(STATUSES),
            condition: study_.conditions.length > 0 ? pick([...study_.conditions, null]) : null,
          },
        });
      },
    ],
    [
      2,
      "agent's answered work (raw)",
      async () => {
        const itemId = pick(await itemIds());
        const id = randomUUID();
        const rows = await db.$executeRaw`INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", position, purpose, status, agent, "submittedAt")
        VALUES (${id}, ${study.id}, ${itemId}, ${agent.id}, 0, 'MAIN', 'SUBMITTED', true, now()) ON CONFLICT DO NOTHING`;
        if (rows > 0)
          await db.response.create({
            data: { assignmentId: id, clientId: randomUUID(), answer: {}, confidenceRaw: 3, confidence: 0.5, wallMs: 1, activeMs: 1, score: {}, correct: true },
          });
      },
    ],
    [
      2,
      "answer deleted (raw)",
      async () => {
        const answered = (await assignmentsOf()).filter((a) => a.response !== null);
        if (answered.length > 0) await db.response.delete({ where: { id: pick(answered).response!.id } });
      },
    ],
    [
      1,
      "assignment deleted (raw)",
      async () => {
        const all = await assignmentsOf();
        if (all.length > 0) await db.assignment.delete({ where: { id: pick(all).id } });
      },
    ],
    [
      2,
      "answer moved to another day (raw)",
      async () => {
        const answered = (await assignmentsOf()).filter((a) => a.response !== null);
        if (answered.length > 0)
          await db.$executeRaw`UPDATE "Response" SET "createdAt" = "createdAt" - make_interval(days => ${1 + Math.floor(random() * 3)}) WHERE id = ${pick(answered).response!.id}`;
      },
    ],
    [
      2,
      "status / purpose / condition changed (raw)",
      async () => {
        const all = await assignmentsOf();
        if (all.length === 0) return;
        const id = pick(all).id;
        const change = Math.floor(random() * 3);
        if (change === 0) await db.assignment.update({ where: { id }, data: { status: pick(STATUSES) } });
        else if (change === 1) await db.assignment.update({ where: { id }, data: { purpose: pick(PURPOSES) } });
        else await db.assignment.update({ where: { id }, data: { condition: pick(["single", "multi", "other", null]) } });
      },
    ],
  ];
  const total = actions.reduce((sum, [weight]) => sum + weight, 0);
  for (let step = 0; step < steps; step++) {
    let r = random() * total;
    const [, name, act] = actions.find(([weight]) => (r -= weight) < 0) ?? actions[0]!;
    // refusals (a conflict, a withdrawn participant asking for work) are writes that did not happen: the tallies must not move either
    const outcome = await act().then(
      (value) => (typeof value === "string" ? value : "ok"),
      (error: unknown) => `refused: ${error instanceof Error ? error.message.slice(0, 60) : String(error)}`,
    );
    log.push(`${step}: ${name} (${outcome})`);
    if (step % 3 === 2 || step === steps - 1) await check(study.id, log);
  }
  return { studyId: study.id, log };
}

const TRIGGERS: Array<[table: string, trigger: string]> = [
  ["Response", "progress_responses_inserted"],
  ["Response", "progress_responses_deleted"],
  ["Response", "progress_response_moved"],
  ["Assignment", "progress_assignments_inserted"],
  ["Assignment", "progress_assignments_deleted"],
  ["Assignment", "progress_assignment_deleting"],
  ["Assignment", "progress_assignment_updated"],
  ["Item", "progress_items_inserted"],
  ["Item", "progress_items_deleted"],
  ["Item", "progress_item_deleting"],
  ["Item", "progress_item_updated"],
  ["Study", "progress_study_conditions"],
];

describe("progress tallies (kept by triggers)", () => {
  afterAll(disconnectDb);

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`equal the full recomputation after every few random writes (seed ${seed})`, async () => {
      await resetDatabase();
      await randomWrites(seed, 90, (studyId, log) => expectTalliesRight(studyId, () => `seed ${seed}, after\n${log.slice(-6).join("\n")}`));
    }, 300_000);
  }

  it("a deleted annotator's work leaves the figures, and a deleted study's tally rows go with it", async () => {
    await resetDatabase();
    const { studyId } = await randomWrites(10, 60, async () => {});
    const worker = await db.assignment.findFirst({ where: { studyId, agent: false, response: { isNot: null } }, select: { userId: true } });
    expect(worker).not.toBeNull();
    await db.user.delete({ where: { id: worker!.userId } });
    await expectTalliesRight(studyId, () => "after a user was deleted");
    await db.study.delete({ where: { id: studyId } });
    const left = await db.$queryRaw<Array<{ n: bigint }>>`
      SELECT (SELECT count(*) FROM "ProgressUserTally") + (SELECT count(*) FROM "ProgressDayTally") + (SELECT count(*) FROM "ProgressItemTally")
        + (SELECT count(*) FROM "ProgressLevelTally") + (SELECT count(*) FROM "ProgressItemCount") AS n`;
    expect(Number(left[0]!.n)).toBe(0);
  }, 300_000);

  it("the migration's backfill of existing data gives the figures the triggers kept", async () => {
    const dir = readdirSync(MIGRATIONS_DIR).find((d) => d.endsWith("_progress_tallies"))!;
    const sql = readFileSync(path.join(MIGRATIONS_DIR, dir, "migration.sql"), "utf8");
    const backfill = sql.slice(sql.indexOf("-- the tallies of the existing data"));
    for (const seed of [7, 8, 9]) {
      await resetDatabase();
      const { studyId } = await randomWrites(seed, 90, async () => {});
      const kept = await Promise.all([1, 2, 3].map((overlap) => getStudyProgress(studyId, overlap)));
      await db.$executeRawUnsafe(`TRUNCATE "ProgressUserTally", "ProgressDayTally", "ProgressItemTally", "ProgressLevelTally", "ProgressItemCount"`);
      expect((await getStudyProgress(studyId, 1)).done).toBe(0);
      for (const statement of backfill.split(/;\s*\n/).filter((s) => s.replace(/--.*$/gm, "").trim() !== "")) await db.$executeRawUnsafe(statement);
      for (const overlap of [1, 2, 3]) {
        expect(await getStudyProgress(studyId, overlap), `seed ${seed}`).toEqual(kept[overlap - 1]);
        expect(await getStudyProgress(studyId, overlap), `seed ${seed}`).toEqual(await recomputeStudyProgress(studyId, overlap));
      }
    }
  }, 300_000);

  // the test above can fail: without any one of the triggers, some figure parts from the recomputation
  for (const [table, trigger] of TRIGGERS) {
    it(`catches a missing trigger: ${trigger}`, async () => {
      let parted = 0;
      await db.$executeRawUnsafe(`ALTER TABLE "${table}" DISABLE TRIGGER ${trigger}`);
      try {
        for (const seed of [1, 2, 3, 4, 5, 6]) {
          await resetDatabase();
          await randomWrites(seed, 90, async (studyId) => {
            for (const overlap of [1, 2])
              if (!isDeepStrictEqual(await getStudyProgress(studyId, overlap), await recomputeStudyProgress(studyId, overlap))) parted += 1;
          });
          if (parted > 0) break;
        }
      } finally {
        await db.$executeRawUnsafe(`ALTER TABLE "${table}" ENABLE TRIGGER ${trigger}`);
      }
      expect(parted).toBeGreaterThan(0);
    }, 300_000);
  }
});
