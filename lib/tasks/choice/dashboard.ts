import { crossedMethod, crossedProportion } from "@/lib/stats/crossed-interval";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";
import type { KindDashboard } from "@/lib/tasks/types";
import { BLINK_SOURCE, type ChoiceScore } from "@/lib/tasks/choice";
import { loadWatchFigures } from "@/lib/tasks/shared/media/watch";
import type { WatchFigures } from "@/lib/tasks/shared/media/watch-figures";

/**
 * The choice section of a study's dashboard: accuracy with its 95% Wilson interval at the effective
 * n of the two-way variance over people and items, or items alone as the study's "generalise over"
 * says (lib/stats/crossed-interval.ts; a model run is one fixed judge: over its items), with
 * "one item" / "one person" instead of an interval where one says nothing, and chance beside it (mean of 1/n over the
 * same answers), pooled and per question type (tag `question_type`, else BLINK's `sub_task`, else
 * Perception Test's `area`), with the mean over the types beside the pooled figure (BLINK's Total,
 * eval/evaluate.py of zeyofu/BLINK_Benchmark: the mean of the sub-tasks' accuracies, named as such
 * when every item is BLINK's), for people and each model run; and how many items have no key
 * (withheld by their benchmark: answered and exported, not scored). Pure figures from rows
 * (choiceFigures) plus one count query.
 */

export const CHOICE_KIND = "choice";

export interface ChoiceFigure {
  accuracy: number | null;
  ci: [number, number] | null;
  /** why there is no interval ("one item", "one person") */
  reason?: string;
  /** people behind the figure (a model run: 1) */
  people?: number;
  /** the Wilson interval's effective number of answers p(1-p)/V */
  effectiveN?: number;
  chance: number | null;
  /** scored answers and the items behind them */
  answers: number;
  items: number;
}

export interface ChoiceSeries {
  label: string;
  pooled: ChoiceFigure;
  byType: Record<string, ChoiceFigure>;
  /** the mean of byType's accuracies over the types with scored answers (each type weighs the same); null without types */
  meanOverTypes: number | null;
}

/** The benchmark whose own total is the mean over the types (BLINK: over sub-tasks), when every item is that benchmark's. */
export interface BenchmarkTotal {
  benchmark: string;
  label: string;
  source: string;
}

export interface ChoiceSection {
  /** what people's intervals generalise over (the study setting), and the method in words */
  over: GeneraliseOver;
  method: string;
  typeTag: string | null;
  types: string[];
  series: ChoiceSeries[];
  benchmarkTotal: BenchmarkTotal | null;
  withheld: { items: number; answers: number; totalItems: number };
  /** watch time and share watched per item (the media player's events) */
  watch: WatchFigures;
}

export interface ChoiceRow {
  itemId: string;
  /** who answered (a model run's id); absent: one anonymous judge */
  person?: string | null;
  type: string | null;
  score: ChoiceScore;
}

const isScore = (score: unknown): score is ChoiceScore => score !== null && typeof score === "object" && "options" in score && "score" in score;

export function choiceFigure(rows: readonly ChoiceRow[], over: GeneraliseOver = "people+items"): ChoiceFigure {
  const scored = rows.filter((row) => row.score.score !== null);
  if (scored.length === 0) return { accuracy: null, ci: null, chance: null, answers: 0, items: 0 };
  let chance = 0;
  for (const row of scored) chance += 1 / row.score.options;
  const share = crossedProportion(
    scored.map((row) => ({ item: row.itemId, person: row.person ?? "", num: row.score.score === 1 ? 1 : 0 })),
    over,
  );
  return {
    accuracy: share.estimate,
    ci: share.ci,
    ...(share.ci ? { effectiveN: share.effectiveN } : { reason: share.reason }),
    chance: chance / scored.length,
    answers: scored.length,
    items: share.items,
    people: share.people,
  };
}

export function choiceSeries(label: string, rows: readonly ChoiceRow[], types: readonly string[], over: GeneraliseOver = "people+items"): ChoiceSeries {
  const byType = Object.fromEntries(
    types.map((type) => [
      type,
      choiceFigure(
        rows.filter((row) => row.type === type),
        over,
      ),
    ]),
  );
  const accuracies = Object.values(byType).flatMap((figure) => (figure.accuracy === null ? [] : [figure.accuracy]));
  return {
    label,
    pooled: choiceFigure(rows, over),
    byType,
    meanOverTypes: accuracies.length > 0 ? accuracies.reduce((sum, value) => sum + value, 0) / accuracies.length : null,
  };
}

