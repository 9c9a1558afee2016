import { describe, expect, it } from "vitest";
import { aggregateScoredAnswers, getTaskModule } from "@/lib/tasks";
import {
  gridwmJudgeModule,
  isNeutralProbe,
  parseJudgeModelAnswer,
  summarizeJudgeAnswers,
  type GridwmJudgeAnswer,
  type GridwmJudgeScore,
} from "@/lib/tasks/gridwm-judge";
import type { ScoredAnswer } from "@/lib/tasks/types";

type Tags = Record<string, string | number | boolean>;
type Row = ScoredAnswer<GridwmJudgeAnswer, GridwmJudgeScore>;

/** One answer: `verdict` to an item whose gold is `gold`, with `tags`, by `annotator`. */
function row(tags: Tags, verdict: "Success" | "Fail", options: { gold?: "Success" | "Fail"; annotator?: string | null } = {}): Row {
  const gold = options.gold ?? "Success";
  return {
    itemId: JSON.stringify(tags),
    tags,
    answer: { verdict },
    score: { correct: verdict === gold },
    annotator: options.annotator === undefined ? "ann-1" : options.annotator,
  };
}

const base = { env: "doorkey", group: "g1", variant: "full" };
const metrics = (rows: Row[]) => gridwmJudgeModule.aggregateAnswers!(rows);

describe("Task C: JAcc_neu and the neutral slice", () => {
  it("counts only full / orig / clean / neutral answers, with absent tags as their neutral values", () => {
    expect(isNeutralProbe({})).toBe(true);
    expect(isNeutralProbe({ variant: "full", temporal: "orig", visual: "clean", framing: "neutral" })).toBe(true);
    expect(isNeutralProbe({ visual: "noisy" })).toBe(false);
    expect(isNeutralProbe({ variant: "cf" })).toBe(false);
    const rows = [
      row({ group: "g1" }, "Success"), // neutral by absence: right
      row({ ...base, temporal: "orig" }, "Fail"), // neutral: wrong
      row({ ...base, temporal: "rev" }, "Success"), // not neutral
      row({ ...base, framing: "positive" }, "Success"), // not neutral
    ];
    const result = metrics(rows);
    expect(result.JAcc_neu).toBe(0.5);
    expect(result.Acc_C).toBe(0.75);
  });
});

