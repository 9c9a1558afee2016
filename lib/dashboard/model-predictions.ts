import { loadModelPredictions } from "@/lib/models/runs";
import type { ModelPredictionRow, ModelRunSummary } from "@/lib/models/types";
import type { ModelPredictionsLoader } from "@/lib/dashboard/types";
import { isAgentRun, loadAgentPredictions } from "@/lib/dashboard/agents";

export type { ModelPredictionRow, ModelPredictionsLoader };

/**
 * One loader per dashboard request: memoised sections that need no predictions never load them.
 * Model agents' answers (lib/dashboard/agents.ts) come with the imported runs' predictions.
 */
export function modelPredictionsLoader(studyId: string, models: readonly ModelRunSummary[]): ModelPredictionsLoader {
  let load: Promise<ModelPredictionRow[]> | undefined;
  const imported = models.some((m) => !isAgentRun(m.id));
  const agents = models.some((m) => isAgentRun(m.id));
  return () =>
    (load ??= Promise.all([imported ? loadModelPredictions(studyId) : [], agents ? loadAgentPredictions(studyId) : []]).then(([runs, answers]) => [
      ...runs,
      ...answers,
    ]));
}
