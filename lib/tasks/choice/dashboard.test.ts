import { describe, expect, it } from "vitest";
import {
  PEOPLE_DIFFER_BEFORE,
  PEOPLE_DIFFER_ITEMS_ONLY,
  PEOPLE_DIFFER_TWO_WAY,
  peopleDifferAnswers,
  peopleDifferRight,
} from "@/lib/stats/__fixtures__/people-differ";
import { clusteredWilsonInterval, wilsonBounds } from "@/lib/stats/clustered-wilson-interval";
import { tCritical } from "@/lib/stats/student-t";
import { benchmarkTotalOf, choiceFigure, choiceSeries, typeTagOf, type ChoiceRow } from "@/lib/tasks/choice/dashboard";

const row = (itemId: string, type: string, right: boolean): ChoiceRow => ({ itemId, type, score: { correct: right, score: right ? 1 : 0, options: 4 } });

describe("choice section", () => {
  it("breaks BLINK's items down by sub_task", () => {
    expect(
      typeTagOf([
        { source: "blink", sub_task: "Counting" },
        { source: "blink", sub_task: "Jigsaw" },
      ]),
    ).toBe("sub_task");
    expect(typeTagOf([{ question_type: "route_planning" }])).toBe("question_type");
  });

  it("gives BLINK's Total as the mean over sub-tasks (eval/evaluate.py), beside the pooled accuracy", () => {
    // Counting 3 of 4, Jigsaw 0 of 1: pooled 3/5 = 0.6; BLINK's Total (0.75 + 0) / 2 = 0.375
    const rows = [
      row("c1", "Counting", true),
      row("c2", "Counting", true),
      row("c3", "Counting", true),
      row("c4", "Counting", false),
      row("j1", "Jigsaw", false),
    ];
    const series = choiceSeries("Model", rows, ["Counting", "Jigsaw"]);
    expect(series.pooled.accuracy).toBeCloseTo(0.6, 12);
    expect(series.meanOverTypes).toBeCloseTo(0.375, 12);
    expect(
      benchmarkTotalOf(
        [
          { source: "blink", sub_task: "Counting" },
          { source: "blink", sub_task: "Jigsaw" },
        ],
        "sub_task",
      ),
    ).toMatchObject({ benchmark: "BLINK" });
    // not BLINK's items (or not all of them): no benchmark total named
    expect(benchmarkTotalOf([{ source: "blink", sub_task: "Counting" }, { source: "egoschema" }], "sub_task")).toBeNull();
  });

  it("hand-worked: people differ wholly, items not at all: the interval over people and items, not the design-effect one over items", () => {
    const rows: ChoiceRow[] = peopleDifferAnswers().map(({ item, person }) => ({ ...row(`i${item}`, "t", peopleDifferRight(person)), person }));
    const figure = choiceFigure(rows);
    expect(figure).toMatchObject({ accuracy: 0.5, items: 10, people: 4 });
    expect(figure.ci![0]).toBeCloseTo(PEOPLE_DIFFER_TWO_WAY[0], 5);
    expect(figure.ci![1]).toBeCloseTo(PEOPLE_DIFFER_TWO_WAY[1], 5);
    expect(figure.ci![1] - figure.ci![0]).toBeGreaterThan(PEOPLE_DIFFER_BEFORE[1] - PEOPLE_DIFFER_BEFORE[0]);
    expect(choiceFigure(rows, "items").ci![1]).toBeCloseTo(PEOPLE_DIFFER_ITEMS_ONLY[1], 5);
    // one person's answers: no spread over people, said in words
    expect(choiceFigure(rows.filter((r) => r.person === "p"))).toMatchObject({ ci: null, reason: "one person" });
  });

  it("items only (and a model run, one fixed judge) reproduces the item-only Wilson, up to G/(G-1) and t(G-1)", () => {
    const right = [3, 1, 2, 0, 3, 2, 1, 3];
    const rows: ChoiceRow[] = right.flatMap((k, i) => [0, 1, 2].map((j) => ({ ...row(`i${i}`, "t", j < k), person: `m${j}` })));
    const old = clusteredWilsonInterval(right.map((k) => ({ successes: k, trials: 3 })));
    const want = wilsonBounds(old.estimate, (old.effectiveN! * 7) / 8, tCritical(7));
    const got = choiceFigure(rows, "items").ci!;
    expect(got[0]).toBeCloseTo(want[0], 10);
    expect(got[1]).toBeCloseTo(want[1], 10);
  });
});
