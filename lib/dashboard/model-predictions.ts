import { loadModelPredictions, type ModelRunSummary } from "@/lib/models/runs";
import { isAgentRun, loadAgentPredictions } from "@/lib/dashboard/agents";

export type ModelPredictionRow = Awaited<ReturnType<typeof loadModelPredictions>>[number];

/** The study's model predictions, loaded on first call and then shared by every section that shows them. */
export type ModelPredictionsLoader = () => Promise<ModelPredictionRow[]>;

/**
 * One loader per dashboard request: memoised sections that need no predictions never load them.
 * Model agents' answers (lib/dashboard/agents.ts) come with the imported runs' predictions.
 */
export function modelPredictionsLoader(studyId: string, models: readonly ModelRunSummary[]): ModelPredictionsLoader {
  let load: Promise<ModelPredictionRow[]> | undefined;
  const imported = models.some((m) => !isAgentRun(m.id));
  const agents = models.some((m) => isAgentRun(m.id));
  return () =>
    (load ??= Promise.all([imported ? loadModelPredictions(studyId) : [], agents ? loadAgentPredictions(studyId) : []]).then(([runs, answers]) => [...runs, ...answers]));
}
