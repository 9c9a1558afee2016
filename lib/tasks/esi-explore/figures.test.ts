import { describe, expect, it } from "vitest";
import {
  PEOPLE_DIFFER_BEFORE,
  PEOPLE_DIFFER_ITEMS_ONLY,
  PEOPLE_DIFFER_TWO_WAY,
  peopleDifferAnswers,
  peopleDifferRight,
} from "@/lib/stats/__fixtures__/people-differ";
import { wilsonBounds } from "@/lib/stats/clustered-wilson-interval";
import { tCritical } from "@/lib/stats/student-t";
import { esiSection, modelName, type HumanAnswer, type ModelAnswer } from "@/lib/tasks/esi-explore/figures";
import { summariseStepLabels } from "@/lib/tasks/esi-explore/step-labels";
import type { Trajectory } from "@/lib/tasks/esi-explore/metrics";

const human = (annotatorId: string, condition: string, subcategory: string, correct: boolean, confidence = 0.7): HumanAnswer => ({
  annotatorId,
  condition,
  category: "C1",
  subcategory,
  correct,
  confidence,
  trajectory: null,
});
const model = (condition: string, subcategory: string, correct: boolean, steps: number | null = null): ModelAnswer => ({
  runId: "model:GPT",
  runName: "GPT",
  condition,
  category: "C1",
  subcategory,
  correct,
  steps,
});

