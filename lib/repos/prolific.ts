import "server-only";
import { db } from "@/lib/db";
import type { DbClient, Tx } from "@/lib/db/client-types";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Data access for recruitment through Prolific (docs/prolific.md): the researchers' encrypted API
 * tokens (ProlificToken), the Prolific study made from a Yardstick study with what it pays
 * (ProlificStudy: reward, estimated time, places), the synced submissions (ProlificSubmission) and
 * the batch actions with their rows (ProlificBatch). The logic is lib/recruitment/prolific/'s.
 */

// --- tokens --------------------------------------------------------------------------------------

export async function findActiveProlificToken(userId: string, client: DbClient = db) {
  return client.prolificToken.findFirst({ where: { userId, revokedAt: null }, orderBy: { createdAt: "desc" } });
}

/** Revokes the user's unrevoked tokens; how many. */
export async function revokeProlificTokens(tx: Tx, userId: string, at: Date): Promise<number> {
  return (await tx.prolificToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: at } })).count;
}

export async function insertProlificToken(tx: Tx, data: { userId: string; ciphertext: string; last4: string }) {
  return tx.prolificToken.create({ data, select: { id: true, last4: true, createdAt: true } });
}

export async function touchProlificToken(id: string): Promise<void> {
  await db.prolificToken.update({ where: { id }, data: { lastUsedAt: new Date() } });
}

// --- the Prolific study --------------------------------------------------------------------------

export type ProlificStudyRow = Prisma.ProlificStudyGetPayload<object>;

export async function findProlificStudy(studyId: string): Promise<ProlificStudyRow | null> {
  return db.prolificStudy.findUnique({ where: { studyId } });
}

export async function insertProlificStudy(data: Prisma.ProlificStudyUncheckedCreateInput): Promise<ProlificStudyRow> {
  return db.prolificStudy.create({ data });
}

export async function updateProlificStudy(studyId: string, data: Prisma.ProlificStudyUncheckedUpdateInput): Promise<ProlificStudyRow> {
  return db.prolificStudy.update({ where: { studyId }, data });
}

export async function findProlificStudyByProlificId(prolificId: string): Promise<ProlificStudyRow | null> {
  return db.prolificStudy.findUnique({ where: { prolificId } });
}

/** Prolific studies whose submissions may still change: published and not yet completed on Prolific. */
export async function listProlificStudiesToSync(): Promise<Array<{ studyId: string }>> {
  return db.prolificStudy.findMany({ where: { status: { in: ["ACTIVE", "PAUSED", "AWAITING REVIEW"] } }, select: { studyId: true } });
}

// --- submissions ---------------------------------------------------------------------------------

export interface SubmissionUpsert {
  id: string;
  studyId: string;
  participantId: string;
  userId: string | null;
  status: string;
  startedAt: Date | null;
  completedAt: Date | null;
  timeTakenSeconds: number | null;
}

/** Stores a submission's state; its status before (null: new). */
export async function upsertProlificSubmission(tx: Tx, row: SubmissionUpsert): Promise<{ before: string | null; placeFreedAt: Date | null }> {
  const existing = await tx.prolificSubmission.findUnique({ where: { id: row.id }, select: { status: true, studyId: true, placeFreedAt: true } });
  if (existing && existing.studyId !== row.studyId) return { before: existing.status, placeFreedAt: existing.placeFreedAt };
  const { id, ...data } = row;
  await tx.prolificSubmission.upsert({ where: { id }, create: row, update: data });
  return { before: existing?.status ?? null, placeFreedAt: existing?.placeFreedAt ?? null };
}

export async function findProlificSubmission(id: string) {
  return db.prolificSubmission.findUnique({ where: { id } });
}

export async function markSubmissionPlaceFreed(tx: Tx, id: string): Promise<void> {
  await tx.prolificSubmission.update({ where: { id }, data: { placeFreedAt: new Date() } });
}

export async function listProlificSubmissions(studyId: string) {
  return db.prolificSubmission.findMany({ where: { studyId }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] });
}

export async function setSubmissionStatuses(tx: Tx, ids: string[], status: string): Promise<void> {
  await tx.prolificSubmission.updateMany({ where: { id: { in: ids } }, data: { status } });
}

/** The study's participant who entered with this PROLIFIC_PID (User.externalSource "prolific", per study). */
export async function findProlificParticipant(client: DbClient, studyId: string, participantId: string): Promise<{ id: string } | null> {
  return client.user.findFirst({
    where: { externalSource: "prolific", externalStudyId: studyId, externalId: participantId.toLowerCase() },
    select: { id: true },
  });
}

// --- what the rules read -------------------------------------------------------------------------