describe("Task C: probe families and JCR", () => {
  it("is null when no family is complete", () => {
    expect(metrics([row({ ...base, temporal: "orig" }, "Success")])).toMatchObject({ JCR_temp: null, JCR_vis: null, JCR_frame: null });
    expect(metrics([])).toEqual({ Acc_C: null, JAcc_neu: null, JCR_temp: null, JCR_vis: null, JCR_frame: null });
  });

  it("needs every value of the dimension: orig and rev; clean, noisy and style; three framings", () => {
    const temporal = [row({ ...base, temporal: "orig" }, "Success"), row({ ...base, temporal: "rev" }, "Fail")];
    expect(summarizeJudgeAnswers(temporal).families.temporal).toEqual({ complete: 1, consistent: 0 });
    const twoVisuals = [row({ ...base, visual: "clean" }, "Success"), row({ ...base, visual: "noisy" }, "Success")];
    expect(summarizeJudgeAnswers(twoVisuals).families.visual).toEqual({ complete: 0, consistent: 0 });
    const threeVisuals = [...twoVisuals, row({ ...base, visual: "style" }, "Success")];
    expect(summarizeJudgeAnswers(threeVisuals).families.visual).toEqual({ complete: 1, consistent: 1 });
    expect(metrics(threeVisuals).JCR_vis).toBe(1);
    const framings = [
      row({ ...base, framing: "neutral" }, "Fail"),
      row({ ...base, framing: "positive" }, "Fail"),
      row({ ...base, framing: "negative" }, "Success"),
    ];
    expect(metrics(framings).JCR_frame).toBe(0);
  });

  it("counts an absent tag as the neutral value when forming families", () => {
    // no temporal tag = orig, no framing tag = neutral
    const rows = [
      row({ ...base }, "Success"),
      row({ ...base, temporal: "rev" }, "Success"),
      row({ ...base, framing: "positive" }, "Success"),
      row({ ...base, framing: "negative" }, "Success"),
    ];
    const summary = summarizeJudgeAnswers(rows);
    expect(summary.families.temporal).toEqual({ complete: 1, consistent: 1 });
    expect(summary.families.framing).toEqual({ complete: 1, consistent: 1 });
  });

  it("uses only visual clean families for JCR_temp", () => {
    const noisy = [row({ ...base, temporal: "orig", visual: "noisy" }, "Success"), row({ ...base, temporal: "rev", visual: "noisy" }, "Fail")];
    expect(metrics(noisy).JCR_temp).toBeNull();
    const clean = [row({ ...base, temporal: "orig", visual: "clean" }, "Success"), row({ ...base, temporal: "rev", visual: "clean" }, "Success")];
    expect(metrics([...noisy, ...clean]).JCR_temp).toBe(1);
  });

  it("keeps families apart by variant and by the other probe dimensions", () => {
    // orig and rev of different variants are not one family
    const rows = [row({ ...base, temporal: "orig" }, "Success"), row({ ...base, variant: "cf", temporal: "rev" }, "Fail", { gold: "Fail" })];
    expect(summarizeJudgeAnswers(rows).families.temporal.complete).toBe(0);
    // nor orig / rev with different framings
    const framed = [row({ ...base, temporal: "orig", framing: "positive" }, "Success"), row({ ...base, temporal: "rev" }, "Success")];
    expect(summarizeJudgeAnswers(framed).families.temporal.complete).toBe(0);
  });

  it("forms families per annotator: two people answering half each make no family", () => {
    const split = [row({ ...base, temporal: "orig" }, "Success", { annotator: "ann-1" }), row({ ...base, temporal: "rev" }, "Success", { annotator: "ann-2" })];
    expect(metrics(split).JCR_temp).toBeNull();
    const both = [
      ...split,
      row({ ...base, temporal: "rev" }, "Fail", { annotator: "ann-1" }),
      row({ ...base, temporal: "orig" }, "Success", { annotator: "ann-2" }),
    ];
    // ann-1 flips, ann-2 does not: pooled JCR over the two complete families = 1/2
    expect(summarizeJudgeAnswers(both).families.temporal).toEqual({ complete: 2, consistent: 1 });
    // rows without an annotator are one anonymous judge
    const anonymous = [row({ ...base, temporal: "orig" }, "Success", { annotator: null }), row({ ...base, temporal: "rev" }, "Success", { annotator: null })];
    expect(metrics(anonymous).JCR_temp).toBe(1);
  });

  it("keeps base cases apart by group and environment, and leaves answers without a group out of families", () => {
    const twoEnvs = [row({ ...base, temporal: "orig" }, "Success"), row({ ...base, env: "memory", temporal: "rev" }, "Success")];
    expect(summarizeJudgeAnswers(twoEnvs).families.temporal.complete).toBe(0);
    const twoGroups = [row({ ...base, temporal: "orig" }, "Success"), row({ ...base, group: "g2", temporal: "rev" }, "Success")];
    expect(summarizeJudgeAnswers(twoGroups).families.temporal.complete).toBe(0);
    const noGroup = [row({ temporal: "orig" }, "Success"), row({ temporal: "rev" }, "Success")];
    expect(summarizeJudgeAnswers(noGroup).families.temporal.complete).toBe(0);
  });

  it("ignores values outside a dimension's own (a visual 'blur' item joins no visual family)", () => {
    const rows = [row({ ...base, visual: "clean" }, "Success"), row({ ...base, visual: "noisy" }, "Success"), row({ ...base, visual: "blur" }, "Fail")];
    expect(summarizeJudgeAnswers(rows).families.visual).toEqual({ complete: 0, consistent: 0 });
  });

  it("judges consistency on verdicts, not on correctness", () => {
    // both wrong but different verdicts cannot happen with one gold; equal verdicts on a cf family are consistent
    const cf = { ...base, variant: "cf" };
    const rows = [row({ ...cf, temporal: "orig" }, "Success", { gold: "Fail" }), row({ ...cf, temporal: "rev" }, "Success", { gold: "Fail" })];
    expect(metrics(rows)).toMatchObject({ Acc_C: 0, JCR_temp: 1 });
  });

  it("gives Acc_C from scores alone and the context metrics through aggregateScoredAnswers", () => {
    expect(gridwmJudgeModule.aggregate([{ correct: true }, { correct: false }])).toEqual({
      Acc_C: 0.5,
      JAcc_neu: null,
      JCR_temp: null,
      JCR_vis: null,
      JCR_frame: null,
    });
    const rows = [row({ ...base, temporal: "orig" }, "Success"), row({ ...base, temporal: "rev" }, "Success")];
    expect(aggregateScoredAnswers(getTaskModule("gridwm-judge"), rows)).toEqual({ Acc_C: 1, JAcc_neu: 1, JCR_temp: 1, JCR_vis: null, JCR_frame: null });
    // kinds without aggregateAnswers fall back to aggregate(scores)
    expect(aggregateScoredAnswers(getTaskModule("gridwm-next-obs"), [{ itemId: "x", tags: {}, answer: { choice: "A" }, score: { correct: true } }])).toEqual({
      Acc_A: 1,
    });
  });
});

