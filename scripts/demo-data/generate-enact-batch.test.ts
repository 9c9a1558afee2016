import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enactForwardItemSchema, scoreEnactForward } from "@/lib/tasks/enact-forward";
import { enactInverseItemSchema, scoreEnactInverse } from "@/lib/tasks/enact-inverse";
import {
  buildEnactDemoItems,
  demoItemSchema,
  forwardOrderAccepted,
  generateEnactDemoBatch,
  generateSyntheticModelRun,
  planBatch,
  stepText,
  type BuiltItem,
  type DemoItem,
} from "@/scripts/demo-data/generate-enact-batch";
import { diffFacts, stateFacts, visibleFacts } from "@/scripts/demo-data/kitchen-world";
import { renderStateSvg } from "@/scripts/demo-data/render-scene";

const SEED = 11;
const PER = 1;
/** the written batches stop at 6 steps to keep the test fast; built (unrendered) items cover 3..10 */
const WRITTEN = { perKindPerSteps: PER, maxSteps: 6 };

let dirA: string;
let dirB: string;
let items: DemoItem[];
let built: BuiltItem[];

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path.join(dir, entry.name), rel)));
    else out.push(rel);
  }
  return out.sort();
}

function isPermutation(order: number[]): boolean {
  return [...order].sort((a, b) => a - b).every((v, i) => v === i);
}

beforeAll(async () => {
  dirA = await mkdtemp(path.join(os.tmpdir(), "enact-demo-a-"));
  dirB = await mkdtemp(path.join(os.tmpdir(), "enact-demo-b-"));
  const a = await generateEnactDemoBatch({ outDir: dirA, seed: SEED, ...WRITTEN });
  await generateEnactDemoBatch({ outDir: dirB, seed: SEED, ...WRITTEN });
  items = a.items;
  built = buildEnactDemoItems(SEED, { perKindPerSteps: PER });
}, 60_000);

afterAll(async () => {
  await rm(dirA, { recursive: true, force: true });
  await rm(dirB, { recursive: true, force: true });
});

