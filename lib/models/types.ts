/** The shapes of imported model runs that the dashboard and the task kinds read (types only: no imports). */

export interface ModelRunSummary {
  id: string;
  name: string;
  createdAt: Date;
  predictions: number;
  /** outputs the benchmark's parser read no answer from, scored wrong */
  unparsed: number;
  importedBy: string | null;
}

/** One scored model prediction of a study's item. */
export interface ModelPredictionRow {
  runId: string;
  itemId: string;
  answer: unknown;
  score: unknown;
  /** null: the prediction has no correctness (an item without a key, not graded yet) */
  correct: boolean | null;
  /** a model agent's answer: its assignment's study condition (null: none); imported predictions have none here */
  condition?: string | null;
}
