import { BOOTSTRAP_RESAMPLES, INTERVAL_COMPUTING } from "@/lib/dashboard/constants";
import {
  ALL,
  conditionFields,
  metricShape,
  ONE_ITEM,
  orderConditions,
  UNTAGGED,
  type AccuracyRow,
  type MetricShape,
  type ScoredEntry,
} from "@/lib/dashboard/accuracy";
import { compareTagValues } from "@/lib/dashboard/snapshot-utils";
import { percentileInterval } from "@/lib/stats/bootstrap-ci";
import { normalCdf, pairedDifference } from "@/lib/stats/paired-difference";
import { randomInt, mulberry32, type Rng } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import {
  twoWayClusterVariance,
  twoWayCritical,
  twoWayMeanInterval,
  twoWayProportionInterval,
  type CrossedAnswer,
  type GeneraliseOver,
} from "@/lib/stats/two-way-cluster-variance";
import { tCdf } from "@/lib/stats/student-t";
import { aggregateScoredAnswers, getTaskModule } from "@/lib/tasks";
import type { MetricSpec, ScoredAnswer } from "@/lib/tasks/types";

/**
 * People against each model on the same items, for each kind's headline metric (the task
 * module's `headlineMetric`, else its first metric), overall and per tag value: the items both
 * answered, people's figure on them beside their figure on every item, the model's figure on them
 * and the difference D = people - model with its 95% interval and two-sided p-value. Agents that
 * played through the interface are models here (their runs come with the imported ones).
 *
 * How, by what the metric is on the data (metricShape, checked on people's and models' answers):
 * - a mean of a score field (a proportion among them): pairedDifference, the two-way clustered
 *   mean of y - m_i over people's answers, m_i the model's score on the item (the mean of its
 *   samples there when it has several);
 * - a ratio of sums of two fields (ENACT's PA): the same, linearised: each answer carries
 *   (num - H den) / sum(den) - (m_num,i - M m_den,i) / sum over answers of m_den,i, the model's
 *   term weighted as people's answers are (so that D = H - M with M the model's ratio so weighted,
 *   its plain ratio when every item has as many answers);
 * - anything else: a bootstrap of D that draws items and people independently (Owen's pigeonhole
 *   bootstrap), the model's answers following their item; p from the share of replicates on
 *   either side of 0.
 * With `over: "items"` the people are fixed and only the clustering by item is kept.
 * Pure: the caller passes scored entries.
 */

export interface ComparisonFigure {
  estimate: number | null;
  ci: [number, number] | null;
  /** why there is no interval ("one item", "one person", "computing", ...) */
  reason?: string;
}

export interface ComparisonRow {
  kind: string;
  /** the study condition of people's answers (absent: none); the model's answers of that condition, or of none */
  condition?: string;
  conditionLabel?: string;
  metric: string;
  /** ALL, or a value of the tag the view is sliced by */
  tag: string;
  /** `agent`: an agent that played through the interface (else an imported run) */
  model: { id: string; name: string; agent: boolean };
  /** items both people and the model answered */
  items: number;
  /** people and their answers on those items */
  people: number;
  answers: number;
  /** people's figure on the shared items */
  humans: ComparisonFigure;
  /** people's figure on every item they answered (the accuracy table's cell) */
  humansAll: ComparisonFigure & { items: number };
  /** the model's figure on the shared items (weighted as people's answers are) */
  modelEstimate: number | null;
  difference: ComparisonFigure & { p: number | null };
  /** "paired two-way" (a mean), "ratio two-way" (a ratio of sums), "pigeonhole bootstrap" (any other figure) */
  method: "paired two-way" | "ratio two-way" | "pigeonhole bootstrap";
}

export interface ComparisonMetric {
  kind: string;
  metric: string;
  label: string;
  scale: "fraction" | "points";
  /** a share (shown in percent, the difference in points) */
  proportion: boolean;
}

export interface Comparison {
  over: GeneraliseOver;
  /** the kinds' headline metrics, in kind order */
  metrics: ComparisonMetric[];
  /** by kind and condition, then ALL before the tag values, then difference ascending (the model closest to or above people first) */
  rows: ComparisonRow[];
}

/** The metric a kind's comparison and headline state: `headlineMetric`, else the first metric. */
export function headlineMetric(kind: string): MetricSpec {
  const taskModule = getTaskModule(kind);
  const id = taskModule.headlineMetric;
  return taskModule.metrics.find((m) => m.id === id) ?? taskModule.metrics[0];
}

const COUNT = "(count)";

function fieldValue(score: unknown, field: string): number {
  if (field === COUNT) return 1;
  const value = score && typeof score === "object" ? (score as Record<string, unknown>)[field] : undefined;
  if (typeof value === "boolean") return value ? 1 : 0;
  return typeof value === "number" ? value : NaN;
}

