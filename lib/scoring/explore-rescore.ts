import "server-only";
import cluster from "node:cluster";
import { listPredictionsScoredOtherwise, setPredictionScore } from "@/lib/repos/models";
import { listResponsesScoredOtherwise, setResponseScore, type AnswerWithKey } from "@/lib/repos/responses";
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
      const rows: AnswerWithKey[] =
        table === "response"
          ? await listResponsesScoredOtherwise(kind, hook.version, study, after, BATCH)
          : await listPredictionsScoredOtherwise(kind, hook.version, study, after, BATCH);
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      for (const row of rows) {
        const rescored = hook.rescore(row.answer, row.key);
        if (!rescored) {
          result.unreadable += 1;
          continue;
        }
        const score = rescored.score as Prisma.InputJsonValue;
        if (table === "response") {
          await setResponseScore(row.id, score, rescored.correct);
          result.responses += 1;
        } else {
          await setPredictionScore(row.id, score, rescored.correct);
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