describe("ESI dashboard figures", () => {
  const labels = summariseStepLabels([]);
  const section = esiSection({
    humans: [
      human("a", "active", "s1", true),
      human("a", "passive-single", "s2", false),
      human("b", "active", "s1", false),
      human("b", "passive-single", "s2", true),
      human("b", "active", "s2", true),
    ],
    models: [model("active", "s1", true, 12), model("active", "s2", false, 8), model("passive-gt", "s1", true)],
    annotators: [
      { id: "a", name: "A1" },
      { id: "b", name: "A2" },
    ],
    annotatorId: null,
    calibrationBins: 10,
    stepLabels: labels,
  });

  it("orders conditions the paper's way and puts people beside each model", () => {
    expect(section.conditions).toEqual(["passive-single", "active", "passive-gt"]);
    expect(section.groups).toEqual([
      { id: "humans", name: "Humans (pooled)", kind: "humans" },
      { id: "model:GPT", name: "GPT", kind: "model" },
    ]);
  });

  it("gives subcategory rows, a category total, the mean over subcategories and all answers", () => {
    expect(section.table.map((row) => row.subcategory)).toEqual(["s1", "s2", null]);
    expect(section.table[0].cells.humans.active).toMatchObject({ successes: 1, trials: 2, value: 0.5 });
    expect(section.table[1].cells.humans.active).toMatchObject({ successes: 1, trials: 1 });
    expect(section.table[2].cells.humans.active).toMatchObject({ successes: 2, trials: 3 });
    // mean over subcategories: (0.5 + 1) / 2, not the pooled 2/3
    expect(section.subcategoryMean.humans.active).toBeCloseTo(0.75, 10);
    expect(section.overall.humans.active.value).toBeCloseTo(2 / 3, 10);
    expect(section.subcategoryMean["model:GPT"]).toEqual({ "passive-single": null, active: 0.5, "passive-gt": 1 });
    expect(section.modelSteps["model:GPT"]).toEqual({ "passive-single": null, active: 10, "passive-gt": null });
    // Fig. 5: steps to reach a correct answer (the right answer took 12, the wrong one 8)
    expect(section.modelStepsCorrect["model:GPT"]).toEqual({ "passive-single": null, active: 12, "passive-gt": null });
  });

  it("lists every person by condition, and narrows the people's column to one person on request", () => {
    expect(section.perPerson.map((p) => [p.name, p.byCondition.active.accuracy.trials, p.byCondition["passive-single"].accuracy.trials])).toEqual([
      ["A1", 1, 1],
      ["A2", 2, 1],
    ]);
    const one = esiSection({
      humans: [human("a", "active", "s1", true), human("b", "active", "s1", false)],
      models: [],
      annotators: [
        { id: "a", name: "A1" },
        { id: "b", name: "A2" },
      ],
      annotatorId: "b",
      calibrationBins: 10,
      stepLabels: labels,
    });
    expect(one.groups[0].name).toBe("A2");
    expect(one.overall.humans.active).toMatchObject({ successes: 0, trials: 1 });
    expect(one.perPerson).toHaveLength(2);
  });

  it("calibrates final confidence per condition", () => {
    expect(section.calibration.active.final).toMatchObject({ n: 3, right: 2, wrong: 1 });
    expect(section.calibration.active.intermediate).toBeNull();
  });

  it("accuracy intervals cluster by question: 10 questions x 5 agreeing people are 9 questions' worth (items only: (G-1)/G x 10), one question none", () => {
    const humans: HumanAnswer[] = [];
    for (let i = 0; i < 10; i++) for (const who of ["a", "b", "c", "d", "e"]) humans.push({ ...human(who, "active", "s1", i < 5), itemId: `q${i}` });
    humans.push({ ...human("a", "passive-single", "s2", true), itemId: "q10" }, { ...human("b", "passive-single", "s2", false), itemId: "q10" });
    const clustered = esiSection({ humans, models: [], annotators: [], annotatorId: null, calibrationBins: 10, stepLabels: labels, over: "items" });
    const active = clustered.overall.humans.active;
    expect(active).toMatchObject({ successes: 25, trials: 50, items: 10 });
    // the design-effect Wilson of before had n 10 at z 1.96 ([0.2366, 0.7634]); items only keeps it up to G/(G-1) and t(9)
    const want = wilsonBounds(0.5, 9, tCritical(9));
    expect(active.ci![0]).toBeCloseTo(want[0], 9);
    expect(active.ci![1]).toBeCloseTo(want[1], 9);
    expect(clustered.overall.humans["passive-single"]).toMatchObject({ value: 0.5, ci: null, reason: "one item" });
  });

  it("hand-worked: people differ wholly, questions not at all: the interval over people and questions; a person's own none; a model run over its questions", () => {
    const humans: HumanAnswer[] = peopleDifferAnswers().map(({ item, person }) => ({
      ...human(person, "active", "s1", peopleDifferRight(person)),
      itemId: `q${item}`,
    }));
    const models: ModelAnswer[] = peopleDifferAnswers()
      .filter((a) => a.person === "p")
      .map(({ item }) => ({ ...model("active", "s1", item % 2 === 0), itemId: `q${item}` }));
    const both = esiSection({
      humans,
      models,
      annotators: ["p", "q", "r", "s"].map((id) => ({ id, name: id })),
      annotatorId: null,
      calibrationBins: 10,
      stepLabels: labels,
    });
    const active = both.overall.humans.active;
    expect(active).toMatchObject({ value: 0.5, items: 10, people: 4 });
    expect(active.ci![0]).toBeCloseTo(PEOPLE_DIFFER_TWO_WAY[0], 5);
    expect(active.ci![1]).toBeCloseTo(PEOPLE_DIFFER_TWO_WAY[1], 5);
    expect(active.ci![0]).toBeLessThan(PEOPLE_DIFFER_BEFORE[0]);
    expect(both.method).toMatch(/people and items/);
    expect(both.perPerson[0].byCondition.active.accuracy).toMatchObject({ value: 1, ci: null, reason: "one person" });
    expect(both.overall["model:GPT"].active.ci).not.toBeNull();
    const itemsOnly = esiSection({ humans, models: [], annotators: [], annotatorId: null, calibrationBins: 10, stepLabels: labels, over: "items" }).overall
      .humans.active;
    expect(itemsOnly.ci![0]).toBeCloseTo(PEOPLE_DIFFER_ITEMS_ONLY[0], 5);
  });

  it("takes the mean over the same subcategories for every group, and flags a group that lacks some", () => {
    // the table has s1 and s2; GPT answered only s1 in passive-gt, the people only s2 in passive-single
    expect(section.subcategoryCoverage["model:GPT"]["passive-gt"]).toEqual({ covered: 1, of: 2, missing: ["C1 / s2"] });
    expect(section.subcategoryCoverage["model:GPT"].active).toEqual({ covered: 2, of: 2, missing: [] });
    expect(section.subcategoryCoverage.humans["passive-single"]).toEqual({ covered: 1, of: 2, missing: ["C1 / s1"] });
    expect(section.subcategoryCoverage.humans.active).toEqual({ covered: 2, of: 2, missing: [] });
    expect(section.subcategoryCoverage.humans["passive-gt"]).toEqual({ covered: 0, of: 2, missing: ["C1 / s1", "C1 / s2"] });
  });

  it("names the ECE bins of the calibration figures", () => {
    expect(section.calibrationBins).toBe(10);
  });

  it("measures a model agent's active trajectories as people's (Table 11 for models too)", () => {
    const trajectory = (moves: number, revises: boolean): Trajectory => ({
      steps: Array.from({ length: moves }, (_, i) => ({ seq: i + 1, valid: true })),
      trace: [
        { seq: 0, valid: true, viewpoint: "p0", contrastive: false, state: "s0" },
        ...Array.from({ length: moves }, (_, i) => ({ seq: i + 1, valid: true, viewpoint: `p${i + 1}`, contrastive: false, state: `s${i + 1}` })),
      ],
      beliefs: revises ? [{ step: 0, choice: "3", confidence: 0.5, correct: false }] : [],
      final: { choice: "5", confidence: 0.9, correct: true },
    });
    const agentRow = (moves: number, revises: boolean): ModelAnswer => ({
      ...model("active", "s1", true, moves),
      runId: "agent:u1",
      runName: "Agent A",
      trajectory: trajectory(moves, revises),
    });
    const withAgent = esiSection({
      humans: [],
      models: [agentRow(2, true), agentRow(0, false), model("active", "s1", true)],
      annotators: [],
      annotatorId: null,
      calibrationBins: 10,
      stepLabels: labels,
    });
    const agent = withAgent.modelTrajectories["agent:u1"].active;
    expect(agent).toMatchObject({ trajectories: 2, stepsMean: 1 });
    expect(agent.viewDiversity).toMatchObject({ successes: 1, trials: 2 });
    expect(agent.beliefRevision).toMatchObject({ successes: 1, trials: 2 });
    // an imported run reports no trajectories
    expect(withAgent.modelTrajectories["model:GPT"]).toEqual({});
  });

  it("names a model without the condition its run names", () => {
    expect(modelName("GPT-5 [active]")).toBe("GPT-5");
    expect(modelName("Gemini 3.1 (passive-gt)")).toBe("Gemini 3.1");
    expect(modelName("GPT-5 passive-single")).toBe("GPT-5");
    expect(modelName("interactive agent")).toBe("interactive agent");
    expect(modelName("active")).toBe("active");
  });

  it("counts step labels and computes alpha only where two labellers labelled a step", () => {
    expect(labels).toMatchObject({ alpha: null, units: 0, reason: "no step has labels from two labellers yet" });
    const agreed = summariseStepLabels([
      { unit: "a#1", labeller: "r1", label: "contrastive" },
      { unit: "a#1", labeller: "r2", label: "contrastive" },
      { unit: "a#2", labeller: "r1", label: "redundant" },
      { unit: "a#2", labeller: "r2", label: "redundant" },
    ]);
    expect(agreed).toMatchObject({ alpha: 1, units: 2, labellers: 2, counts: { redundant: 2, confirmatory: 0, contrastive: 2 } });
  });
});
