import { AppError } from "@/lib/errors";
import { commandFlags, headlineMetric, readCapped } from "@/lib/cli/compare";
import { loadItems, scoreAnswerLines, type ScoredLine } from "@/lib/cli/score";
import { metricShape } from "@/lib/dashboard/accuracy";
import { bernoulliItemVariance, peopleForDifference, peopleForHalfWidth, predictedHalfWidth, predictedPower, type Components } from "@/lib/stats/study-planner";
import type { CrossedAnswer } from "@/lib/stats/two-way-cluster-variance";
import { varianceComponents } from "@/lib/stats/variance-components";
import { getTaskModule, taskKinds } from "@/lib/tasks";

/**
 * `yardstick plan --items items.jsonl --answers pilot.jsonl --halfwidth h [--items-per-person m]
 * [--k k] [--detect d --model-score s] [--kind kind]`: variance components of a pilot's answers on
 * the kind's headline metric (lib/stats/variance-components.ts) and the design they call for
 * (lib/stats/study-planner.ts), with I the items file's items of the kind (practice items left out).
 *
 * Output `{"components": {"items", "people", "residual"}, "people", "k", "halfwidth", "power"?}`:
 * - people: the fewest people, m items each, for a 95% half-width <= h (null, with `reason`, when
 *   the items alone exceed h);
 * - k: the answers per item of the design: --k as given, else those people's, people m / I;
 * - halfwidth: the half-width that design reaches when complete (people = I k / m);
 * - power (with --detect): `{"difference", "modelScore", "people", "atDesign"}`: the people needed
 *   to detect the difference d from a model scoring s (two-sided 5%, power 0.8) and the power of
 *   the design, the model's per-item scores assumed independent of people's item effects, with
 *   variance s (1 - s) (0/1 scores; lib/stats/study-planner.ts).
 * m defaults to the pilot's median number of answers a person. A metric that is not a mean or
 * ratio of per-answer scores is refused (the components are of per-answer values num / den).
 */

export const planUsage =
  "usage: yardstick plan --items <items.jsonl> --answers <pilot.jsonl> --halfwidth <h> [--items-per-person m] [--k k] [--detect d --model-score s] [--kind kind]";

export interface PlanArguments {
  halfwidth: number;
  itemsPerPerson?: number;
  k?: number;
  detect?: number;
  modelScore?: number;
  kind?: string;
}

export interface PlanOutput {
  components: Components;
  people: number | null;
  k: number | null;
  halfwidth: number | null;
  reason?: string;
  power?: { difference: number; modelScore: number; people: number | null; atDesign: number | null; reason?: string };
}

const round = (x: number, digits = 6) => Number(x.toFixed(digits));

