import { statSync } from "node:fs";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { FlagError, parseFlags } from "@/lib/cli/flags";
import { invalid, jsonLines, loadItems, readText, scoreAnswerLines, type LoadedItem, type ScoredLine } from "@/lib/cli/score";
import { metricShape, type MetricShape } from "@/lib/dashboard/accuracy";
import { percentileInterval } from "@/lib/stats/bootstrap-ci";
import { pairedDifference } from "@/lib/stats/paired-difference";
import { crossedIndexes, expandByWeights, pigeonholeBootstrap } from "@/lib/stats/pigeonhole-bootstrap";
import { mulberry32, randomInt } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import {
  GENERALISE_OVER,
  twoWayMeanInterval,
  twoWayMethod,
  twoWayProportionInterval,
  type CrossedAnswer,
  type GeneraliseOver,
} from "@/lib/stats/two-way-cluster-variance";
import { aggregateScoredAnswers, getTaskModule, taskKinds } from "@/lib/tasks";
import { formatIssues } from "@/lib/tasks/format-issues";
import type { AnyTaskModule, ScoredAnswer } from "@/lib/tasks/types";

/**
 * `yardstick compare --items items.jsonl --answers answers.jsonl [--models models.jsonl]
 * [--over people+items|items] [--seed S]`: people's figure on each kind's headline metric (the
 * task module's `headlineMetric`, default its first metric) with its interval over people and
 * items, and for each model its figure, people's figure on the items the model answered and the
 * paired difference people - model with its interval and two-sided p-value.
 *
 * answers.jsonl lines as `yardstick score` reads them (`annotator` is the person; lines without
 * one are one anonymous person). models.jsonl lines `{"model", "id", "answer"}` (read with the
 * kind's parseModelAnswer and scored as people's answers are) or `{"model", "id", "score"}` (the
 * model's value of the metric on that item, on the per-answer scale); a model may answer an item
 * several times (its samples: their mean is its score there) but keeps to one of the two forms.
 *
 * Methods: a metric that is a ratio of sums of score fields over answers (checked on the data,
 * lib/dashboard/accuracy.ts metricShape; a mean when the denominator is the count) gets the
 * two-way cluster-robust variance (a proportion: Wilson at the effective n), and the difference
 * the paired two-way form (lib/stats/paired-difference.ts); any other metric the pigeonhole
 * bootstrap over people and items, recomputing the kind's own metric, and the difference the same
 * bootstrap of (people's metric - the model's) with the model's answers weighted by their item's
 * draw, p = 2 min(share of replicates <= 0, share >= 0). `--over items` takes these people as the
 * population (items only).
 */

/** Largest file read, and most lines of an answers or models file. */
export const COMPARE_MAX_FILE_BYTES = 256 * 1024 * 1024;
export const COMPARE_MAX_LINES = 1_000_000;
export const COMPARE_RESAMPLES = 1000;

export interface CompareOptions {
  over?: GeneraliseOver;
  seed?: number;
  resamples?: number;
}

export interface CompareNames {
  items?: string;
  answers?: string;
  models?: string;
}

interface Figure {
  estimate: number | null;
  low: number | null;
  high: number | null;
  /** why there is no interval, in words (only then) */
  reason?: string;
}

export interface CompareOutput {
  kinds: Record<
    string,
    {
      metric: string;
      humans: Figure & { method: string; answers: number; annotators: number; items: number };
      models: Record<string, { estimate: number | null; items: number; humansOnShared: Figure; difference: Figure & { p: number | null } }>;
    }
  >;
}

/** The metric the comparison uses: the kind's `headlineMetric`, else its first. */
export function headlineMetric(taskModule: AnyTaskModule): string {
  const id = taskModule.headlineMetric ?? taskModule.metrics[0]?.id;
  if (!id || !taskModule.metrics.some((m) => m.id === id))
    throw new AppError("INVALID", `${taskModule.kind}: headline metric ${JSON.stringify(id)} is none of its metrics`);
  return id;
}

