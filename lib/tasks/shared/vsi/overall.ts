import { VSI_MCA_QUESTION_TYPES, VSI_NA_QUESTION_TYPES } from "@/lib/tasks/shared/vsi/release";

/**
 * VSI-Bench's overall score as its released code aggregates (lmms_eval/tasks/vsibench/utils.py,
 * `vsibench_aggregate_results`): the mean score of each question type (accuracy for multiple
 * choice, MRA for numerical answers), the three object_rel_direction types (easy, medium, hard)
 * replaced by their mean as one type, then the mean of those type means. The release requires all
 * three direction types once one is present; here the ones present are averaged. Fractions (the
 * release prints x 100).
 */

export const VSI_QUESTION_TYPES: readonly string[] = [...VSI_MCA_QUESTION_TYPES, ...VSI_NA_QUESTION_TYPES];
const DIRECTION_TYPES: readonly string[] = ["object_rel_direction_easy", "object_rel_direction_medium", "object_rel_direction_hard"];
export const MERGED_DIRECTION = "object_rel_direction";

export interface VsiOverall {
  /** question type -> mean score and answers (the direction types merged), in the release's table order */
  types: Array<{ type: string; score: number; answers: number }>;
  overall: number | null;
}

const TABLE_ORDER = ["object_counting", "object_abs_distance", "object_size_estimation", "room_size_estimation", "object_rel_distance", MERGED_DIRECTION, "route_planning", "obj_appearance_order"];

export function isVsiQuestionType(type: unknown): type is string {
  return typeof type === "string" && VSI_QUESTION_TYPES.includes(type);
}

/** Rows: each scored answer's question type and score (1/0 or MRA). */
export function vsiOverall(rows: ReadonlyArray<{ questionType: string; score: number }>): VsiOverall {
  const byType = new Map<string, { sum: number; n: number }>();
  for (const row of rows) {
    if (!isVsiQuestionType(row.questionType)) continue;
    const cell = byType.get(row.questionType) ?? { sum: 0, n: 0 };
    cell.sum += row.score;
    cell.n++;
    byType.set(row.questionType, cell);
  }
  const means = new Map<string, { score: number; answers: number }>();
  for (const [type, cell] of byType) if (!DIRECTION_TYPES.includes(type)) means.set(type, { score: cell.sum / cell.n, answers: cell.n });
  const directions = DIRECTION_TYPES.flatMap((type) => (byType.has(type) ? [byType.get(type)!] : []));
  if (directions.length > 0) {
    means.set(MERGED_DIRECTION, { score: directions.reduce((sum, cell) => sum + cell.sum / cell.n, 0) / directions.length, answers: directions.reduce((sum, cell) => sum + cell.n, 0) });
  }
  const types = TABLE_ORDER.flatMap((type) => (means.has(type) ? [{ type, ...means.get(type)! }] : []));
  return { types, overall: types.length > 0 ? types.reduce((sum, t) => sum + t.score, 0) / types.length : null };
}
