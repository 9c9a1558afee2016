import { VSI_MCA_QUESTION_TYPES, VSI_NA_QUESTION_TYPES } from "@/lib/tasks/shared/vsi/release";

/**
 * VSI-Bench's overall score as its released code aggregates (lmms_eval/tasks/vsibench/utils.py,
 * `vsibench_aggregate_results`): the mean score of each question type present (accuracy for
 * multiple choice, MRA for numerical answers); when object_rel_direction_easy is present, it and
 * the medium and hard types are replaced by their mean as one type (the release then needs all
 * three: without medium or hard it stops with a KeyError, and there is no overall); without easy,
 * medium and hard stay two entries; then the mean over the entries. On a subset that lacks easy
 * direction questions this differs from merging the direction types present into one
 * (`mergedPresent`, shown beside it). Fractions (the release prints x 100).
 */

export const VSI_QUESTION_TYPES: readonly string[] = [...VSI_MCA_QUESTION_TYPES, ...VSI_NA_QUESTION_TYPES];
const EASY = "object_rel_direction_easy";
const DIRECTION_TYPES: readonly string[] = [EASY, "object_rel_direction_medium", "object_rel_direction_hard"];
export const MERGED_DIRECTION = "object_rel_direction";

export interface VsiOverall {
  /** the entries the released overall averages: question type -> mean score and answers, in the release's table order */
  types: Array<{ type: string; score: number; answers: number }>;
  /** the released overall; null with no answers or where the released code stops (releasedError) */
  overall: number | null;
  /** why the released code has no overall here */
  releasedError?: string;
  /** the mean over the types with the direction types present merged into one (Yardstick's reading of a subset) */
  mergedPresent: number | null;
}

const TABLE_ORDER = [
  "object_counting",
  "object_abs_distance",
  "object_size_estimation",
  "room_size_estimation",
  "object_rel_distance",
  MERGED_DIRECTION,
  "route_planning",
  "obj_appearance_order",
];
/** where an unmerged direction type is listed: in the merged one's place */
const orderOf = (type: string) => TABLE_ORDER.indexOf(DIRECTION_TYPES.includes(type) ? MERGED_DIRECTION : type) * 10 + DIRECTION_TYPES.indexOf(type);

export function isVsiQuestionType(type: unknown): type is string {
  return typeof type === "string" && VSI_QUESTION_TYPES.includes(type);
}

const mean = (values: readonly number[]) => (values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : null);

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
  const others = [...byType].filter(([type]) => !DIRECTION_TYPES.includes(type)).map(([type, cell]) => ({ type, score: cell.sum / cell.n, answers: cell.n }));
  const directions = DIRECTION_TYPES.flatMap((type) =>
    byType.has(type) ? [{ type, score: byType.get(type)!.sum / byType.get(type)!.n, answers: byType.get(type)!.n }] : [],
  );
  const merged =
    directions.length > 0
      ? [{ type: MERGED_DIRECTION, score: mean(directions.map((d) => d.score))!, answers: directions.reduce((sum, d) => sum + d.answers, 0) }]
      : [];
  const sorted = (entries: VsiOverall["types"]) => [...entries].sort((a, b) => orderOf(a.type) - orderOf(b.type));
  const mergedPresent = mean([...others, ...merged].map((t) => t.score));
  if (byType.has(EASY) && directions.length < DIRECTION_TYPES.length) {
    return {
      types: sorted([...others, ...merged]),
      overall: null,
      releasedError: "object_rel_direction_easy without medium or hard: the released code stops with a KeyError",
      mergedPresent,
    };
  }
  const types = sorted(byType.has(EASY) ? [...others, ...merged] : [...others, ...directions]);
  return { types, overall: mean(types.map((t) => t.score)), mergedPresent };
}
