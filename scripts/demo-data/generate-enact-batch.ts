/**
 * Deterministic ENACT-style demo batch from the symbolic kitchen (kitchen-world.ts), with the
 * pictures it draws (render-scene.ts).
 *
 *   npx tsx scripts/demo-data/generate-enact-batch.ts <outDir> [--seed N] [--per N] [--no-model-run]
 *
 * Writes <outDir>/items.jsonl (one item a line, kinds enact-forward / enact-inverse, image paths
 * relative to <outDir>) and <outDir>/img/<id>/*.png; the CLI also writes a synthetic model run
 * to <outDir>/model-runs/synthetic-noisy-oracle.jsonl. Same seed, same bytes.
 *
 * Item format (indices 0-based):
 * - enact-forward: public { initialImage, actions (in order), candidates (later observations,
 *   shuffled; files c<j>.png named by shuffled index) }; key { order (order[i] = candidate after
 *   action i), states { initial, candidates[j] = facts of candidate image j }, hidden }.
 * - enact-inverse: public { observations (L + 1, in order), candidates (L action texts, shuffled) };
 *   key { order (order[i] = candidate action explaining transition i), changes[j] = the visible
 *   change set candidate j describes, stepChanges[i] = the full change set of transition i }.
 * - key.hidden: facts some image of the item holds without showing (inside a closed container),
 *   minus facts whose changes are visible; "diff of two consecutive states minus hidden facts" is
 *   exactly that step's visible change set (what its action text says), and each step's diff is
 *   exactly its full change set.
 * - tags { steps (observations, 3..10), hand (left | right | both | none: the gripper predicates the
 *   changes use), source "demo-kitchen", activity }; practice / gold flags.
 */
import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { describeChanges } from "@/scripts/demo-data/action-text";
import {
  ACTIVITIES,
  diffFacts,
  generateTrajectory,
  hasRepeatedVisibleChange,
  rngFor,
  shuffled,
  stateFacts,
  trajectoryHiddenFacts,
  visibleFacts,
  type HandTag,
  type Trajectory,
} from "@/scripts/demo-data/kitchen-world";
import { renderStateSvg, svgToPng } from "@/scripts/demo-data/render-scene";
import { clearPreviousImages, mapLimit } from "@/scripts/demo-data/batch-files";

export const DEMO_SOURCE = "demo-kitchen";
export const MIN_STEPS = 3;
export const MAX_STEPS = 10;

// ---------------------------------------------------------------------------------------------
// Item format

const tagsSchema = z.strictObject({
  steps: z.number().int().min(2),
  hand: z.enum(["left", "right", "both", "none"]),
  source: z.literal(DEMO_SOURCE),
  activity: z.string().min(1),
});

export const demoForwardItemSchema = z.strictObject({
  id: z.string().min(1),
  kind: z.literal("enact-forward"),
  public: z.strictObject({
    initialImage: z.string(),
    actions: z.array(z.string().min(1)).min(1),
    candidates: z.array(z.string()).min(1),
  }),
  key: z.strictObject({
    order: z.array(z.number().int().nonnegative()),
    states: z.strictObject({ initial: z.array(z.string()), candidates: z.array(z.array(z.string())) }),
    hidden: z.array(z.string()),
  }),
  tags: tagsSchema,
  practice: z.boolean(),
  gold: z.boolean(),
});
export type DemoForwardItem = z.infer<typeof demoForwardItemSchema>;

export const demoInverseItemSchema = z.strictObject({
  id: z.string().min(1),
  kind: z.literal("enact-inverse"),
  public: z.strictObject({
    observations: z.array(z.string()).min(2),
    candidates: z.array(z.string().min(1)).min(1),
  }),
  key: z.strictObject({
    order: z.array(z.number().int().nonnegative()),
    changes: z.array(z.array(z.string())),
    stepChanges: z.array(z.array(z.string())),
  }),
  tags: tagsSchema,
  practice: z.boolean(),
  gold: z.boolean(),
});
export type DemoInverseItem = z.infer<typeof demoInverseItemSchema>;