type Entry = { item: number | string; person: string; row: ScoredAnswer };

function entriesOf(list: ScoredEntry[]): Entry[] {
  let anonymous = 0;
  return list.map((e) => ({ item: e.item ?? `answer-${anonymous++}`, person: e.row.annotator ?? "", row: e.row }));
}

/**
 * Comparison rows of people (`humans`, with who answered) against each model run (`models`, its
 * entries by run), for each kind people answered and each study condition they answered it under:
 * people under a condition against the model's answers under the same condition, or under none
 * (a model run that names no condition is compared with each). `humanRows`: the accuracy table's
 * rows of the same people, whose cells are the full-set figures. `resamples` 0: the bootstraps are
 * left to the background job (their rows read "computing").
 */
export function compareHumansAndModels(
  humans: ScoredEntry[],
  models: Array<{ id: string; name: string; agent?: boolean; entries: ScoredEntry[] }>,
  humanRows: AccuracyRow[],
  options: { over: GeneraliseOver; seedKey: string; resamples?: number },
): Comparison {
  const { over, seedKey } = options;
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const byKind = new Map<string, ScoredEntry[]>();
  for (const e of humans) {
    const list = byKind.get(e.kind);
    if (list) list.push(e);
    else byKind.set(e.kind, [e]);
  }
  const metrics: ComparisonMetric[] = [];
  const rows: ComparisonRow[] = [];
  for (const kind of [...byKind.keys()].sort()) {
    const spec = headlineMetric(kind);
    const people = byKind.get(kind)!;
    const runs = models.map((m) => ({ ...m, entries: m.entries.filter((e) => e.kind === kind) })).filter((m) => m.entries.length > 0);
    const shape = metricShape(kind, spec.id, [people.map((e) => e.row), ...runs.map((m) => m.entries.map((e) => e.row))]);
    const proportion =
      spec.type === "proportion" &&
      shape !== null &&
      shape.denominator === COUNT &&
      people.every((e) => [0, 1].includes(fieldValue(e.row.score, shape.numerator)));
    metrics.push({ kind, metric: spec.id, label: spec.label, scale: spec.scale ?? "fraction", proportion });
    const conditionOf = (e: ScoredEntry) => e.condition ?? "";
    for (const condition of orderConditions(kind, new Set(people.map(conditionOf)))) {
      const peopleIn = people.filter((e) => conditionOf(e) === condition);
      // the model's answers under the same condition, or under none
      const runsIn = runs
        .map((m) => ({ ...m, entries: m.entries.filter((e) => conditionOf(e) === condition || conditionOf(e) === "") }))
        .filter((m) => m.entries.length > 0);
      const humanRow = humanRows.find((r) => r.kind === kind && (r.condition ?? "") === condition);
      const tags = [ALL, ...[...new Set(peopleIn.map((e) => e.tag ?? UNTAGGED))].sort(compareTagValues)];
      const kindRows: ComparisonRow[] = [];
      const fields = conditionFields(kind, condition);
      for (const tag of tags) {
        const inTag = (e: ScoredEntry) => tag === ALL || (e.tag ?? UNTAGGED) === tag;
        const h = entriesOf(peopleIn.filter(inTag));
        const fullCell = humanRow?.cells[tag]?.metrics[spec.id];
        const humansAll = {
          estimate: fullCell?.value ?? null,
          ci: fullCell?.ci ?? null,
          ...(fullCell?.reason ? { reason: fullCell.reason } : {}),
          items: fullCell?.items ?? new Set(h.map((e) => e.item)).size,
        };
        for (const run of runsIn) {
          const m = entriesOf(run.entries.filter(inTag));
          if (m.length === 0) continue;
          const seed = `${seedKey}|${kind}|${condition === "" ? "" : `${condition}|`}${spec.id}|${tag}|${run.id}`;
          kindRows.push({
            kind,
            ...fields,
            metric: spec.id,
            tag,
            model: { id: run.id, name: run.name, agent: run.agent ?? false },
            humansAll,
            ...compareOne(kind, spec.id, shape, proportion, h, m, over, seed, resamples),
          });
        }
      }
      const tagOrder = new Map(tags.map((t, i) => [t, i]));
      kindRows.sort(
        (a, b) =>
          tagOrder.get(a.tag)! - tagOrder.get(b.tag)! ||
          (a.difference.estimate ?? Infinity) - (b.difference.estimate ?? Infinity) ||
          a.model.name.localeCompare(b.model.name),
      );
      rows.push(...kindRows);
    }
  }
  return { over, metrics, rows };
}

type OneComparison = Omit<ComparisonRow, "kind" | "metric" | "tag" | "model" | "humansAll">;

