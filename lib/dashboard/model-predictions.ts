import { loadModelPredictions, type ModelRunSummary } from "@/lib/models/runs";

export type ModelPredictionRow = Awaited<ReturnType<typeof loadModelPredictions>>[number];

/** The study's model predictions, loaded on first call and then shared by every section that shows them. */
export type ModelPredictionsLoader = () => Promise<ModelPredictionRow[]>;

/** One loader per dashboard request: memoised sections that need no predictions never load them. */
export function modelPredictionsLoader(studyId: string, models: readonly ModelRunSummary[]): ModelPredictionsLoader {
  let load: Promise<ModelPredictionRow[]> | undefined;
  return () => (load ??= models.length > 0 ? loadModelPredictions(studyId) : Promise.resolve([]));
}
