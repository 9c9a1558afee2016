import { describe, expect, it } from "vitest";
import { headlineMetric, runCompareCommand, runCompareCli, type CompareOutput } from "@/lib/cli/compare";
import { runPlanCommand, type PlanOutput } from "@/lib/cli/plan";
import { tCritical } from "@/lib/stats/student-t";
import { getTaskModule, taskKinds } from "@/lib/tasks";

const jsonl = (...lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
const choiceItem = (id: string, answer: string, practice = false) => ({
  id,
  kind: "choice",
  public: { question: `Question ${id}?`, options: ["A", "B", "C", "D"].map((o) => ({ id: o, text: `option ${o}` })) },
  key: { answer },
  tags: {},
  practice,
});

/** 2 people x 2 items, keyed A: person p1 right on both, p2 wrong on both. */
const items = jsonl(choiceItem("q1", "A"), choiceItem("q2", "A"));
const answers = jsonl(
  { id: "q1", annotator: "p1", answer: { choice: "A" } },
  { id: "q2", annotator: "p1", answer: { choice: "A" } },
  { id: "q1", annotator: "p2", answer: { choice: "B" } },
  { id: "q2", annotator: "p2", answer: { choice: "C" } },
);

describe("yardstick compare", () => {
  it("every registered kind's headline metric is one of its metrics", () => {
    for (const kind of taskKinds) expect(getTaskModule(kind).metrics.map((m) => m.id)).toContain(headlineMetric(getTaskModule(kind)));
  });

  it("people's figure: 2 people x 2 items by hand (V = V_people = 1/4, Wilson at n = 1 with t(1))", () => {
    const out = JSON.parse(runCompareCommand(items, answers, null)) as CompareOutput;
    const humans = out.kinds.choice.humans;
    expect(out.kinds.choice.metric).toBe("accuracy");
    expect(humans).toMatchObject({ estimate: 0.5, answers: 4, annotators: 2, items: 2 });
    expect(humans.method).toMatch(/two-way cluster-robust over people and items/);
    // V_people = 2/(2-1) * (1^2 + 1^2) / 16 = 0.25, effective n = 0.25 / 0.25 = 1; Wilson with z = t(1) = 12.706
    const z = tCritical(1);
    const centre = (0.5 + (z * z) / 2) / (1 + z * z);
    const half = (z / (1 + z * z)) * Math.sqrt(0.25 + (z * z) / 4);
    expect(humans.low).toBeCloseTo(Math.max(0, centre - half), 9);
    expect(humans.high).toBeCloseTo(Math.min(1, centre + half), 9);
  });

  it("a model by its answers and by its scores: the paired difference on the shared items", () => {
    // the model answers q1 right (answer line) ; another model scores q1 1, q2 0 (score lines)
    const models = jsonl({ model: "m-answers", id: "q1", answer: "A" }, { model: "m-scores", id: "q1", score: 1 }, { model: "m-scores", id: "q2", score: 0 });
    const out = JSON.parse(runCompareCommand(items, answers, models)) as CompareOutput;
    const a = out.kinds.choice.models["m-answers"];
    expect(a.estimate).toBe(1);
    expect(a.items).toBe(1);
    // shared: q1 only, people 1 of 2 right; one item: no interval
    expect(a.humansOnShared.estimate).toBe(0.5);
    expect(a.difference).toMatchObject({ estimate: -0.5, low: null, high: null, p: null, reason: "one item" });
    const s = out.kinds.choice.models["m-scores"];
    expect(s.estimate).toBe(0.5);
    // y - m: p1 (1-1, 1-0) = (0, 1), p2 (0-1, 0-0) = (-1, 0): D = 0; residuals by person +1, -1 -> V_people = 2 * 2 / 16 = 0.25;
    // by item: q1 -1, q2 +1 -> V_items = 0.25; cells: 4 x (0, 1, -1, 0)^2 = 2 -> 4/3 * 2 / 16 = 1/6; V = 1/3
    expect(s.difference.estimate).toBeCloseTo(0, 12);
    expect(s.difference.high! - s.difference.estimate!).toBeCloseTo(tCritical(1) * Math.sqrt(1 / 3), 9);
    expect(s.difference.p).toBe(1);
  });

  it("--over items: V from items alone, people's figure as the population", () => {
    const out = JSON.parse(runCompareCommand(items, answers, null, { over: "items" })) as CompareOutput;
    // by item: q1 residuals +0.5, -0.5 -> 0; same q2: V_items = 0, all-agree fallback n = 2 items
    expect(out.kinds.choice.humans.method).toMatch(/clustered by item/);
    expect(out.kinds.choice.humans.low).toBeGreaterThan(0);
  });

  it("bad input names the file and line and refuses", () => {
    expect(() => runCompareCommand(items, answers, jsonl({ model: "m", id: "zz", answer: "A" }))).toThrow(/models.jsonl line 1: unknown item id "zz"/);
    expect(() => runCompareCommand(items, answers, jsonl({ model: "m", id: "q1", answer: "A", score: 1 }))).toThrow(
      /models.jsonl line 1: .*exactly one of "answer" and "score"/,
    );
    expect(() => runCompareCommand(items, answers, jsonl({ model: "m", id: "q1", answer: "A" }, { model: "m", id: "q2", score: 1 }))).toThrow(
      /models.jsonl line 2: model "m" gives a score here and a answer on line 1/,
    );
    expect(() => runCompareCommand(items, answers, "{not json\n")).toThrow(/models.jsonl line 1: invalid JSON/);
    expect(() => runCompareCommand(items, answers + "{}\n", null)).toThrow(/answers.jsonl line 5/);
    expect(() => runCompareCli(["--items", "i.jsonl", "--answers", "a.jsonl", "--over", "people"])).toThrow(
      /--over is "people": expected people\+items or items/,
    );
    expect(() => runCompareCli(["--items", "i.jsonl"])).toThrow(/--items and --answers are required/);
  });
});

describe("yardstick plan", () => {
  /** 4 people x 6 items, person effects only: p1, p2 right on all; p3, p4 wrong on all */
  const planItems = jsonl(...Array.from({ length: 6 }, (_, i) => choiceItem(`q${i}`, "A")), choiceItem("practice", "A", true));
  const pilot = jsonl(
    ...["p1", "p2", "p3", "p4"].flatMap((p, k) => Array.from({ length: 6 }, (_, i) => ({ id: `q${i}`, annotator: p, answer: { choice: k < 2 ? "A" : "B" } }))),
  );

  it("components by hand and the people a half-width needs", () => {
    const out = JSON.parse(runPlanCommand(planItems, pilot, { halfwidth: 0.2 })) as PlanOutput;
    // MS_people = 6 * 4 * 0.25 / 3 = 2, MS_e = 0: people = 2 / 6 = 1/3; items and residual 0
    expect(out.components).toEqual({ items: 0, people: 0.333333, residual: 0 });
    // m = 6 of I = 6 (practice left out): half-width t(min(6, P) - 1) sqrt(1/3 / P) <= 0.2
    const hw = (P: number) => tCritical(Math.min(6, P) - 1) * Math.sqrt(1 / 3 / P);
    expect(hw(out.people!)).toBeLessThanOrEqual(0.2);
    expect(hw(out.people! - 1)).toBeGreaterThan(0.2);
    expect(out.k).toBe(out.people);
    expect(out.halfwidth).toBeCloseTo(hw(out.people!), 6);
  });

  it("--k gives the half-width of that design, places = items x k, people = places / m", () => {
    const out = JSON.parse(runPlanCommand(planItems, pilot, { halfwidth: 0.2, k: 10, itemsPerPerson: 3 })) as PlanOutput;
    // places 6 x 10 = 60, people 60 / 3 = 20; V = (1/3) / 20
    expect(out.k).toBe(10);
    expect(out.halfwidth).toBeCloseTo(tCritical(5) * Math.sqrt(1 / 3 / 20), 6);
  });

  it("--detect: the people for power 0.8 and the design's power", () => {
    const out = JSON.parse(runPlanCommand(planItems, pilot, { halfwidth: 0.2, detect: 0.4, modelScore: 0.5 })) as PlanOutput;
    expect(out.power).toMatchObject({ difference: 0.4, modelScore: 0.5 });
    // with 6 items and a 0/1 model at 0.5, the item term alone is 0.25 / 6: se >= 0.204, 0.4 is not detectable at 0.8
    expect(out.power!.people).toBeNull();
    expect(out.power!.reason).toMatch(/more items can/);
  });

  it("refuses a pilot of one person", () => {
    expect(() =>
      runPlanCommand(planItems, jsonl({ id: "q1", annotator: "p1", answer: "A" }, { id: "q2", annotator: "p1", answer: "B" }), { halfwidth: 0.1 }),
    ).toThrow(/1 person and 2 items/);
  });
});
