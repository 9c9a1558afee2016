import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { ModelPredictionRow } from "@/lib/models/types";

/**
 * Data access for model runs (ModelRun, ModelPrediction). Reading answers.jsonl and scoring it are
 * lib/models/runs.ts's.
 */

/** Predictions written per statement (and item ids looked up per query). */
const CHUNK = 5000;

/** The study's items with these external ids, with what scoring a model's answer needs; CHUNK ids a query. */
export async function findItemsToScore(studyId: string, externalIds: string[]) {
  const found: Array<{
    id: string;
    externalId: string;
    kind: string;
    public: Prisma.JsonValue;
    key: Prisma.JsonValue;
    tags: Prisma.JsonValue;
    practice: boolean;
  }> = [];
  for (let start = 0; start < externalIds.length; start += CHUNK) {
    const rows = await db.item.findMany({
      where: { studyId, externalId: { in: externalIds.slice(start, start + CHUNK) } },
      select: { id: true, externalId: true, kind: true, public: true, key: true, tags: true, practice: true },
    });
    found.push(...rows);
  }
  return found;
}

export interface NewPrediction {
  itemId: string;
  answer: Prisma.InputJsonValue;
  score: Prisma.InputJsonValue;
  correct: boolean | null;
}

/**
 * Stores a run of the study under `name` with its predictions, in one transaction, replacing the
 * run of that name if there is one (its predictions go with it); returns the new run's id and how
 * many predictions the replaced run had (null: none was replaced).
 */
export async function replaceModelRun(
  studyId: string,
  name: string,
  createdById: string | null,
  predictions: NewPrediction[],
  unparsed = 0,
): Promise<{ runId: string; replacedCount: number | null }> {
  return db.$transaction(
    async (tx) => {
      const previous = await tx.modelRun.findUnique({
        where: { studyId_name: { studyId, name } },
        select: { id: true, _count: { select: { predictions: true } } },
      });
      if (previous) await tx.modelRun.delete({ where: { id: previous.id } });
      const run = await tx.modelRun.create({ data: { studyId, name, createdById, unparsed }, select: { id: true } });
      for (let start = 0; start < predictions.length; start += CHUNK) {
        await tx.modelPrediction.createMany({
          data: predictions.slice(start, start + CHUNK).map((p) => ({ runId: run.id, itemId: p.itemId, answer: p.answer, score: p.score, correct: p.correct })),
        });
      }
      return { runId: run.id, replacedCount: previous ? previous._count.predictions : null };
    },
    { timeout: 120_000 },
  );
}

/** The study's items that are not practice. */
export async function countNonPracticeItems(studyId: string): Promise<number> {
  const [{ total }] = await db.$queryRaw<Array<{ total: bigint }>>`SELECT count(*) AS total FROM "Item" WHERE "studyId" = ${studyId} AND NOT practice`;
  return Number(total);
}

/** The study's runs by name, with who imported them and their predictions' count. */
export async function listRunsOfStudy(studyId: string) {
  return db.modelRun.findMany({
    where: { studyId },
    orderBy: [{ name: "asc" }],
    select: { id: true, name: true, createdAt: true, unparsed: true, createdBy: { select: { name: true } }, _count: { select: { predictions: true } } },
  });
}

export async function findRunOfStudy(studyId: string, runId: string): Promise<{ id: string; name: string } | null> {
  return db.modelRun.findFirst({ where: { id: runId, studyId }, select: { id: true, name: true } });
}

/** Deletes the run and (cascades) its predictions. */
export async function deleteRun(runId: string): Promise<void> {
  await db.modelRun.delete({ where: { id: runId } });
}

/** Predictions of every run of a study on non-practice items: run id, item id, answer, score (one query, needed columns only). */
export async function listPredictionsOfStudy(studyId: string): Promise<ModelPredictionRow[]> {
  return db.$queryRaw<Array<{ runId: string; itemId: string; answer: unknown; score: unknown; correct: boolean | null }>>`
    SELECT p."runId", p."itemId", p.answer, p.score, p.correct
    FROM "ModelPrediction" p
    JOIN "ModelRun" m ON m.id = p."runId"
    JOIN "Item" i ON i.id = p."itemId"
    WHERE m."studyId" = ${studyId} AND NOT i.practice`;
}

/** The next `limit` predictions, by id after `after`, of items of `kind` (in `studyId`, or every study) whose score is not of `version`. */
export async function listPredictionsScoredOtherwise(
  kind: string,
  version: string,
  studyId: string | null,
  after: string,
  limit: number,
): Promise<Array<{ id: string; answer: unknown; key: unknown }>> {
  return db.$queryRaw<Array<{ id: string; answer: unknown; key: unknown }>>`
              SELECT p.id, p.answer, i.key FROM "ModelPrediction" p JOIN "Item" i ON i.id = p."itemId"
              WHERE i.kind = ${kind} AND (p.score->>'version') IS DISTINCT FROM ${version}
                AND (${studyId}::text IS NULL OR i."studyId" = ${studyId}) AND p.id > ${after}
              ORDER BY p.id LIMIT ${limit}`;
}

export async function setPredictionScore(id: string, score: Prisma.InputJsonValue, correct: boolean | null): Promise<void> {
  await db.modelPrediction.update({ where: { id }, data: { score, correct }, select: { id: true } });
}