function compareOne(
  kind: string,
  metric: string,
  shape: MetricShape,
  proportion: boolean,
  humans: Entry[],
  model: Entry[],
  over: GeneraliseOver,
  seed: string,
  resamples: number,
): OneComparison {
  const modelItems = new Set(model.map((e) => e.item));
  const shared = humans.filter((e) => modelItems.has(e.item));
  const sharedItems = new Set(shared.map((e) => e.item));
  const sharedModel = model.filter((e) => sharedItems.has(e.item));
  const counts = { items: sharedItems.size, people: new Set(shared.map((e) => e.person)).size, answers: shared.length };
  const none = (reason: string): OneComparison => ({
    ...counts,
    humans: { estimate: null, ci: null, reason },
    modelEstimate: null,
    difference: { estimate: null, ci: null, p: null, reason },
    method: shape ? (shape.denominator === COUNT ? "paired two-way" : "ratio two-way") : "pigeonhole bootstrap",
  });
  if (shared.length === 0) return none("no shared items");
  if (shape) {
    const crossed = shared.map((e): CrossedAnswer => ({
      item: key(e.item),
      person: e.person,
      num: fieldValue(e.row.score, shape.numerator),
      den: fieldValue(e.row.score, shape.denominator),
    }));
    const h = proportion ? twoWayProportionInterval(crossed, over) : twoWayMeanInterval(crossed, over);
    const humansFigure = figure(h.estimate, h.ci, h.reason);
    if (shape.denominator === COUNT) {
      const d = pairedDifference(
        crossed,
        sharedModel.map((e) => ({ item: key(e.item), score: fieldValue(e.row.score, shape.numerator) })),
        over,
      );
      // a difference of two shares lies in [-1, 1]: the t interval is cut there
      const ci: [number, number] | null = d.ci && proportion ? [Math.max(-1, d.ci[0]), Math.min(1, d.ci[1])] : d.ci;
      return {
        ...counts,
        humans: humansFigure,
        modelEstimate: d.model,
        difference: { ...figure(d.difference, ci, d.reason), p: d.p },
        method: "paired two-way",
      };
    }
    const d = pairedRatioDifference(
      crossed,
      sharedModel.map((e) => ({ item: key(e.item), num: fieldValue(e.row.score, shape.numerator), den: fieldValue(e.row.score, shape.denominator) })),
      over,
    );
    return {
      ...counts,
      humans: humansFigure,
      modelEstimate: d.model,
      difference: { ...figure(d.difference, d.ci, d.reason), p: d.p },
      method: "ratio two-way",
    };
  }
  const d = bootstrapDifference(kind, metric, shared, sharedModel, over, seed, resamples);
  return { ...counts, ...d, method: "pigeonhole bootstrap" };
}

const key = (item: number | string) => (typeof item === "number" ? item : `s:${item}`);

function figure(estimate: number, ci: [number, number] | null, reason?: string): ComparisonFigure {
  const value = Number.isFinite(estimate) ? estimate : null;
  if (ci && ci[0] === ci[1]) return { estimate: value, ci: null, reason: "no spread" };
  return { estimate: value, ci, ...(ci ? {} : { reason: reason ?? ONE_ITEM }) };
}

/**
 * D = H - M for a ratio of sums (num / den): H over people's answers, M the model's ratio with
 * each item weighted by people's answers to it; the two-way variance of D's linearisation, each
 * people's answer carrying its own term and its item's share of the model's.
 */
export function pairedRatioDifference(
  humans: ReadonlyArray<CrossedAnswer>,
  model: ReadonlyArray<{ item: string | number; num: number; den: number }>,
  over: GeneraliseOver,
  z?: number,
): { humans: number; model: number; difference: number; ci: [number, number] | null; p: number | null; reason?: string } {
  const perItem = new Map<string | number, { num: number; den: number; n: number }>();
  for (const m of model) {
    const entry = perItem.get(m.item) ?? { num: 0, den: 0, n: 0 };
    entry.num += m.num;
    entry.den += m.den;
    entry.n++;
    perItem.set(m.item, entry);
  }
  let hNum = 0;
  let hDen = 0;
  let mNum = 0;
  let mDen = 0;
  for (const a of humans) {
    const m = perItem.get(a.item)!;
    hNum += a.num;
    hDen += a.den ?? 1;
    mNum += m.num / m.n;
    mDen += m.den / m.n;
  }
  const H = hNum / hDen;
  const M = mNum / mDen;
  const difference = H - M;
  if (!(hDen > 0) || !(mDen > 0)) return { humans: H, model: M, difference: NaN, ci: null, p: null, reason: "undefined for these answers" };
  const N = humans.length;
  // each answer's term, times N: twoWayClusterVariance divides the clusters' sums by N^2
  const terms = humans.map((a) => {
    const m = perItem.get(a.item)!;
    const zTerm = (a.num - H * (a.den ?? 1)) / hDen - (m.num / m.n - (M * m.den) / m.n) / mDen;
    return { item: a.item, person: a.person, num: N * zTerm };
  });
  const v = twoWayClusterVariance(terms, over);
  if (v.variance === null || v.df === null) return { humans: H, model: M, difference, ci: null, p: null, reason: v.reason };
  const se = Math.sqrt(v.variance);
  const critical = twoWayCritical(v.df, z);
  const tail = (x: number) => (z === undefined ? 1 - tCdf(x, v.df!) : 1 - normalCdf(x));
  const p = se === 0 ? (difference === 0 ? 1 : 0) : Math.min(1, 2 * tail(Math.abs(difference) / se));
  return { humans: H, model: M, difference, ci: [difference - critical * se, difference + critical * se], p };
}