describe("generateEnactDemoBatch", () => {
  it("writes the same bytes for the same seed", async () => {
    const files = await listFiles(dirA);
    expect(await listFiles(dirB)).toEqual(files);
    for (const file of files) {
      const [x, y] = await Promise.all([readFile(path.join(dirA, file)), readFile(path.join(dirB, file))]);
      expect(x.equals(y), file).toBe(true);
    }
  });

  it("plans practice, gold and every kind x steps 3..10", () => {
    const plan = planBatch({ perKindPerSteps: 3 });
    expect(plan.length).toBe(48 + 4);
    expect(plan.filter((p) => p.practice).map((p) => [p.kind, p.steps])).toEqual([
      ["enact-forward", 3],
      ["enact-forward", 3],
      ["enact-inverse", 3],
      ["enact-inverse", 3],
    ]);
    expect(plan.filter((p) => p.gold).length).toBe(2);
    expect(items.length).toBe(8 * PER + 4);
    expect(existsSync(path.join(dirA, "items.jsonl"))).toBe(true);
  });

  it("writes items.jsonl lines that match the item format and the task modules' schemas", async () => {
    const lines = (await readFile(path.join(dirA, "items.jsonl"), "utf8")).trimEnd().split("\n");
    expect(lines.length).toBe(items.length);
    const ids = new Set<string>();
    for (const line of lines) {
      const item = demoItemSchema.parse(JSON.parse(line));
      ids.add(item.id);
      const moduleSchema = item.kind === "enact-forward" ? enactForwardItemSchema : enactInverseItemSchema;
      const parsed = moduleSchema.safeParse(item);
      expect(parsed.success, `${item.id}: ${parsed.success ? "" : parsed.error.message}`).toBe(true);
      expect(item.tags.source).toBe("demo-kitchen");
      expect(item.tags.steps).toBeGreaterThanOrEqual(3);
      expect(item.tags.steps).toBeLessThanOrEqual(10);
      // every image exists, under img/<id>/
      const images = item.kind === "enact-forward" ? [item.public.initialImage, ...item.public.candidates] : item.public.observations;
      for (const image of images) {
        expect(image.startsWith(`img/${item.id}/`)).toBe(true);
        expect(existsSync(path.join(dirA, image)), image).toBe(true);
      }
    }
    expect(ids.size).toBe(lines.length);
  });

  it("forward items: order is a permutation, states match images, reference states reproduce each action", () => {
    for (const { item, trajectory: t } of built) {
      if (item.kind !== "enact-forward") continue;
      const L = item.tags.steps - 1;
      const { order, states, hidden } = item.key;
      expect(item.public.actions.length).toBe(L);
      expect(item.public.candidates.length).toBe(L);
      expect(states.candidates.length).toBe(L);
      expect(isPermutation(order)).toBe(true);
      // candidate files are named by shuffled index, not by step
      item.public.candidates.forEach((c, j) => expect(c).toBe(`img/${item.id}/c${j}.png`));
      const sequence = [states.initial, ...order.map((j) => states.candidates[j])];
      expect(sequence).toEqual(t.states.map(stateFacts));
      const hiddenSet = new Set(hidden);
      for (let i = 0; i < L; i++) {
        const diff = diffFacts(sequence[i], sequence[i + 1]);
        expect(diff).toEqual(t.steps[i].changes);
        expect(diff.filter((c) => !hiddenSet.has(c.slice(1)))).toEqual(t.steps[i].visible);
        expect(item.public.actions[i]).toBe(stepText(t, i));
      }
      // the reference order is accepted exactly by the task module's verifier
      const score = scoreEnactForward({ order }, item.key);
      expect([score.accepted, score.exact, score.correctPairs]).toEqual([true, true, L]);
    }
  });

  it("inverse items: order is a permutation, changes are the described (visible) parts of the steps", () => {
    for (const { item, trajectory: t } of built) {
      if (item.kind !== "enact-inverse") continue;
      const L = item.tags.steps - 1;
      const { order, changes, stepChanges } = item.key;
      expect(item.public.observations.length).toBe(L + 1);
      expect(item.public.candidates.length).toBe(L);
      expect(isPermutation(order)).toBe(true);
      for (let i = 0; i < L; i++) {
        const facts = [stateFacts(t.states[i]), stateFacts(t.states[i + 1])];
        expect(stepChanges[i]).toEqual(diffFacts(facts[0], facts[1]));
        const described = changes[order[i]];
        expect(described).toEqual(t.steps[i].visible);
        for (const c of described) expect(stepChanges[i]).toContain(c);
        expect(item.public.candidates[order[i]]).toBe(stepText(t, i));
      }
      expect(scoreEnactInverse({ order }, item.key).exact).toBe(true);
    }
  });

  it("uses the identity order in about one main item of eight, as the ENACT release does (2 of 16)", () => {
    const identity = (order: readonly number[]) => order.every((value, i) => value === i);
    const main = built.filter(({ item }) => !item.practice && !item.gold);
    const same = main.filter(({ item }) => identity(item.key.order));
    expect(same.length).toBeGreaterThanOrEqual(1);
    expect(same.map(({ item }) => item.kind).sort()).toEqual(["enact-forward", "enact-inverse"]);
    expect(same.length / main.length).toBeLessThanOrEqual(0.2);
    // never on practice or gold items (their feedback and checks should not teach "leave it as it is")
    expect(built.filter(({ item }) => (item.practice || item.gold) && identity(item.key.order))).toEqual([]);
    const full = buildEnactDemoItems(SEED).filter(({ item }) => !item.practice && !item.gold);
    expect(full.filter(({ item }) => identity(item.key.order)).length / full.length).toBeCloseTo(1 / 8, 1);
  });

  it("hand tags follow the gripper predicates of the changes", () => {
    for (const { item, trajectory: t } of built) {
      const all = t.steps.flatMap((s) => s.changes).join(" ");
      const left = all.includes("LeftGrasping(");
      const right = all.includes("RightGrasping(");
      expect(item.tags.hand).toBe(left && right ? "both" : left ? "left" : right ? "right" : "none");
    }
  });

  it("hides facts, and has items where another order is also valid", () => {
    const full = buildEnactDemoItems(1);
    const forward = full.filter((b) => b.item.kind === "enact-forward");
    expect(forward.some((b) => b.item.kind === "enact-forward" && b.item.key.hidden.length > 0)).toBe(true);
    // hidden facts are never drawn: the pictures are of the visible facts only
    for (const { trajectory: t } of full.slice(0, 10)) {
      for (const s of t.states) {
        const svg = renderStateSvg(s);
        for (const obj of s.objects) {
          const hidden = !visibleFacts(s).some((f) => f.includes(`(${obj},`) || f.includes(`,${obj})`));
          if (hidden) expect(svg.includes(`data-entity="${obj}"`)).toBe(false);
        }
      }
    }
    // items whose action texts repeat: swapping those actions is accepted by the inverse verifier
    let alternatives = 0;
    for (const { item } of full) {
      if (item.kind !== "enact-inverse") continue;
      const { candidates } = item.public;
      const { order } = item.key;
      for (let i = 0; i < order.length; i++) {
        for (let k = i + 1; k < order.length; k++) {
          if (candidates[order[i]] !== candidates[order[k]]) continue;
          const swapped = [...order];
          [swapped[i], swapped[k]] = [swapped[k], swapped[i]];
          const score = scoreEnactInverse({ order: swapped }, item.key);
          expect([score.accepted, score.exact]).toEqual([true, false]);
          alternatives++;
        }
      }
    }
    expect(alternatives).toBeGreaterThan(0);
    // forward items with look-alike candidates: both placements are accepted
    let lookAlikes = 0;
    for (const { item, trajectory: t } of forward) {
      if (item.kind !== "enact-forward") continue;
      const svgs = t.states.map(renderStateSvg);
      for (let a = 1; a < svgs.length; a++) {
        for (let b = a + 1; b < svgs.length; b++) {
          if (svgs[a] !== svgs[b]) continue;
          lookAlikes++;
          const stateOrder = t.steps.map((_, i) => (i + 1 === a ? b : i + 1 === b ? a : i + 1));
          expect(forwardOrderAccepted(t, stateOrder)).toBe(true);
          const ja = item.key.order[a - 1];
          const jb = item.key.order[b - 1];
          const swapped = item.key.order.map((j) => (j === ja ? jb : j === jb ? ja : j));
          expect(scoreEnactForward({ order: swapped }, item.key).accepted).toBe(true);
        }
      }
    }
    expect(lookAlikes).toBeGreaterThan(0);
  });

  it("gold items have a single right answer", () => {
    for (const { item, trajectory: t } of buildEnactDemoItems(1)) {
      if (!item.gold) continue;
      const texts = t.steps.map((s) => s.visible.join("|"));
      expect(new Set(texts).size).toBe(texts.length);
      const pictures = t.states.slice(1).map((s) => visibleFacts(s).join("|"));
      expect(new Set(pictures).size).toBe(pictures.length);
    }
  });
});

