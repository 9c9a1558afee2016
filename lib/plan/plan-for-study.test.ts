import { describe, expect, it } from "vitest";
import { planFromSnapshot } from "@/lib/plan/plan-for-study";
import type { StudySnapshot } from "@/lib/dashboard/types";

/** A snapshot of 4 people x 6 choice items: two people right on every item, two wrong on every one. */
function snapshot(people: number): StudySnapshot {
  const items = 6;
  const n = people * items;
  const score = (right: boolean) => ({ correct: right, score: right ? 1 : 0, options: 4 });
  return {
    studyId: "s",
    version: "1",
    loadedAt: 0,
    items: {
      keys: [],
      ids: Array.from({ length: items }, (_, i) => `i${i}`),
      externalIds: Array.from({ length: items }, (_, i) => `q${i}`),
      kinds: Array(items).fill("choice"),
      tags: Array.from({ length: items }, () => ({})),
      index: new Map(),
    },
    conditions: [],
    annotators: Array.from({ length: people }, (_, p) => ({ id: `u${p}`, name: `P${p}` })),
    responses: {
      count: n,
      item: Int32Array.from({ length: n }, (_, r) => r % items),
      annotator: Int32Array.from({ length: n }, (_, r) => Math.floor(r / items)),
      agreement: new Uint8Array(n),
      condition: new Int32Array(n).fill(-1),
      correct: Uint8Array.from({ length: n }, (_, r) => (Math.floor(r / items) < 2 ? 1 : 0)),
      confidence: new Float64Array(n),
      wallMs: new Float64Array(n),
      activeMs: new Float64Array(n),
      createdAt: new Float64Array(n),
      score: Array.from({ length: n }, (_, r) => score(Math.floor(r / items) < 2)),
      answer: Array.from({ length: n }, (_, r) => ({ choice: Math.floor(r / items) < 2 ? "A" : "B" })),
    },
  };
}

describe("planFromSnapshot", () => {
  it("the components of the answers so far on the headline metric, and the study's design", () => {
    const plan = planFromSnapshot(snapshot(4), { k: 3, itemsPerPerson: null });
    expect(plan.estimator).toMatch(/Henderson's Method I/);
    expect(plan.k).toBe(3);
    const [kind] = plan.kinds;
    expect(kind).toMatchObject({ metric: "accuracy", items: 6, answers: 24, people: 4, unitScale: true });
    // MS_people = 6 * 4 * 0.25 / 3 = 2, MS_e = 0: people = 1/3
    expect(kind.components!.people).toBeCloseTo(1 / 3, 12);
    expect(kind.components!.items).toBeCloseTo(0, 12);
  });

  it("one person so far: no components, and why", () => {
    const [kind] = planFromSnapshot(snapshot(1), { k: 3, itemsPerPerson: 2 }).kinds;
    expect(kind.components).toBeNull();
    expect(kind.reason).toMatch(/1 person on 6 items/);
  });
});
