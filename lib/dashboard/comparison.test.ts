import { describe, expect, it } from "vitest";
import { ALL, accuracyRows, type ScoredEntry } from "@/lib/dashboard/accuracy";
import { compareHumansAndModels, headlineMetric, pairedRatioDifference } from "@/lib/dashboard/comparison";
import { pairedDifference } from "@/lib/stats/paired-difference";
import { mulberry32 } from "@/lib/stats/rng";
import { taskKinds, taskModules } from "@/lib/tasks";

describe("pairedRatioDifference", () => {
  const random = mulberry32(7);
  const humans = Array.from({ length: 60 }, (_, a) => ({ item: a % 12, person: `p${a % 5}`, num: random() < 0.6 ? 1 : 0, den: 1 }));
  const model = Array.from({ length: 12 }, (_, i) => ({ item: i, num: i % 3 === 0 ? 0 : 1, den: 1 }));

  it("is pairedDifference when every denominator is 1 (a mean): the same D, interval and p", () => {
    for (const over of ["people+items", "items"] as const) {
      const ratio = pairedRatioDifference(humans, model, over);
      const mean = pairedDifference(
        humans,
        model.map((m) => ({ item: m.item, score: m.num })),
        over,
      );
      expect(ratio.difference).toBeCloseTo(mean.difference, 12);
      expect(ratio.ci![0]).toBeCloseTo(mean.ci![0], 10);
      expect(ratio.ci![1]).toBeCloseTo(mean.ci![1], 10);
      expect(ratio.p!).toBeCloseTo(mean.p!, 8);
    }
  });

  it("a ratio: D = sum num / sum den of people minus the model's ratio weighted by people's answers per item", () => {
    // item 1: two answers 3/4 and 1/4, model 2/4; item 2: one answer 5/5, model 1/5 (two samples: 0/5 and 2/5)
    const h = [
      { item: 1, person: "a", num: 3, den: 4 },
      { item: 1, person: "b", num: 1, den: 4 },
      { item: 2, person: "a", num: 5, den: 5 },
    ];
    const m = [
      { item: 1, num: 2, den: 4 },
      { item: 2, num: 0, den: 5 },
      { item: 2, num: 2, den: 5 },
    ];
    const d = pairedRatioDifference(h, m, "items");
    expect(d.humans).toBeCloseTo(9 / 13, 12);
    // the model weighted as people's answers: item 1 twice (2/4), item 2 once (1/5 on average)
    expect(d.model).toBeCloseTo((2 * 2 + 1) / (2 * 4 + 5), 12);
    expect(d.difference).toBeCloseTo(9 / 13 - 5 / 13, 12);
    expect(d.ci![0]).toBeLessThan(d.difference);
  });
});

describe("compareHumansAndModels", () => {
  const s = (accepted: boolean) => ({ accepted, exact: accepted, correctPairs: accepted ? 3 : 1, L: 3, semanticAvailable: false });
  const entry = (item: number, who: string | null, accepted: boolean, tag: string): ScoredEntry => ({
    kind: "enact-forward",
    tag,
    item,
    row: { itemId: `i${item}`, tags: { steps: tag }, answer: null, score: s(accepted), annotator: who },
  });

  it("compares on shared items only, per tag and overall, sorted by difference, the model closest to people first", () => {
    const humans = [0, 1, 2, 3, 4, 5].flatMap((i) => ["a", "b", "c"].map((p, k) => entry(i, p, (i + k) % 2 === 0, i < 3 ? "3" : "4")));
    const strong = { id: "m1", name: "Strong", entries: [0, 1, 2, 3].map((i) => entry(i, null, true, i < 3 ? "3" : "4")) };
    const weak = { id: "m2", name: "Weak", entries: [0, 1, 2, 3, 4, 5, 9].map((i) => entry(i, null, false, i < 3 ? "3" : "4")) };
    const rows = accuracyRows(humans, "humans", "Humans", "seed");
    const c = compareHumansAndModels(humans, [weak, strong], rows, { over: "people+items", seedKey: "k" });
    expect(c.metrics.map((m) => m.metric)).toEqual([headlineMetric("enact-forward").id]);
    const overall = c.rows.filter((r) => r.tag === ALL);
    expect(overall.map((r) => [r.model.name, r.items])).toEqual([
      ["Strong", 4],
      ["Weak", 6],
    ]);
    const share = (items: number[]) =>
      humans.filter((e) => items.includes(e.item as number) && (e.row.score as { accepted: boolean }).accepted).length / (3 * items.length);
    expect(overall[0].humans.estimate).toBeCloseTo(share([0, 1, 2, 3]), 12);
    expect(overall[0].difference.estimate).toBeCloseTo(share([0, 1, 2, 3]) - 1, 12);
    expect(overall[1].difference.estimate).toBeCloseTo(share([0, 1, 2, 3, 4, 5]), 12);
    expect(overall[1].humansAll.estimate).toBeCloseTo(share([0, 1, 2, 3, 4, 5]), 12);
    expect(c.rows.filter((r) => r.tag === "4").map((r) => [r.model.name, r.items])).toEqual([
      ["Strong", 1],
      ["Weak", 3],
    ]);
  });
});

describe("compareHumansAndModels under study conditions", () => {
  const s = (accepted: boolean) => ({ accepted, exact: accepted, correctPairs: accepted ? 3 : 1, L: 3, semanticAvailable: false });
  const entry = (item: number, who: string | null, accepted: boolean, condition: string | null): ScoredEntry => ({
    kind: "enact-forward",
    tag: "3",
    condition,
    item,
    row: { itemId: `i${item}`, tags: {}, answer: null, score: s(accepted), annotator: who },
  });

  it("compares people under a condition with the model's answers under it or under none, never across conditions", () => {
    // people right under "b", wrong under "a"; a model of condition "b" (right) and one of none (right)
    const humans = [0, 1, 2].flatMap((i) => [entry(i, "p", false, "a"), entry(i, "q", true, "b")]);
    const named = { id: "m1", name: "Named", entries: [0, 1, 2].map((i) => entry(i, null, true, "b")) };
    const plain = { id: "m2", name: "Plain", entries: [0, 1, 2].map((i) => entry(i, null, true, null)) };
    const c = compareHumansAndModels(humans, [named, plain], accuracyRows(humans, "humans", "Humans", "seed"), { over: "items", seedKey: "k" });
    expect(c.rows.filter((r) => r.tag === ALL).map((r) => [r.condition, r.model.name, r.humans.estimate, r.humansAll.estimate, r.difference.estimate])).toEqual(
      [
        ["a", "Plain", 0, 0, -1],
        ["b", "Named", 1, 1, 0],
        ["b", "Plain", 1, 1, 0],
      ],
    );
  });
});

describe("headlineMetric", () => {
  it("names one of its kind's metrics for every kind", () => {
    for (const kind of taskKinds) {
      const id = taskModules[kind].headlineMetric;
      if (id !== undefined)
        expect(
          taskModules[kind].metrics.map((m) => m.id),
          kind,
        ).toContain(id);
      expect(taskModules[kind].metrics).toContain(headlineMetric(kind));
    }
  });
});