const ANONYMOUS = "(anonymous)";

const modelLineSchema = z
  .object({
    model: z.string().min(1, "expected a model name"),
    id: z.string().min(1, "expected a non-empty item id"),
    answer: z.unknown().optional(),
    score: z.number({ error: "a score is a finite number" }).finite("a score is a finite number").optional(),
  })
  .refine((line) => (line.answer === undefined) !== (line.score === undefined), { message: 'expected exactly one of "answer" and "score"' });

interface ModelLine {
  model: string;
  item: LoadedItem;
  line: number;
  /** an answer line: the scored answer; a score line: the value */
  scored?: { answer: unknown; score: unknown };
  value?: number;
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function capLines(text: string, file: string): string {
  if (lineCount(text) > COMPARE_MAX_LINES)
    throw new AppError("INVALID", `${file}: more than ${COMPARE_MAX_LINES.toLocaleString("en")} lines (the most compare and plan read)`);
  return text;
}

function readModels(items: Map<string, LoadedItem>, text: string, file: string): ModelLine[] {
  const out: ModelLine[] = [];
  const form = new Map<string, { form: "answer" | "score"; line: number }>();
  for (const { line, value } of jsonLines(capLines(text, file), file)) {
    const where = `${file} line ${line}`;
    const parsed = modelLineSchema.safeParse(value);
    if (!parsed.success) throw new AppError("INVALID", formatIssues(parsed.error, `${where}: `));
    const { model, id, answer, score } = parsed.data;
    const item = items.get(id);
    if (!item) invalid(where, `unknown item id ${JSON.stringify(id)}`);
    const thisForm = answer !== undefined ? "answer" : "score";
    const first = form.get(model);
    if (first && first.form !== thisForm)
      invalid(where, `model ${JSON.stringify(model)} gives a ${thisForm} here and a ${first.form} on line ${first.line}: one form a model`);
    if (!first) form.set(model, { form: thisForm, line });
    if (answer !== undefined) {
      const readable = item.module.parseModelAnswer(answer, item);
      if (readable === null) invalid(where, `answer for item ${JSON.stringify(id)} is not a readable ${item.kind} answer`);
      out.push({ model, item, line, scored: { answer: readable, score: item.module.score(readable, item.key, item) } });
    } else out.push({ model, item, line, value: score });
  }
  return out;
}

/** A score field as a number (booleans 1/0); a field the score does not have is the answer count's 1. */
function field(score: unknown, name: string): number {
  const value = score && typeof score === "object" ? (score as Record<string, unknown>)[name] : undefined;
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  return 1;
}

const rowOf = (l: { item: LoadedItem; answer: unknown; score: unknown }, annotator: string | null): ScoredAnswer => ({
  itemId: l.item.id,
  tags: l.item.tags,
  answer: l.answer,
  score: l.score,
  annotator,
});
const personOf = (l: ScoredLine) => (l.annotator === undefined ? ANONYMOUS : String(l.annotator));

interface HumanFigure extends Figure {
  method: string;
}

/** People's figure and its interval on these answers. */
function humanFigure(
  kind: string,
  metric: string,
  lines: ScoredLine[],
  shape: MetricShape,
  over: GeneraliseOver,
  seedKey: string,
  resamples: number,
): HumanFigure {
  const taskModule = getTaskModule(kind);
  const spec = taskModule.metrics.find((m) => m.id === metric)!;
  if (lines.length === 0) return { estimate: null, low: null, high: null, reason: "no answers", method: "" };
  if (shape) {
    const crossed: CrossedAnswer[] = lines.map((l) => ({
      item: l.item.id,
      person: personOf(l),
      num: field(l.score, shape.numerator),
      den: field(l.score, shape.denominator),
    }));
    const proportion = spec.type === "proportion" && crossed.every((a) => a.den === 1 && (a.num === 0 || a.num === 1));
    const interval = proportion ? twoWayProportionInterval(crossed, over) : twoWayMeanInterval(crossed, over);
    const method = twoWayMethod(over, proportion ? "proportion" : "mean");
    const estimate = Number.isFinite(interval.estimate) ? interval.estimate : null;
    return interval.ci
      ? { estimate, low: interval.ci[0], high: interval.ci[1], method }
      : { estimate, low: null, high: null, reason: interval.reason ?? "no interval", method };
  }
  const rows = lines.map((l) => rowOf(l, personOf(l)));
  const result = pigeonholeBootstrap(
    crossedIndexes(lines, (l) => l.item.id, personOf),
    (w) => aggregateScoredAnswers(taskModule, expandByWeights(rows, w))[metric] ?? null,
    mulberry32(seedFromString(seedKey)),
    { resamples, over },
  );
  const method = bootstrapMethod(over, resamples);
  return result.ci
    ? { estimate: result.estimate, low: result.ci[0], high: result.ci[1], method }
    : { estimate: result.estimate, low: null, high: null, reason: result.reason ?? "no interval", method };
}

function bootstrapMethod(over: GeneraliseOver, resamples: number): string {
  return over === "people+items"
    ? `percentile 95%, pigeonhole bootstrap over people and items (Owen 2007), ${resamples} resamples`
    : `percentile 95%, bootstrap over items (these people taken as the population), ${resamples} resamples`;
}

/** The pigeonhole bootstrap of people's metric minus the model's on the shared items; the model's answers weigh as their item's draw. */
function bootstrapDifference(
  taskModule: AnyTaskModule,
  metric: string,
  humans: ScoredAnswer[],
  humanPeople: string[],
  model: ScoredAnswer[],
  over: GeneraliseOver,
  seedKey: string,
  resamples: number,
): Figure & { p: number | null } {
  const stat = (rows: ScoredAnswer[]) => aggregateScoredAnswers(taskModule, rows)[metric] ?? null;
  const observedHumans = stat(humans);
  const observedModel = stat(model);
  if (observedHumans === null || observedModel === null) return { estimate: null, low: null, high: null, p: null, reason: "undefined on the data" };
  const estimate = observedHumans - observedModel;
  const itemIndex = new Map<string, number>();
  for (const row of humans) if (!itemIndex.has(row.itemId)) itemIndex.set(row.itemId, itemIndex.size);
  const personIndex = new Map<string, number>();
  for (const p of humanPeople) if (!personIndex.has(p)) personIndex.set(p, personIndex.size);
  const I = itemIndex.size;
  const P = personIndex.size;
  if (I < 2) return { estimate, low: null, high: null, p: null, reason: "one item" };
  if (over === "people+items" && P < 2) return { estimate, low: null, high: null, p: null, reason: "one person" };
  const humanItem = humans.map((r) => itemIndex.get(r.itemId)!);
  const humanPerson = humanPeople.map((p) => personIndex.get(p)!);
  const modelItem = model.map((r) => itemIndex.get(r.itemId)!);
  const rng = mulberry32(seedFromString(seedKey));
  const itemWeight = new Float64Array(I);
  const personWeight = new Float64Array(P).fill(1);
  const hw = new Float64Array(humans.length);
  const mw = new Float64Array(model.length);
  const reps: number[] = [];
  for (let r = 0; r < resamples; r++) {
    itemWeight.fill(0);
    for (let k = 0; k < I; k++) itemWeight[randomInt(rng, I)]++;
    if (over === "people+items") {
      personWeight.fill(0);
      for (let k = 0; k < P; k++) personWeight[randomInt(rng, P)]++;
    }
    for (let a = 0; a < humans.length; a++) hw[a] = itemWeight[humanItem[a]] * personWeight[humanPerson[a]];
    for (let a = 0; a < model.length; a++) mw[a] = itemWeight[modelItem[a]];
    const h = stat(expandByWeights(humans, hw));
    const m = stat(expandByWeights(model, mw));
    if (h !== null && m !== null && Number.isFinite(h - m)) reps.push(h - m);
  }
  if (reps.length === 0) return { estimate, low: null, high: null, p: null, reason: "undefined on every resample" };
  const sorted = Float64Array.from(reps).sort();
  const [low, high] = percentileInterval(sorted, 0.95);
  const below = reps.filter((d) => d <= 0).length;
  const above = reps.filter((d) => d >= 0).length;
  return { estimate, low, high, p: Math.min(1, (2 * Math.min(below, above)) / reps.length) };
}

/**
 * The comparison of people with each model, per kind, as the JSON text to print.
 * @throws {AppError} INVALID naming the file and line of the first problem
 */
export function runCompareCommand(
  itemsJsonl: string,
  answersJsonl: string,
  modelsJsonl: string | null,
  options: CompareOptions = {},
  names: CompareNames = {},
): string {
  const over = options.over ?? "people+items";
  const seed = options.seed ?? 1;
  const resamples = options.resamples ?? COMPARE_RESAMPLES;
  const itemsFile = names.items ?? "items.jsonl";
  const answersFile = names.answers ?? "answers.jsonl";
  const modelsFile = names.models ?? "models.jsonl";
  const items = loadItems(capLines(itemsJsonl, itemsFile), itemsFile);
  const scored = scoreAnswerLines(items, capLines(answersJsonl, answersFile), answersFile);
  const models = modelsJsonl === null ? [] : readModels(items, modelsJsonl, modelsFile);
  const output: CompareOutput = { kinds: {} };
  // registry order, kinds with people's answers or a model's
  const present = new Set([...scored.map((l) => l.item.kind), ...models.map((l) => l.item.kind)]);
  for (const kind of taskKinds.filter((k) => present.has(k))) {
    const taskModule = getTaskModule(kind);
    const metric = headlineMetric(taskModule);
    const lines = scored.filter((l) => l.item.kind === kind);
    const rows = lines.map((l) => rowOf(l, personOf(l)));
    const shape = rows.length > 0 ? metricShape(kind, metric, [rows]) : null;
    const humans = humanFigure(kind, metric, lines, shape, over, `${seed}|${kind}|humans`, resamples);
    const entry: CompareOutput["kinds"][string] = {
      metric,
      humans: { ...humans, answers: lines.length, annotators: new Set(lines.map(personOf)).size, items: new Set(lines.map((l) => l.item.id)).size },
      models: {},
    };
    const byModel = new Map<string, ModelLine[]>();
    for (const l of models) if (l.item.kind === kind) byModel.set(l.model, [...(byModel.get(l.model) ?? []), l]);
    for (const [name, modelLines] of byModel) {
      const modelItems = new Set(modelLines.map((l) => l.item.id));
      const shared = lines.filter((l) => modelItems.has(l.item.id));
      const onShared = humanFigure(kind, metric, shared, shape, over, `${seed}|${kind}|${name}|shared`, resamples);
      const asScores = modelLines[0].value !== undefined;
      let estimate: number | null;
      let difference: Figure & { p: number | null };
      if (!shape && asScores)
        invalid(
          `${modelsFile} line ${modelLines[0].line}`,
          `${kind}'s ${metric} is not a mean or ratio of per-answer scores, so a model's score lines cannot be compared with it; give the model's answers`,
        );
      if (asScores) {
        const perItem = new Map<string, number[]>();
        for (const l of modelLines) perItem.set(l.item.id, [...(perItem.get(l.item.id) ?? []), l.value!]);
        const means = [...perItem.values()].map((v) => v.reduce((s, x) => s + x, 0) / v.length);
        estimate = means.reduce((s, x) => s + x, 0) / means.length;
      } else {
        estimate =
          aggregateScoredAnswers(
            taskModule,
            modelLines.map((l) => rowOf({ item: l.item, ...l.scored! }, name)),
          )[metric] ?? null;
      }
      if (shared.length === 0) difference = { estimate: null, low: null, high: null, p: null, reason: "no shared items" };
      else if (shape) {
        const modelScores = modelLines.map((l) => ({
          item: l.item.id,
          score: asScores ? l.value! : field(l.scored!.score, shape.numerator) / field(l.scored!.score, shape.denominator),
        }));
        const crossed = shared.map((l) => ({
          item: l.item.id,
          person: personOf(l),
          num: field(l.score, shape.numerator),
          den: field(l.score, shape.denominator),
        }));
        const d = pairedDifference(crossed, modelScores, over);
        difference = d.ci
          ? { estimate: d.difference, low: d.ci[0], high: d.ci[1], p: d.p }
          : { estimate: Number.isFinite(d.difference) ? d.difference : null, low: null, high: null, p: null, reason: d.reason ?? "no interval" };
      } else {
        const sharedModel = modelLines.map((l) => rowOf({ item: l.item, ...l.scored! }, name));
        difference = bootstrapDifference(
          taskModule,
          metric,
          shared.map((l) => rowOf(l, personOf(l))),
          shared.map(personOf),
          sharedModel,
          over,
          `${seed}|${kind}|${name}|difference`,
          resamples,
        );
      }
      entry.models[name] = {
        estimate,
        items: modelItems.size,
        humansOnShared: { estimate: onShared.estimate, low: onShared.low, high: onShared.high, ...(onShared.reason ? { reason: onShared.reason } : {}) },
        difference,
      };
    }
    output.kinds[kind] = entry;
  }
  return JSON.stringify(output, null, 2);
}

/** Reads a file given on the command line, refusing one over the size cap. */
export function readCapped(path: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    throw new AppError("INVALID", `${path}: cannot read the file (${(error as Error).message})`);
  }
  if (size > COMPARE_MAX_FILE_BYTES)
    throw new AppError("INVALID", `${path}: ${size} bytes, over the ${COMPARE_MAX_FILE_BYTES / 1024 / 1024} MiB compare and plan read`);
  return readText(path);
}