/** The tag that names question types here: question_type when any item has it, else sub_task (BLINK), else area (Perception Test). */
export function typeTagOf(tags: ReadonlyArray<Record<string, unknown>>): string | null {
  if (tags.some((t) => typeof t.question_type === "string")) return "question_type";
  if (tags.some((t) => typeof t.sub_task === "string")) return "sub_task";
  if (tags.some((t) => typeof t.area === "string")) return "area";
  return null;
}

/** BLINK's Total (the mean over sub-tasks) when every item is BLINK's and they carry sub_task. */
export function benchmarkTotalOf(tags: ReadonlyArray<Record<string, unknown>>, typeTag: string | null): BenchmarkTotal | null {
  if (typeTag !== "sub_task" || tags.length === 0 || !tags.every((t) => t.source === BLINK_SOURCE)) return null;
  return { benchmark: "BLINK", label: "BLINK Total (mean over sub-tasks)", source: "eval/evaluate.py eval_prediction: the mean of the sub-tasks' accuracies" };
}

export const dashboard: KindDashboard = {
  section: "choice",
  load: ({ data, studyId, version, modelVersion, snapshot, models, modelPredictions, humanAnswers, memoizeAsync, generaliseOver }) =>
    memoizeAsync(`${version}|${modelVersion}|choice|${generaliseOver}`, async () => {
      const indices = snapshot.items.kinds.flatMap((kind, index) => (kind === CHOICE_KIND ? [index] : []));
      const typeTag = typeTagOf(indices.map((index) => snapshot.items.tags[index] as Record<string, unknown>));
      const typeOf = (tags: Record<string, unknown> | undefined) => (typeTag && typeof tags?.[typeTag] === "string" ? (tags[typeTag] as string) : null);
      const human: ChoiceRow[] = humanAnswers()
        .filter((answer) => answer.kind === CHOICE_KIND && isScore(answer.row.score))
        .map((answer) => ({ itemId: answer.row.itemId, person: answer.row.annotator, type: typeOf(answer.row.tags), score: answer.row.score as ChoiceScore }));
      const predictions = await modelPredictions();
      const modelRows = new Map<string, ChoiceRow[]>();
      for (const prediction of predictions) {
        const index = snapshot.items.index.get(prediction.itemId);
        if (index === undefined || snapshot.items.kinds[index] !== CHOICE_KIND || !isScore(prediction.score)) continue;
        const list = modelRows.get(prediction.runId) ?? [];
        list.push({
          itemId: prediction.itemId,
          person: prediction.runId,
          type: typeOf(snapshot.items.tags[index] as Record<string, unknown>),
          score: prediction.score,
        });
        modelRows.set(prediction.runId, list);
      }
      const types = [
        ...new Set(indices.map((index) => typeOf(snapshot.items.tags[index] as Record<string, unknown>)).filter((t): t is string => t !== null)),
      ].sort();
      const { withheld, total } = await data.itemAnswerKeyCounts(studyId, CHOICE_KIND);
      const section: ChoiceSection = {
        over: generaliseOver,
        method: crossedMethod(generaliseOver, "proportion"),
        typeTag,
        types,
        benchmarkTotal: benchmarkTotalOf(
          indices.map((index) => snapshot.items.tags[index] as Record<string, unknown>),
          typeTag,
        ),
        // a model run is one fixed judge: its intervals are over its items (the accuracy table's rule)
        series: [
          choiceSeries("People", human, types, generaliseOver),
          ...models.filter((run) => modelRows.has(run.id)).map((run) => choiceSeries(run.name, modelRows.get(run.id)!, types, "items")),
        ],
        withheld: { items: Number(withheld), answers: human.filter((row) => row.score.score === null).length, totalItems: Number(total) },
        watch: await loadWatchFigures(data, studyId, snapshot, [CHOICE_KIND]),
      };
      return section;
    }),
};
