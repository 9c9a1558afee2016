import "server-only";
import cluster from "node:cluster";
import { db } from "@/lib/db";
import { exploreSceneKeySchema, parseExploreModelAnswer } from "@/lib/tasks/explore-scene";
import { EXPLORE_STRUCTURED_VERSION, scoreStructured } from "@/lib/tasks/shared/explore/scorer";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Stored EXPLORE-Bench structured scores of an older scorer version (before EXPLORE_STRUCTURED_VERSION)
 * rescored and written back: `Response.score`/`correct` and `ModelPrediction.score`/`correct` of
 * explore-scene items whose score's `version` is not the current one. Deterministic and idempotent
 * (the answer and the key do not change; the score is derived from them). Runs once in the
 * background when an app server starts (instrumentation.ts), and from the command line
 * (`npx tsx scripts/rescore-explore.ts`); meanwhile the dashboard rescores stale scores on the fly.
 * Rows whose answer or key cannot be read are left as they are and counted.
 */
export interface RescoreResult {
  responses: number;
  predictions: number;
  unreadable: number;
}

const BATCH = 200;

interface Row {
  id: string;
  answer: unknown;
  key: unknown;
}

function rescored(row: Row): { score: Prisma.InputJsonValue; correct: boolean } | null {
  const key = exploreSceneKeySchema.safeParse(row.key);
  const answer = parseExploreModelAnswer(row.answer);
  if (!key.success || !answer) return null;
  const score = scoreStructured(answer, key.data);
  return { score: score as unknown as Prisma.InputJsonValue, correct: score.correct };
}

export async function rescoreStaleExploreScores(options: { studyId?: string } = {}): Promise<RescoreResult> {
  const result: RescoreResult = { responses: 0, predictions: 0, unreadable: 0 };
  const study = options.studyId ?? null;
  for (const table of ["response", "prediction"] as const) {
    let after = "";
    for (;;) {
      const rows =
        table === "response"
          ? await db.$queryRaw<Row[]>`
              SELECT r.id, r.answer, i.key FROM "Response" r
              JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId"
              WHERE i.kind = 'explore-scene' AND (r.score->>'version') IS DISTINCT FROM ${EXPLORE_STRUCTURED_VERSION}
                AND (${study}::text IS NULL OR i."studyId" = ${study}) AND r.id > ${after}
              ORDER BY r.id LIMIT ${BATCH}`
          : await db.$queryRaw<Row[]>`
              SELECT p.id, p.answer, i.key FROM "ModelPrediction" p JOIN "Item" i ON i.id = p."itemId"
              WHERE i.kind = 'explore-scene' AND (p.score->>'version') IS DISTINCT FROM ${EXPLORE_STRUCTURED_VERSION}
                AND (${study}::text IS NULL OR i."studyId" = ${study}) AND p.id > ${after}
              ORDER BY p.id LIMIT ${BATCH}`;
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      for (const row of rows) {
        const next = rescored(row);
        if (!next) {
          result.unreadable += 1;
          continue;
        }
        if (table === "response") {
          await db.response.update({ where: { id: row.id }, data: next, select: { id: true } });
          result.responses += 1;
        } else {
          await db.modelPrediction.update({ where: { id: row.id }, data: next, select: { id: true } });
          result.predictions += 1;
        }
        // yield between rows: scoring is CPU work and the server keeps answering requests
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
  return result;
}

/**
 * At boot (instrumentation.ts): rescore stale scores in the background, a few seconds after start,
 * in one process only (the cluster's first worker, or a lone process). Errors are logged, never thrown.
 */
export function rescoreStaleExploreScoresOnBoot(): void {
  if (cluster.isWorker && cluster.worker?.id !== 1) return;
  const timer = setTimeout(() => {
    rescoreStaleExploreScores().then(
      (result) => {
        if (result.responses + result.predictions > 0) console.log(`EXPLORE-Bench: rescored ${result.responses} responses and ${result.predictions} model predictions with the structured scorer ${EXPLORE_STRUCTURED_VERSION}`);
      },
      (error: unknown) => console.error("EXPLORE-Bench rescoring at boot failed:", error instanceof Error ? error.message : error),
    );
  }, 5_000);
  timer.unref();
}