export const compareUsage =
  "usage: yardstick compare --items <items.jsonl> --answers <answers.jsonl> [--models <models.jsonl>] [--over people+items|items] [--seed S]";

/** Strict flags of a command: problems in words, with the usage. */
export function commandFlags(argv: readonly string[], names: readonly string[], usage: string): Record<string, string> {
  try {
    return parseFlags([...argv], names, usage, "strict").flags;
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    const problem =
      error.reason === "unknown"
        ? `unknown argument ${JSON.stringify(error.arg)}`
        : error.reason === "missing"
          ? `--${error.flag} needs a value`
          : `--${error.flag} is given twice`;
    throw new AppError("INVALID", `${problem}\n${usage}`);
  }
}

/** `yardstick compare` arguments (after "compare"); paths resolved by `resolve`. */
export function runCompareCli(argv: readonly string[], resolve: (p: string) => string = (p) => p): string {
  const flags = commandFlags(argv, ["items", "answers", "models", "over", "seed"], compareUsage);
  if (!flags.items || !flags.answers) throw new AppError("INVALID", `--items and --answers are required\n${compareUsage}`);
  const over = flags.over ?? "people+items";
  if (!(GENERALISE_OVER as readonly string[]).includes(over))
    throw new AppError("INVALID", `--over is ${JSON.stringify(over)}: expected ${GENERALISE_OVER.join(" or ")}\n${compareUsage}`);
  const seed = flags.seed === undefined ? 1 : Number(flags.seed);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw new AppError("INVALID", `--seed is ${JSON.stringify(flags.seed)}: expected a whole number from 0 to 4294967295\n${compareUsage}`);
  return runCompareCommand(
    readCapped(resolve(flags.items)),
    readCapped(resolve(flags.answers)),
    flags.models ? readCapped(resolve(flags.models)) : null,
    { over: over as GeneraliseOver, seed },
    { items: flags.items, answers: flags.answers, models: flags.models },
  );
}