export const demoItemSchema = z.discriminatedUnion("kind", [demoForwardItemSchema, demoInverseItemSchema]);
export type DemoItem = DemoForwardItem | DemoInverseItem;
export type DemoKind = DemoItem["kind"];

// ---------------------------------------------------------------------------------------------
// Checks used while generating

/**
 * The forward verifier's local check (ENACT: C_i subset of the predicted diff, no contradiction),
 * with C_i the reference step's visible change set. True when `order` (state indices 1..L for
 * each step) is accepted.
 */
export function forwardOrderAccepted(t: Trajectory, stateOrder: readonly number[]): boolean {
  const facts = t.states.map(stateFacts);
  let before = facts[0];
  for (let i = 0; i < stateOrder.length; i++) {
    const after = facts[stateOrder[i]];
    const predicted = new Set(diffFacts(before, after));
    for (const c of t.steps[i].visible) {
      if (!predicted.has(c)) return false;
    }
    const negated = new Set(t.steps[i].visible.map((c) => (c[0] === "+" ? "-" : "+") + c.slice(1)));
    for (const c of predicted) if (negated.has(c)) return false;
    before = after;
  }
  return true;
}

/** Pairs of later observations (1..L) that look the same (equal visible facts). */
export function lookAlikePairs(t: Trajectory): Array<[number, number]> {
  const keys = t.states.map((s) => visibleFacts(s).join("\n"));
  const pairs: Array<[number, number]> = [];
  for (let a = 1; a < keys.length; a++) for (let b = a + 1; b < keys.length; b++) if (keys[a] === keys[b]) pairs.push([a, b]);
  return pairs;
}

/**
 * Forward items must be fair: when two candidate pictures look the same, putting them the other
 * way round must also be accepted (the person cannot tell them apart).
 */
export function lookAlikesInterchangeable(t: Trajectory): boolean {
  const reference = t.steps.map((_, i) => i + 1);
  return lookAlikePairs(t).every(([a, b]) => {
    const swapped = reference.map((s) => (s === a ? b : s === b ? a : s));
    return forwardOrderAccepted(t, swapped);
  });
}

// ---------------------------------------------------------------------------------------------
// Building items

export interface ItemPlan {
  kind: DemoKind;
  steps: number;
  index: number;
  practice: boolean;
  gold: boolean;
  /** ask for two steps with the same visible change set (another order is then also valid) */
  repeat: boolean;
  /** activity name (kitchen-world ACTIVITIES) */
  activity: string;
}

export interface BuiltItem {
  item: DemoItem;
  /** image path (relative to the batch folder) -> the SVG drawn there */
  images: Array<{ path: string; svg: string }>;
  trajectory: Trajectory;
}

const KIND_SHORT: Record<DemoKind, string> = { "enact-forward": "fwd", "enact-inverse": "inv" };

function itemId(plan: ItemPlan): string {
  const short = KIND_SHORT[plan.kind];
  if (plan.practice) return `kitchen-${short}-practice-${plan.index + 1}`;
  return `kitchen-${short}-s${String(plan.steps).padStart(2, "0")}-${String(plan.index + 1).padStart(2, "0")}`;
}

/**
 * Main items that keep the candidates in their true order (the identity order): about one in
 * eight, as in ENACT's release (2 of its 16 sample items), so that "already in order" is a
 * possible answer. Chosen by the plan (not by the random stream, which stays as it was for every
 * other item): forward items whose steps + index is 0 mod 8, inverse items 4 mod 8 (with one item
 * per kind and length: 8 forward and 4 inverse steps). Never practice or gold items.
 */
export function usesIdentityOrder(plan: Pick<ItemPlan, "kind" | "steps" | "index" | "practice" | "gold">): boolean {
  if (plan.practice || plan.gold) return false;
  return (plan.steps + plan.index + (plan.kind === "enact-forward" ? 0 : 4)) % 8 === 0;
}

