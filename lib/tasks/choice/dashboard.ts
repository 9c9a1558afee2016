import { db } from "@/lib/db";
import { clusteredWilsonInterval } from "@/lib/stats/clustered-wilson-interval";
import type { KindDashboard } from "@/lib/tasks/types";
import { BLINK_SOURCE, type ChoiceScore } from "@/lib/tasks/choice";
import { loadWatchFigures } from "@/lib/tasks/shared/media/watch";
import type { WatchFigures } from "@/lib/tasks/shared/media/watch-figures";

/**
 * The choice section of a study's dashboard: accuracy with its 95% Wilson interval taking the item
 * as the unit (lib/stats/clustered-wilson-interval.ts) and chance beside it (mean of 1/n over the
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
  type: string | null;
  score: ChoiceScore;
}

const isScore = (score: unknown): score is ChoiceScore => score !== null && typeof score === "object" && "options" in score && "score" in score;

export function choiceFigure(rows: readonly ChoiceRow[]): ChoiceFigure {
  const scored = rows.filter((row) => row.score.score !== null);
  if (scored.length === 0) return { accuracy: null, ci: null, chance: null, answers: 0, items: 0 };
  const byItem = new Map<string, { successes: number; trials: number }>();
  let chance = 0;
  for (const row of scored) {
    const cluster = byItem.get(row.itemId) ?? { successes: 0, trials: 0 };
    cluster.trials++;
    if (row.score.score === 1) cluster.successes++;
    byItem.set(row.itemId, cluster);
    chance += 1 / row.score.options;
  }
  const wilson = clusteredWilsonInterval([...byItem.values()]);
  return { accuracy: wilson.estimate, ci: wilson.ci, chance: chance / scored.length, answers: scored.length, items: byItem.size };
}

export function choiceSeries(label: string, rows: readonly ChoiceRow[], types: readonly string[]): ChoiceSeries {
  const byType = Object.fromEntries(types.map((type) => [type, choiceFigure(rows.filter((row) => row.type === type))]));
  const accuracies = Object.values(byType).flatMap((figure) => (figure.accuracy === null ? [] : [figure.accuracy]));
  return { label, pooled: choiceFigure(rows), byType, meanOverTypes: accuracies.length > 0 ? accuracies.reduce((sum, value) => sum + value, 0) / accuracies.length : null };
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
  load: ({ studyId, version, modelVersion, snapshot, models, modelPredictions, humanAnswers, memoizeAsync }) =>
    memoizeAsync(`${version}|${modelVersion}|choice`, async () => {
      const indices = snapshot.items.kinds.flatMap((kind, index) => (kind === CHOICE_KIND ? [index] : []));
      const typeTag = typeTagOf(indices.map((index) => snapshot.items.tags[index] as Record<string, unknown>));
      const typeOf = (tags: Record<string, unknown> | undefined) => (typeTag && typeof tags?.[typeTag] === "string" ? (tags[typeTag] as string) : null);
      const human: ChoiceRow[] = humanAnswers()
        .filter((answer) => answer.kind === CHOICE_KIND && isScore(answer.row.score))
        .map((answer) => ({ itemId: answer.row.itemId, type: typeOf(answer.row.tags), score: answer.row.score as ChoiceScore }));
      const predictions = await modelPredictions();
      const modelRows = new Map<string, ChoiceRow[]>();
      for (const prediction of predictions) {
        const index = snapshot.items.index.get(prediction.itemId);
        if (index === undefined || snapshot.items.kinds[index] !== CHOICE_KIND || !isScore(prediction.score)) continue;
        const list = modelRows.get(prediction.runId) ?? [];
        list.push({ itemId: prediction.itemId, type: typeOf(snapshot.items.tags[index] as Record<string, unknown>), score: prediction.score });
        modelRows.set(prediction.runId, list);
      }
      const types = [...new Set(indices.map((index) => typeOf(snapshot.items.tags[index] as Record<string, unknown>)).filter((t): t is string => t !== null))].sort();
      const [{ withheld, total }] = await db.$queryRaw<Array<{ withheld: bigint; total: bigint }>>`
        SELECT count(*) FILTER (WHERE NOT (key ? 'answer')) AS withheld, count(*) AS total
        FROM "Item" WHERE "studyId" = ${studyId} AND kind = ${CHOICE_KIND} AND NOT practice`;
      const section: ChoiceSection = {
        typeTag,
        types,
        benchmarkTotal: benchmarkTotalOf(indices.map((index) => snapshot.items.tags[index] as Record<string, unknown>), typeTag),
        series: [choiceSeries("People", human, types), ...models.filter((run) => modelRows.has(run.id)).map((run) => choiceSeries(run.name, modelRows.get(run.id)!, types))],
        withheld: { items: Number(withheld), answers: human.filter((row) => row.score.score === null).length, totalItems: Number(total) },
        watch: await loadWatchFigures(studyId, snapshot, [CHOICE_KIND]),
      };
      return section;
    }),
};
