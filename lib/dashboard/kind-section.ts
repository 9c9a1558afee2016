import type { StudySnapshot } from "@/lib/dashboard/snapshot";
import type { ModelPredictionsLoader } from "@/lib/dashboard/model-predictions";
import type { ModelRunSummary } from "@/lib/models/runs";
import type { ScoredAnswer } from "@/lib/tasks/types";

/** What a kind's dashboard section is computed from: one request's snapshot and choices. */
export interface KindDashboardContext {
  studyId: string;
  snapshot: StudySnapshot;
  /** study id and snapshot version: the prefix of every memo key of this snapshot */
  version: string;
  /** the model runs and their prediction counts: part of a memo key of figures that show models */
  modelVersion: string;
  models: ModelRunSummary[];
  /** loads the study's model predictions once per request, shared by every section */
  modelPredictions: ModelPredictionsLoader;
  /** the annotator chosen on the dashboard, null = pooled */
  annotatorId: string | null;
  confidenceScale: "LIKERT_5" | "PERCENT";
  calibrationBins: number;
  idleCapMs: number;
  /** items that failed review, left out of the figures; undefined when they are included */
  excludedItemIds?: ReadonlySet<string>;
  /** every scored human answer of the snapshot (all annotators, plan answers included), with its kind */
  humanAnswers(): Array<{ kind: string; row: ScoredAnswer }>;
  memoize<T>(key: string, compute: () => T): T;
  memoizeAsync<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

/**
 * A kind's (or a family's) section of the study dashboard: lib/tasks/<kind>/dashboard.ts, reached
 * through the module's `dashboard` loader. `section` is its field of the StudyDashboard; kinds of
 * one family share one section (their modules return the same object), computed once.
 */
export interface KindDashboard {
  section: string;
  load(context: KindDashboardContext): Promise<unknown>;
}
