import "server-only";
import { db } from "@/lib/db";
import type { DbClient } from "@/lib/db/client-types";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Data access for responses (Response, with the trajectory events of their assignments). The
 * rules of answering (exactly once, one writer, the scores) are lib/responses's.
 */

/** A stored answer (or prediction) with its item's key, for rescoring. */
export interface AnswerWithKey {
  id: string;
  answer: unknown;
  key: unknown;
}

/** The next `limit` responses, by id after `after`, to items of `kind` (in `studyId`, or every study) whose score is not of `version`. */
export async function listResponsesScoredOtherwise(
  kind: string,
  version: string,
  studyId: string | null,
  after: string,
  limit: number,
): Promise<AnswerWithKey[]> {
  return db.$queryRaw<AnswerWithKey[]>`
              SELECT r.id, r.answer, i.key FROM "Response" r
              JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId"
              WHERE i.kind = ${kind} AND (r.score->>'version') IS DISTINCT FROM ${version}
                AND (${studyId}::text IS NULL OR i."studyId" = ${studyId}) AND r.id > ${after}
              ORDER BY r.id LIMIT ${limit}`;
}

export async function setResponseScore(id: string, score: Prisma.InputJsonValue, correct: boolean | null): Promise<void> {
  await db.response.update({ where: { id }, data: { score, correct }, select: { id: true } });
}

/** Responses stored in the study (any purpose, practice included). */
export async function countResponsesOfStudy(studyId: string, client: DbClient = db): Promise<number> {
  const [row] = await client.$queryRaw<Array<{ n: bigint }>>`
    SELECT count(*) AS n FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."studyId" = ${studyId}`;
  return Number(row?.n ?? 0);
}