/** A non-identity shuffle of 0..n-1 when n > 1 (the identity for plans that use it: the random draws are made all the same). */
function shuffledIndices(rng: () => number, n: number, identity = false): number[] {
  const base = Array.from({ length: n }, (_, i) => i);
  if (identity) {
    shuffled(rng, base);
    return base;
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const out = shuffled(rng, base);
    if (n < 2 || out.some((v, i) => v !== i)) return out;
  }
  return [...base.slice(1), base[0]];
}

/** The action text of step i: its visible changes, naming sliced foods by what they became. */
export function stepText(t: Trajectory, i: number): string {
  return describeChanges(t.steps[i].visible, t.states[i + 1].sliced);
}

export function buildItem(seed: number, plan: ItemPlan): BuiltItem {
  const rng = rngFor(seed, plan.kind, plan.steps, plan.index, plan.practice ? "practice" : "main");
  const L = plan.steps - 1;
  const u = rng();
  const hand: Exclude<HandTag, "none"> = u < 0.45 ? "right" : u < 0.7 ? "left" : "both";
  const activity = plan.activity;
  const accept = (t: Trajectory): boolean => {
    if (plan.kind === "enact-forward" && !lookAlikesInterchangeable(t)) return false;
    // gold items have one right answer: no look-alike pictures, no repeated action texts
    if (plan.gold && (lookAlikePairs(t).length > 0 || hasRepeatedVisibleChange(t))) return false;
    return true;
  };
  const t = generateTrajectory(rng, { actions: L, activity, hand, requireRepeat: plan.repeat, accept });
  const id = itemId(plan);
  const dir = `img/${id}`;
  const tags = { steps: plan.steps, hand: t.hand, source: DEMO_SOURCE, activity: t.activity } as const;
  const images: Array<{ path: string; svg: string }> = [];
  const facts = t.states.map(stateFacts);

  if (plan.kind === "enact-forward") {
    // candidates[j] shows state perm[j] + 1; order[i] = the j showing state i + 1
    const perm = shuffledIndices(rng, L, usesIdentityOrder(plan));
    const order = Array.from({ length: L }, (_, i) => perm.indexOf(i));
    images.push({ path: `${dir}/s0.png`, svg: renderStateSvg(t.states[0]) });
    perm.forEach((stateIndex, j) => images.push({ path: `${dir}/c${j}.png`, svg: renderStateSvg(t.states[stateIndex + 1]) }));
    const item: DemoForwardItem = {
      id,
      kind: "enact-forward",
      public: {
        initialImage: `${dir}/s0.png`,
        actions: t.steps.map((_, i) => stepText(t, i)),
        candidates: perm.map((_, j) => `${dir}/c${j}.png`),
      },
      key: {
        order,
        states: { initial: facts[0], candidates: perm.map((stateIndex) => facts[stateIndex + 1]) },
        hidden: trajectoryHiddenFacts(t),
      },
      tags: { ...tags },
      practice: plan.practice,
      gold: plan.gold,
    };
    return { item, images, trajectory: t };
  }

  // inverse: candidates[j] describes step perm[j]; order[i] = the j describing step i
  const perm = shuffledIndices(rng, L, usesIdentityOrder(plan));
  const order = Array.from({ length: L }, (_, i) => perm.indexOf(i));
  t.states.forEach((state, i) => images.push({ path: `${dir}/s${i}.png`, svg: renderStateSvg(state) }));
  const item: DemoInverseItem = {
    id,
    kind: "enact-inverse",
    public: {
      observations: t.states.map((_, i) => `${dir}/s${i}.png`),
      candidates: perm.map((stepIndex) => stepText(t, stepIndex)),
    },
    key: {
      order,
      changes: perm.map((stepIndex) => [...t.steps[stepIndex].visible]),
      stepChanges: t.steps.map((s) => [...s.changes]),
    },
    tags: { ...tags },
    practice: plan.practice,
    gold: plan.gold,
  };
  return { item, images, trajectory: t };
}

