import { describe, expect, it } from "vitest";
import { benchmarkTotalOf, choiceSeries, typeTagOf, type ChoiceRow } from "@/lib/tasks/choice/dashboard";

const row = (itemId: string, type: string, right: boolean): ChoiceRow => ({ itemId, type, score: { correct: right, score: right ? 1 : 0, options: 4 } });

describe("choice section", () => {
  it("breaks BLINK's items down by sub_task", () => {
    expect(typeTagOf([{ source: "blink", sub_task: "Counting" }, { source: "blink", sub_task: "Jigsaw" }])).toBe("sub_task");
    expect(typeTagOf([{ question_type: "route_planning" }])).toBe("question_type");
  });

  it("gives BLINK's Total as the mean over sub-tasks (eval/evaluate.py), beside the pooled accuracy", () => {
    // Counting 3 of 4, Jigsaw 0 of 1: pooled 3/5 = 0.6; BLINK's Total (0.75 + 0) / 2 = 0.375
    const rows = [row("c1", "Counting", true), row("c2", "Counting", true), row("c3", "Counting", true), row("c4", "Counting", false), row("j1", "Jigsaw", false)];
    const series = choiceSeries("Model", rows, ["Counting", "Jigsaw"]);
    expect(series.pooled.accuracy).toBeCloseTo(0.6, 12);
    expect(series.meanOverTypes).toBeCloseTo(0.375, 12);
    expect(benchmarkTotalOf([{ source: "blink", sub_task: "Counting" }, { source: "blink", sub_task: "Jigsaw" }], "sub_task")).toMatchObject({ benchmark: "BLINK" });
    // not BLINK's items (or not all of them): no benchmark total named
    expect(benchmarkTotalOf([{ source: "blink", sub_task: "Counting" }, { source: "egoschema" }], "sub_task")).toBeNull();
  });
});