describe("generateSyntheticModelRun", () => {
  it("is deterministic, named synthetic, and gets worse with more steps", () => {
    const all = buildEnactDemoItems(1, { perKindPerSteps: 8 }).map((b) => b.item);
    const run = generateSyntheticModelRun(all, { seed: 3, name: "noisy-oracle" });
    expect(run.name).toBe("synthetic-noisy-oracle");
    expect(generateSyntheticModelRun(all, { seed: 3, name: "noisy-oracle" }).jsonl).toBe(run.jsonl);
    const lines = run.jsonl
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; answer: { order: number[] } });
    expect(lines.map((l) => l.id)).toEqual(all.map((i) => i.id));
    const exactByL = new Map<number, { exact: number; n: number }>();
    all.forEach((item, k) => {
      const L = item.key.order.length;
      const cell = exactByL.get(L) ?? { exact: 0, n: 0 };
      cell.n++;
      if (JSON.stringify(lines[k].answer.order) === JSON.stringify(item.key.order)) cell.exact++;
      exactByL.set(L, cell);
    });
    const rate = (L: number): number => exactByL.get(L)!.exact / exactByL.get(L)!.n;
    expect(rate(2)).toBeGreaterThan(0.7);
    expect(rate(9)).toBeLessThan(0.3);
    expect(rate(2)).toBeGreaterThan(rate(9));
  });
});
