/** The dashboard's data shapes (types only), read by lib/tasks/types.ts's dashboard contract without importing the loaders. */
import type { Tags } from "@/lib/dashboard/snapshot-utils";
import type { ModelPredictionRow } from "@/lib/models/types";

export interface SnapshotItems {
  /** answer keys, loaded only for kinds whose agreement encodings need them (else undefined) */
  keys: unknown[];
  ids: string[];
  externalIds: string[];
  kinds: string[];
  tags: Tags[];
  index: Map<string, number>;
}

export interface SnapshotResponses {
  count: number;
  /** index into items */
  item: Int32Array;
  /** index into annotators */
  annotator: Int32Array;
  /** 1 when the assignment's purpose is AGREEMENT (else MAIN) */
  agreement: Uint8Array;
  /** the study condition of the answer's assignment (Study.conditions): an index into StudySnapshot.conditions, NO_CONDITION when it has none */
  condition: Int32Array;
  /** 1 right, 0 wrong, CORRECTNESS_UNKNOWN: the answer has no correctness (an item without a key, an answer not graded yet) */
  correct: Uint8Array;
  /** normalised to [0, 1] */
  confidence: Float64Array;
  wallMs: Float64Array;
  activeMs: Float64Array;
  /** epoch milliseconds */
  createdAt: Float64Array;
  score: unknown[];
  answer: unknown[];
}

export interface StudySnapshot {
  studyId: string;
  version: string;
  /** epoch ms when the snapshot was read */
  loadedAt: number;
  items: SnapshotItems;
  /** users with at least one non-practice response, by name; names only (never emails) */
  annotators: Array<{ id: string; name: string }>;
  /** the study conditions the answers were given under, as SnapshotResponses.condition indexes them */
  conditions: string[];
  responses: SnapshotResponses;
}

/** The study's model predictions, loaded on first call and then shared by every section that shows them. */
export type ModelPredictionsLoader = () => Promise<ModelPredictionRow[]>;