export interface ParticipantQualityRow {
  userId: string;
  status: string;
  statusReason: string | null;
  goldAnswered: number;
  goldFailed: number;
  /** non-practice, non-gold answers, and how many of them are correct */
  answered: number;
  correct: number;
  /** the participant's answer time: the sum of their answers' wall time */
  wallMs: number;
}

/** Per participant of the study (people only): standing, attention (gold) checks, correct answers and answer time. */
export async function listParticipantQuality(studyId: string): Promise<ParticipantQualityRow[]> {
  const rows = await db.$queryRaw<
    Array<{
      userId: string;
      status: string;
      statusReason: string | null;
      goldAnswered: bigint;
      goldFailed: bigint;
      answered: bigint;
      correct: bigint;
      wallMs: bigint | null;
    }>
  >`
    SELECT m."userId", m.status::text AS status, m."statusReason",
      count(r.id) FILTER (WHERE i.gold AND a.purpose <> 'PRACTICE') AS "goldAnswered",
      count(r.id) FILTER (WHERE i.gold AND a.purpose <> 'PRACTICE' AND r.correct = false) AS "goldFailed",
      count(r.id) FILTER (WHERE NOT i.gold AND a.purpose <> 'PRACTICE') AS answered,
      count(r.id) FILTER (WHERE NOT i.gold AND a.purpose <> 'PRACTICE' AND r.correct) AS correct,
      sum(r."wallMs") FILTER (WHERE a.purpose <> 'PRACTICE') AS "wallMs"
    FROM "StudyMember" m
    JOIN "User" u ON u.id = m."userId" AND NOT u."isAgent"
    LEFT JOIN "Assignment" a ON a."studyId" = m."studyId" AND a."userId" = m."userId"
    LEFT JOIN "Item" i ON i.id = a."itemId"
    LEFT JOIN "Response" r ON r."assignmentId" = a.id
    WHERE m."studyId" = ${studyId}
    GROUP BY m."userId", m.status, m."statusReason"`;
  return rows.map((r) => ({
    userId: r.userId,
    status: r.status,
    statusReason: r.statusReason,
    goldAnswered: Number(r.goldAnswered),
    goldFailed: Number(r.goldFailed),
    answered: Number(r.answered),
    correct: Number(r.correct),
    wallMs: Number(r.wallMs ?? 0),
  }));
}

// --- batches -------------------------------------------------------------------------------------

export type ProlificBatchRow = Prisma.ProlificBatchGetPayload<object>;

export async function insertProlificBatch(data: Prisma.ProlificBatchUncheckedCreateInput): Promise<ProlificBatchRow> {
  return db.prolificBatch.create({ data });
}

export async function findProlificBatch(studyId: string, id: string): Promise<ProlificBatchRow | null> {
  return db.prolificBatch.findFirst({ where: { id, studyId } });
}

/** Takes a PREVIEW batch to RUNNING; false when another confirm took it first (or it ran already). */
export async function claimProlificBatch(id: string): Promise<boolean> {
  return (await db.prolificBatch.updateMany({ where: { id, state: "PREVIEW" }, data: { state: "RUNNING" } })).count === 1;
}

export async function updateProlificBatch(id: string, data: Prisma.ProlificBatchUncheckedUpdateInput): Promise<ProlificBatchRow> {
  return db.prolificBatch.update({ where: { id }, data });
}

export async function listProlificBatches(studyId: string, take = 50): Promise<ProlificBatchRow[]> {
  return db.prolificBatch.findMany({ where: { studyId }, orderBy: { createdAt: "desc" }, take });
}

/**
 * The bonuses paid in the study: DONE bonus batches' rows and totals (what the report's
 * compensation reads). `orPending`: also batches running or whose pay request was sent without an
 * answer (paidAt set), which a new bonus batch must not pay again.
 */
export async function listPaidBonusBatches(
  studyId: string,
  orPending = false,
): Promise<Array<{ rule: Prisma.JsonValue; rows: Prisma.JsonValue; totalAmount: number; paidAt: Date | null }>> {
  const where: Prisma.ProlificBatchWhereInput = orPending
    ? { studyId, action: "bonus", OR: [{ state: { in: ["DONE", "RUNNING"] } }, { paidAt: { not: null } }] }
    : { studyId, action: "bonus", state: "DONE" };
  return db.prolificBatch.findMany({ where, select: { rule: true, rows: true, totalAmount: true, paidAt: true }, orderBy: { createdAt: "asc" } });
}

// --- the Yardstick study ---------------------------------------------------------------------------

/** What making a Prolific study from a Yardstick study reads of it. */
export async function findStudyForProlific(slug: string) {
  return db.study.findUnique({
    where: { slug },
    select: {
      id: true,
      slug: true,
      title: true,
      instructions: true,
      createdById: true,
      entryToken: true,
      completionCode: true,
      endings: true,
      desktopOnly: true,
      status: true,
    },
  });
}