/**
 * D = metric(people) - metric(model) on the shared items, recomputed with the kind's own metric on
 * replicates that draw the items and (over people and items) the people with replacement, each
 * answer counted (item's draws) x (person's draws) times, the model's (item's draws) times.
 */
function bootstrapDifference(
  kind: string,
  metric: string,
  humans: Entry[],
  model: Entry[],
  over: GeneraliseOver,
  seed: string,
  resamples: number,
): Pick<OneComparison, "humans" | "modelEstimate" | "difference"> {
  const taskModule = getTaskModule(kind);
  const stat = (rows: ScoredAnswer[]) => {
    const value = aggregateScoredAnswers(taskModule, rows)[metric];
    return value === null || value === undefined || !Number.isFinite(value) ? null : value;
  };
  const H = stat(humans.map((e) => e.row));
  const M = stat(model.map((e) => e.row));
  const D = H === null || M === null ? null : H - M;
  const itemIndex = new Map<number | string, number>();
  const personIndex = new Map<string, number>();
  for (const e of humans) {
    if (!itemIndex.has(e.item)) itemIndex.set(e.item, itemIndex.size);
    if (!personIndex.has(e.person)) personIndex.set(e.person, personIndex.size);
  }
  const items = itemIndex.size;
  const people = personIndex.size;
  const reason =
    D === null
      ? "undefined for these answers"
      : items < 2
        ? ONE_ITEM
        : over === "people+items" && people < 2
          ? "one person"
          : resamples === 0
            ? INTERVAL_COMPUTING
            : null;
  if (reason !== null) return { humans: { estimate: H, ci: null, reason }, modelEstimate: M, difference: { estimate: D, ci: null, p: null, reason } };
  const rng: Rng = mulberry32(seedFromString(seed));
  const hItem = Int32Array.from(humans, (e) => itemIndex.get(e.item)!);
  const hPerson = Int32Array.from(humans, (e) => personIndex.get(e.person)!);
  const mItem = Int32Array.from(model, (e) => itemIndex.get(e.item)!);
  const itemWeight = new Int32Array(items);
  const personWeight = new Int32Array(people).fill(1);
  const hReps: number[] = [];
  const dReps: number[] = [];
  for (let r = 0; r < resamples; r++) {
    itemWeight.fill(0);
    for (let k = 0; k < items; k++) itemWeight[randomInt(rng, items)]++;
    if (over === "people+items") {
      personWeight.fill(0);
      for (let k = 0; k < people; k++) personWeight[randomInt(rng, people)]++;
    }
    const hRows: ScoredAnswer[] = [];
    humans.forEach((e, a) => {
      for (let w = itemWeight[hItem[a]] * personWeight[hPerson[a]]; w > 0; w--) hRows.push(e.row);
    });
    const mRows: ScoredAnswer[] = [];
    model.forEach((e, a) => {
      for (let w = itemWeight[mItem[a]]; w > 0; w--) mRows.push(e.row);
    });
    const h = hRows.length ? stat(hRows) : null;
    const m = mRows.length ? stat(mRows) : null;
    if (h !== null) hReps.push(h);
    if (h !== null && m !== null) dReps.push(h - m);
  }
  const interval = (reps: number[]): { ci: [number, number] | null; reason?: string } => {
    if (reps.length === 0) return { ci: null, reason: "undefined on every resample" };
    const sorted = Float64Array.from(reps).sort();
    if (sorted[0] === sorted[sorted.length - 1]) return { ci: null, reason: "no spread" };
    return { ci: percentileInterval(sorted, 0.95) };
  };
  const below = dReps.filter((d) => d <= 0).length;
  const above = dReps.filter((d) => d >= 0).length;
  const p = dReps.length === 0 ? null : Math.min(1, Math.max(1 / dReps.length, (2 * Math.min(below, above)) / dReps.length));
  return { humans: { estimate: H, ...interval(hReps) }, modelEstimate: M, difference: { estimate: D, ...interval(dReps), p } };
}