describe("Task C model answers (parse_task_c_answer)", () => {
  it.each([
    ["Success", "Success", "strict"],
    [" fail\n", "Fail", "strict"],
    ["FAIL", "Fail", "strict"],
    ["The agent failed to reach the goal.", "Fail", "recoverable"],
    ["Successfully completed", "Success", "recoverable"],
    ["Result: Failure", "Fail", "recoverable"],
    // as the authors' regex: the first standalone word decides, negations are not read
    ["not successful", "Success", "recoverable"],
    ["Fail? No: success.", "Fail", "recoverable"],
  ])("%j -> %s (%s)", (text, verdict, mode) => {
    expect(parseJudgeModelAnswer(text)).toEqual({ answer: { verdict }, mode });
  });

  it.each(["unsuccessful", "failing", "", "the agent won", "successes"])("%j fails", (text) => {
    expect(parseJudgeModelAnswer(text)).toMatchObject({ answer: null, mode: "fail" });
  });

  it("takes Yardstick answers as strict", () => {
    expect(parseJudgeModelAnswer({ verdict: "Fail" })).toEqual({ answer: { verdict: "Fail" }, mode: "strict" });
    expect(parseJudgeModelAnswer({ verdict: "fail" }).mode).toBe("fail");
  });
});

describe("gridwm-judge module", () => {
  const item = {
    id: "c1",
    kind: "gridwm-judge",
    public: {
      storyboard: "img/s.png",
      mission: "get to the goal",
      actions: ["forward", "left"] as Array<"forward" | "left">,
      preamble: "This agent is usually reliable.",
    },
    key: { answer: "Fail" as const, modelPrompt: "Evaluate agent success based on storyboard." },
    tags: { group: "g1", variant: "cf", temporal: "rev" },
  };

  it("shows the storyboard, mission, actions and preamble, never the verdict", () => {
    const view = gridwmJudgeModule.publicView(item);
    expect(view).toEqual({ storyboard: "img/s.png", mission: "get to the goal", actions: ["forward", "left"], preamble: "This agent is usually reliable." });
    expect(JSON.stringify(view)).not.toMatch(/Fail|Evaluate/);
  });

  it("accepts the exam form without mission or actions", () => {
    expect(gridwmJudgeModule.publicSchema.safeParse({ storyboard: "images/taskC/x.png" }).success).toBe(true);
    expect(gridwmJudgeModule.publicSchema.safeParse({ storyboard: "x.png", preamble: "" }).success).toBe(false);
    expect(gridwmJudgeModule.keySchema.safeParse({ answer: "fail" }).success).toBe(false);
  });

  it("shows reviewers the verdict and the item's probe values (absent ones as neutral)", () => {
    expect(gridwmJudgeModule.reviewView(item)).toEqual({
      answer: "Fail",
      storyboard: "img/s.png",
      probe: { variant: "cf", temporal: "rev", visual: "clean", framing: "neutral" },
      modelPrompt: "Evaluate agent success based on storyboard.",
    });
  });

  it("codes agreement as nominal on the verdict", () => {
    expect(gridwmJudgeModule.agreementEncodings[0].units({ verdict: "Success" })).toEqual([{ unit: "", value: "Success" }]);
  });
});