export interface BatchPlanOptions {
  /** items per kind and per number of steps (default 3) */
  perKindPerSteps?: number;
  /** practice items per kind, all with 3 steps (default 2) */
  practicePerKind?: number;
  minSteps?: number;
  maxSteps?: number;
}

/** Which items a batch holds, in items.jsonl order: practice items first, then by steps and kind. */
export function planBatch(options: BatchPlanOptions = {}): ItemPlan[] {
  const { perKindPerSteps = 3, practicePerKind = 2, minSteps = MIN_STEPS, maxSteps = MAX_STEPS } = options;
  const kinds: DemoKind[] = ["enact-forward", "enact-inverse"];
  const plans: ItemPlan[] = [];
  for (const kind of kinds) {
    for (let index = 0; index < practicePerKind; index++) {
      plans.push({ kind, steps: 3, index, practice: true, gold: false, repeat: false, activity: "" });
    }
  }
  // two gold items: the last forward item with 5 steps and the last inverse item with 6 steps
  const goldSteps: Record<DemoKind, number> = { "enact-forward": 5, "enact-inverse": 6 };
  for (let steps = minSteps; steps <= maxSteps; steps++) {
    for (const kind of kinds) {
      for (let index = 0; index < perKindPerSteps; index++) {
        const gold = steps === goldSteps[kind] && index === perKindPerSteps - 1;
        // the first item of each length (4 steps and up) has two steps with the same visible change
        const repeat = index === 0 && steps >= 4 && !gold;
        plans.push({ kind, steps, index, practice: false, gold, repeat, activity: "" });
      }
    }
  }
  // activities in turn, so that every one is about equally common
  return plans.map((plan, position) => ({ ...plan, activity: ACTIVITIES[position % ACTIVITIES.length].name }));
}

export function buildEnactDemoItems(seed: number, options: BatchPlanOptions = {}): BuiltItem[] {
  return planBatch(options).map((plan) => buildItem(seed, plan));
}

// ---------------------------------------------------------------------------------------------
// Writing a batch

export interface GenerateEnactDemoBatchOptions extends BatchPlanOptions {
  outDir: string;
  seed?: number;
}

export interface GenerateEnactDemoBatchResult {
  outDir: string;
  items: DemoItem[];
  /** PNG files written */
  images: number;
  /** bytes of items.jsonl plus all PNGs */
  bytes: number;
  ms: number;
}

const MARKER = ".demo-kitchen-batch";

/**
 * Generates the batch into outDir (items.jsonl and img/**). Deterministic: the same seed and
 * options write the same bytes. A previous batch's img/ folder in outDir is replaced.
 */
export async function generateEnactDemoBatch(options: GenerateEnactDemoBatchOptions): Promise<GenerateEnactDemoBatchResult> {
  const started = performance.now();
  const { outDir, seed = 1, ...planOptions } = options;
  const built = buildEnactDemoItems(seed, planOptions);
  await mkdir(outDir, { recursive: true });
  await clearPreviousImages(outDir, MARKER);
  await writeFile(path.join(outDir, MARKER), "written by scripts/demo-data/generate-enact-batch.ts\n");

  // render each distinct picture once
  const uniqueSvgs = [...new Set(built.flatMap((b) => b.images.map((image) => image.svg)))];
  const pngs = await mapLimit(uniqueSvgs, 8, (svg) => svgToPng(svg));
  const pngBySvg = new Map(uniqueSvgs.map((svg, i) => [svg, pngs[i]]));

  const dirs = new Set(built.flatMap((b) => b.images.map((image) => path.dirname(image.path))));
  for (const dir of dirs) await mkdir(path.join(outDir, dir), { recursive: true });
  const files = built.flatMap((b) => b.images);
  await mapLimit(files, 32, (image) => writeFile(path.join(outDir, image.path), pngBySvg.get(image.svg)!));

  const items = built.map((b) => b.item);
  const jsonl = items.map((item) => JSON.stringify(item)).join("\n") + "\n";
  await writeFile(path.join(outDir, "items.jsonl"), jsonl);

  const bytes = Buffer.byteLength(jsonl) + files.reduce((sum, image) => sum + pngBySvg.get(image.svg)!.length, 0);
  return { outDir, items, images: files.length, bytes, ms: Math.round(performance.now() - started) };
}

