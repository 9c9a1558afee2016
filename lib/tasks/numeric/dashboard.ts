import type { KindDashboard } from "@/lib/tasks/types";
import type { NumericScore } from "@/lib/tasks/numeric";
import { vsiOverall, type VsiOverall } from "@/lib/tasks/shared/vsi/overall";
import { loadWatchFigures } from "@/lib/tasks/shared/media/watch";
import type { WatchFigures } from "@/lib/tasks/shared/media/watch-figures";

/**
 * The numeric section of a study's dashboard: the mean score (MRA for mra items) and the invalid
 * count, pooled and per question type (tag `question_type`), for people and each model run; and
 * VSI-Bench's overall score (lib/tasks/shared/vsi/overall.ts) over every scored answer whose item
 * has a VSI-Bench question type, multiple-choice ones included (their 1/0 score), as the release
 * mixes accuracy and MRA.
 */

export const NUMERIC_KIND = "numeric";

export interface NumericFigure {
  score: number | null;
  answers: number;
  invalid: number;
}

export interface NumericSeries {
  label: string;
  pooled: NumericFigure;
  byType: Record<string, NumericFigure>;
  vsi: VsiOverall;
}

export interface NumericSection {
  types: string[];
  series: NumericSeries[];
  /** watch time and share watched per item (the media player's events) */
  watch: WatchFigures;
}

interface Row {
  kind: string;
  type: string | null;
  score: unknown;
}

const numericScore = (score: unknown): NumericScore | null =>
  score !== null && typeof score === "object" && typeof (score as NumericScore).score === "number" && "invalid" in score ? (score as NumericScore) : null;
/** the 0-1 score of an answer of either generic kind (choice: null without a key) */
const rowScore = (score: unknown): number | null =>
  score !== null && typeof score === "object" && typeof (score as { score?: unknown }).score === "number" ? (score as { score: number }).score : null;

export function numericFigure(scores: ReadonlyArray<NumericScore>): NumericFigure {
  return {
    score: scores.length ? scores.reduce((sum, s) => sum + s.score, 0) / scores.length : null,
    answers: scores.length,
    invalid: scores.filter((s) => s.invalid).length,
  };
}

export function numericSeries(label: string, rows: readonly Row[], types: readonly string[]): NumericSeries {
  const own = rows
    .filter((row) => row.kind === NUMERIC_KIND)
    .flatMap((row) => {
      const score = numericScore(row.score);
      return score ? [{ type: row.type, score }] : [];
    });
  return {
    label,
    pooled: numericFigure(own.map((row) => row.score)),
    byType: Object.fromEntries(types.map((type) => [type, numericFigure(own.filter((row) => row.type === type).map((row) => row.score))])),
    vsi: vsiOverall(
      rows.flatMap((row) => (row.type !== null && rowScore(row.score) !== null ? [{ questionType: row.type, score: rowScore(row.score)! }] : [])),
    ),
  };
}

const typeOf = (tags: unknown): string | null => {
  const value = tags && typeof tags === "object" ? (tags as Record<string, unknown>).question_type : undefined;
  return typeof value === "string" ? value : null;
};

export const dashboard: KindDashboard = {
  section: "numeric",
  load: ({ data, studyId, version, modelVersion, snapshot, models, modelPredictions, humanAnswers, memoizeAsync }) =>
    memoizeAsync(`${version}|${modelVersion}|numeric`, async () => {
      const human: Row[] = humanAnswers().map((answer) => ({ kind: answer.kind, type: typeOf(answer.row.tags), score: answer.row.score }));
      const byRun = new Map<string, Row[]>();
      for (const prediction of await modelPredictions()) {
        const index = snapshot.items.index.get(prediction.itemId);
        if (index === undefined) continue;
        const list = byRun.get(prediction.runId) ?? [];
        list.push({ kind: snapshot.items.kinds[index], type: typeOf(snapshot.items.tags[index]), score: prediction.score });
        byRun.set(prediction.runId, list);
      }
      const types = [
        ...new Set(
          snapshot.items.kinds
            .flatMap((kind, index) => (kind === NUMERIC_KIND ? [typeOf(snapshot.items.tags[index])] : []))
            .filter((t): t is string => t !== null),
        ),
      ].sort();
      const section: NumericSection = {
        types,
        series: [
          numericSeries("People", human, types),
          ...models.filter((run) => byRun.has(run.id)).map((run) => numericSeries(run.name, byRun.get(run.id)!, types)),
        ],
        watch: await loadWatchFigures(data, studyId, snapshot, [NUMERIC_KIND]),
      };
      return section;
    }),
};