export function runPlanCommand(itemsJsonl: string, pilotJsonl: string, args: PlanArguments, names: { items?: string; answers?: string } = {}): string {
  const itemsFile = names.items ?? "items.jsonl";
  const answersFile = names.answers ?? "pilot.jsonl";
  const items = loadItems(itemsJsonl, itemsFile);
  const scored = scoreAnswerLines(items, pilotJsonl, answersFile);
  const kinds = taskKinds.filter((k) => scored.some((l) => l.item.kind === k));
  if (kinds.length === 0) throw new AppError("INVALID", `${answersFile}: no answers`);
  if (args.kind !== undefined && !kinds.includes(args.kind as (typeof kinds)[number]))
    throw new AppError("INVALID", `--kind ${JSON.stringify(args.kind)}: the pilot has answers of ${kinds.join(", ")}`);
  if (args.kind === undefined && kinds.length > 1)
    throw new AppError("INVALID", `the pilot has answers of ${kinds.length} kinds (${kinds.join(", ")}): choose one with --kind`);
  const kind = args.kind ?? kinds[0];
  const taskModule = getTaskModule(kind);
  const metric = headlineMetric(taskModule);
  const lines = scored.filter((l) => l.item.kind === kind);
  const person = (l: ScoredLine) => (l.annotator === undefined ? "" : String(l.annotator));
  const shape = metricShape(kind, metric, [
    lines.map((l) => ({ itemId: l.item.id, tags: l.item.tags, answer: l.answer, score: l.score, annotator: person(l) })),
  ]);
  if (!shape) throw new AppError("INVALID", `${kind}'s ${metric} is not a mean or ratio of per-answer scores: the planner cannot split it into components`);
  const value = (score: unknown, name: string) => {
    const v = score && typeof score === "object" ? (score as Record<string, unknown>)[name] : undefined;
    return typeof v === "number" ? v : typeof v === "boolean" ? (v ? 1 : 0) : 1;
  };
  const crossed: CrossedAnswer[] = lines.map((l) => ({
    item: l.item.id,
    person: person(l),
    num: value(l.score, shape.numerator),
    den: value(l.score, shape.denominator),
  }));
  const estimated = varianceComponents(crossed.filter((a) => (a.den ?? 1) > 0));
  if (estimated.people === null || estimated.items === null || estimated.residual === null) {
    throw new AppError(
      "INVALID",
      `${answersFile}: the pilot has ${estimated.personCount} ${estimated.personCount === 1 ? "person" : "people"} and ${estimated.itemCount} ${estimated.itemCount === 1 ? "item" : "items"}: the components need at least 2 people, 2 items and an item answered by two people`,
    );
  }
  const components: Components = { items: estimated.items, people: estimated.people, residual: estimated.residual };
  const I = [...items.values()].filter((item) => item.kind === kind && !item.practice).length;
  const perPerson = new Map<string, number>();
  for (const l of lines) perPerson.set(person(l), (perPerson.get(person(l)) ?? 0) + 1);
  const counts = [...perPerson.values()].sort((a, b) => a - b);
  const median = counts[Math.floor((counts.length - 1) / 2)];
  const m = args.itemsPerPerson ?? Math.min(I, Math.max(1, median));
  if (m > I) throw new AppError("INVALID", `--items-per-person is ${m}, more than the ${I} items of ${kind} in ${itemsFile}`);

  const needed = peopleForHalfWidth(components, I, m, args.halfwidth);
  const k = args.k ?? needed.k;
  const designPeople = k === null ? null : (I * k) / m;
  const out: PlanOutput = {
    components: { items: round(components.items), people: round(components.people), residual: round(components.residual) },
    people: needed.people,
    k: k === null ? null : round(k, 3),
    halfwidth: designPeople === null || designPeople < 1 ? null : round(predictedHalfWidth(components, { items: I, people: designPeople, itemsPerPerson: m })),
    ...(needed.reason ? { reason: needed.reason } : {}),
  };
  if (args.detect !== undefined) {
    const v = bernoulliItemVariance(args.modelScore!);
    const forDifference = peopleForDifference(components, I, m, args.detect, v);
    out.power = {
      difference: args.detect,
      modelScore: args.modelScore!,
      people: forDifference.people,
      atDesign:
        designPeople === null || designPeople < 2
          ? null
          : round(predictedPower(components, { items: I, people: designPeople, itemsPerPerson: m }, args.detect, v), 4),
      ...(forDifference.reason ? { reason: forDifference.reason } : {}),
    };
  }
  return JSON.stringify(out, null, 2);
}

function numberFlag(flags: Record<string, string>, name: string, check: (x: number) => boolean, expected: string): number | undefined {
  if (flags[name] === undefined) return undefined;
  const x = Number(flags[name]);
  if (!Number.isFinite(x) || !check(x)) throw new AppError("INVALID", `--${name} is ${JSON.stringify(flags[name])}: expected ${expected}\n${planUsage}`);
  return x;
}

/** `yardstick plan` arguments (after "plan"); paths resolved by `resolve`. */
export function runPlanCli(argv: readonly string[], resolve: (p: string) => string = (p) => p): string {
  const flags = commandFlags(argv, ["items", "answers", "halfwidth", "items-per-person", "k", "detect", "model-score", "kind"], planUsage);
  if (!flags.items || !flags.answers || !flags.halfwidth) throw new AppError("INVALID", `--items, --answers and --halfwidth are required\n${planUsage}`);
  const args: PlanArguments = {
    halfwidth: numberFlag(flags, "halfwidth", (x) => x > 0, "a number above 0")!,
    itemsPerPerson: numberFlag(flags, "items-per-person", (x) => Number.isInteger(x) && x >= 1, "a whole number >= 1"),
    k: numberFlag(flags, "k", (x) => x > 0 && x <= 100_000, "a number above 0 (answers per item)"),
    detect: numberFlag(flags, "detect", (x) => x !== 0, "a difference other than 0"),
    modelScore: numberFlag(flags, "model-score", (x) => x >= 0 && x <= 1, "a score from 0 to 1"),
    kind: flags.kind,
  };
  if ((args.detect === undefined) !== (args.modelScore === undefined)) throw new AppError("INVALID", `--detect and --model-score go together\n${planUsage}`);
  return runPlanCommand(readCapped(resolve(flags.items)), readCapped(resolve(flags.answers)), args, { items: flags.items, answers: flags.answers });
}
