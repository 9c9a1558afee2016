import "server-only";
import cluster from "node:cluster";
import { db } from "@/lib/db";
import { taskKinds, taskModules } from "@/lib/tasks";
import type { KindRescoring } from "@/lib/scoring/kind-scoring";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Stored scores of an older scorer version rescored and written back, for each kind with a
 * rescoring hook (lib/tasks/<kind>/scoring.ts; EXPLORE-Bench's structured scorer):
 * `Response.score`/`correct` and `ModelPrediction.score`/`correct` of the kind's items whose
 * score's `version` is not the hook's. Deterministic and idempotent (the answer and the key do not
 * change; the score is derived from them). Runs once in the background when an app server starts
 * (instrumentation.ts), and from the command line (`npx tsx scripts/rescore-explore.ts`);
 * meanwhile the dashboard rescores stale scores on the fly. Rows whose answer or key cannot be
 * read are left as they are and counted.
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

/** The kinds with a rescoring hook, with their benchmark (for the boot log). */
async function rescoredKinds(): Promise<Array<{ kind: string; benchmark: string; hook: KindRescoring }>> {
  const found = [];
  for (const kind of taskKinds) {
    const load = taskModules[kind].scoring?.rescore;
    if (load) found.push({ kind, benchmark: taskModules[kind].benchmark, hook: await load() });
  }
  return found;
}

export async function rescoreStaleExploreScores(options: { studyId?: string } = {}): Promise<RescoreResult> {
  const result: RescoreResult = { responses: 0, predictions: 0, unreadable: 0 };
  for (const { kind, hook } of await rescoredKinds()) await rescoreKind(kind, hook, options.studyId ?? null, result);
  return result;
}

async function rescoreKind(kind: string, hook: KindRescoring, study: string | null, result: RescoreResult): Promise<void> {
  for (const table of ["response", "prediction"] as const) {
    let after = "";
    for (;;) {
      const rows =
        table === "response"
          ? await db.$queryRaw<Row[]>`
              SELECT r.id, r.answer, i.key FROM "Response" r
              JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId"
              WHERE i.kind = ${kind} AND (r.score->>'version') IS DISTINCT FROM ${hook.version}
                AND (${study}::text IS NULL OR i."studyId" = ${study}) AND r.id > ${after}
              ORDER BY r.id LIMIT ${BATCH}`
          : await db.$queryRaw<Row[]>`
              SELECT p.id, p.answer, i.key FROM "ModelPrediction" p JOIN "Item" i ON i.id = p."itemId"
              WHERE i.kind = ${kind} AND (p.score->>'version') IS DISTINCT FROM ${hook.version}
                AND (${study}::text IS NULL OR i."studyId" = ${study}) AND p.id > ${after}
              ORDER BY p.id LIMIT ${BATCH}`;
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      for (const row of rows) {
        const rescored = hook.rescore(row.answer, row.key);
        if (!rescored) {
          result.unreadable += 1;
          continue;
        }
        const next = { score: rescored.score as Prisma.InputJsonValue, correct: rescored.correct };
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
}

export function rescoreStaleExploreScoresOnBoot(): void {
  if (cluster.isWorker && cluster.worker?.id !== 1) return;
  const timer = setTimeout(() => {
    rescoreAtBoot().catch((error: unknown) => console.error("rescoring at boot failed:", error instanceof Error ? error.message : error));
  }, 5_000);
  timer.unref();
}

async function rescoreAtBoot(): Promise<void> {
  for (const { kind, benchmark, hook } of await rescoredKinds()) {
    const result: RescoreResult = { responses: 0, predictions: 0, unreadable: 0 };
    try {
      await rescoreKind(kind, hook, null, result);
      if (result.responses + result.predictions > 0)
        console.log(`${benchmark}: rescored ${result.responses} responses and ${result.predictions} model predictions with the ${hook.scorer} ${hook.version}`);
    } catch (error) {
      console.error(`${benchmark} rescoring at boot failed:`, error instanceof Error ? error.message : error);
    }
  }
}