// ---------------------------------------------------------------------------------------------
// A synthetic model run

export interface SyntheticModelRun {
  /** always starts with "synthetic" */
  name: string;
  answers: Array<{ id: string; answer: { order: number[] } }>;
  /** one `{"id": ..., "answer": {"order": [...]}}` a line */
  jsonl: string;
}

/**
 * A SYNTHETIC model run for the demo (not a real model): a noisy oracle that starts from the key's
 * order and swaps each adjacent pair with probability 0.06 + 0.045 * (L - 2), so task accuracy
 * falls from about 0.94 at L = 2 actions to a few percent at L = 9, like the models in ENACT;
 * with probability 0.015 * (L - 1) it also drops the last entry (an answer of the wrong length,
 * never accepted, scored by alignment). Seeded: the same items, seed and name give the same run.
 */
export function generateSyntheticModelRun(
  items: ReadonlyArray<{ id: string; key: { order: readonly number[] } }>,
  options: { seed: number; name: string },
): SyntheticModelRun {
  const name = options.name.startsWith("synthetic") ? options.name : `synthetic-${options.name}`;
  const answers = items.map((item) => {
    const rng = rngFor(options.seed, name, item.id);
    const order = [...item.key.order];
    const L = order.length;
    const swap = Math.min(0.6, 0.06 + 0.045 * (L - 2));
    for (let k = 0; k + 1 < L; k++) {
      if (rng() < swap) {
        [order[k], order[k + 1]] = [order[k + 1], order[k]];
        k++; // a swapped pair is not swapped again by the next position
      }
    }
    if (L > 1 && rng() < 0.015 * (L - 1)) order.pop();
    return { id: item.id, answer: { order } };
  });
  return { name, answers, jsonl: answers.map((a) => JSON.stringify(a)).join("\n") + "\n" };
}

// ---------------------------------------------------------------------------------------------
// CLI

async function directorySize(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const sub = await directorySize(full);
      files += sub.files;
      bytes += sub.bytes;
    } else {
      files++;
      bytes += (await stat(full)).size;
    }
  }
  return { files, bytes };
}

function usage(): never {
  console.error("usage: npx tsx scripts/demo-data/generate-enact-batch.ts <outDir> [--seed N] [--per N] [--no-model-run]");
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  let outDir: string | null = null;
  let seed = 1;
  let per = 3;
  let modelRun = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--seed" || arg === "--per") {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < (arg === "--per" ? 1 : 0)) usage();
      if (arg === "--seed") seed = value;
      else per = value;
    } else if (arg === "--no-model-run") modelRun = false;
    else if (arg === "--help" || arg === "-h") usage();
    else if (arg.startsWith("-") || outDir !== null) usage();
    else outDir = arg;
  }
  if (outDir === null) usage();
  const result = await generateEnactDemoBatch({ outDir, seed, perKindPerSteps: per });
  console.log(
    `wrote ${result.items.length} items (${result.items.filter((i) => i.practice).length} practice, ` +
      `${result.items.filter((i) => i.gold).length} gold) and ${result.images} images to ${outDir} ` +
      `in ${result.ms} ms (${(result.bytes / 1024).toFixed(0)} KiB)`,
  );
  if (modelRun) {
    const run = generateSyntheticModelRun(result.items, { seed, name: "synthetic-noisy-oracle" });
    await mkdir(path.join(outDir, "model-runs"), { recursive: true });
    const file = path.join(outDir, "model-runs", `${run.name}.jsonl`);
    await writeFile(file, run.jsonl);
    console.log(`wrote a synthetic model run (not a real model) to ${file}`);
  }
  const size = await directorySize(outDir);
  console.log(`${outDir}: ${size.files} files, ${(size.bytes / 1024).toFixed(0)} KiB`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
