import { describe, expect, it } from "vitest";
import { aggregateEnact, type EnactScore } from "@/lib/tasks/shared/enact/common";
import { enactOverall, enactSectionOf } from "@/lib/tasks/shared/enact/dashboard";
import { twoWayMeanInterval, twoWayProportionInterval } from "@/lib/stats/two-way-cluster-variance";
import type { StudySnapshot } from "@/lib/dashboard/types";

/**
 * ENACT's overall TA / PA: the dashboard has each task's figures (forward, inverse) and
 * now both pooled, with intervals from the shared two-way engine (people and items crossed).
 */

const score = (correctPairs: number, L: number): EnactScore => ({
  accepted: correctPairs === L,
  exact: correctPairs === L,
  correctPairs,
  L,
  semanticAvailable: false,
});

// two people, two forward items (L = 3) and two inverse items (L = 2)
const answers = [
  { kind: "enact-forward", item: "f1", person: "p1", score: score(3, 3) },
  { kind: "enact-forward", item: "f2", person: "p1", score: score(1, 3) },
  { kind: "enact-inverse", item: "i1", person: "p1", score: score(2, 2) },
  { kind: "enact-inverse", item: "i2", person: "p1", score: score(0, 2) },
  { kind: "enact-forward", item: "f1", person: "p2", score: score(2, 3) },
  { kind: "enact-forward", item: "f2", person: "p2", score: score(3, 3) },
  { kind: "enact-inverse", item: "i1", person: "p2", score: score(2, 2) },
  { kind: "enact-inverse", item: "i2", person: "p2", score: score(1, 2) },
];

function snapshotOf(rows: Array<{ kind: string; item: string; person: string; score: EnactScore; plan?: boolean; condition?: string }>): StudySnapshot {
  const conditions = [...new Set(rows.flatMap((r) => (r.condition ? [r.condition] : [])))];
  const itemIds = [...new Set(rows.map((r) => r.item))];
  const people = [...new Set(rows.map((r) => r.person))];
  const n = rows.length;
  return {
    studyId: "s",
    version: "v1",
    loadedAt: 0,
    items: {
      keys: [],
      ids: itemIds,
      externalIds: itemIds,
      kinds: itemIds.map((id) => rows.find((r) => r.item === id)!.kind),
      tags: itemIds.map(() => ({})),
      index: new Map(itemIds.map((id, i) => [id, i])),
    },
    annotators: people.map((id) => ({ id, name: `Person ${id}` })),
    conditions,
    responses: {
      count: n,
      item: Int32Array.from(rows, (r) => itemIds.indexOf(r.item)),
      annotator: Int32Array.from(rows, (r) => people.indexOf(r.person)),
      agreement: Uint8Array.from(rows, (r) => (r.plan ? 1 : 0)),
      condition: Int32Array.from(rows, (r) => (r.condition ? conditions.indexOf(r.condition) : -1)),
      correct: Uint8Array.from(rows, (r) => (r.score.accepted ? 1 : 0)),
      confidence: new Float64Array(n),
      wallMs: new Float64Array(n),
      activeMs: new Float64Array(n),
      createdAt: new Float64Array(n),
      score: rows.map((r) => r.score),
      answer: rows.map(() => ({ order: [] })),
    },
  };
}

describe("ENACT overall: both tasks pooled", () => {
  it("pools the answers of both tasks: TA 4/8, PA 14/20 (steps pooled), PA per item the mean of the answers' shares", () => {
    const overall = enactOverall(answers, "people+items");
    expect(overall.answers).toBe(8);
    expect(overall.byKind).toEqual({ "enact-forward": 4, "enact-inverse": 4 });
    expect(overall.TA.value).toBe(0.5);
    expect(overall.PA.value).toBeCloseTo(0.7, 12);
    expect(overall.PA_item.value).toBeCloseTo(5.5 / 8, 12);
    // the same values as the kinds' own aggregate over the pooled scores
    const aggregate = aggregateEnact(answers.map((a) => a.score));
    expect(overall.TA.value).toBe(aggregate.TA);
    expect(overall.PA.value).toBeCloseTo(aggregate.PA!, 12);
    expect(overall.PA_item.value).toBeCloseTo(aggregate.PA_item!, 12);
  });

  it("takes its intervals from the two-way engine: Wilson at the effective n for TA, t for PA (within the answers' own range)", () => {
    const overall = enactOverall(answers, "people+items");
    const ta = twoWayProportionInterval(
      answers.map((a) => ({ item: a.item, person: a.person, num: a.score.accepted ? 1 : 0 })),
      "people+items",
    );
    expect(overall.TA).toMatchObject({ interval: "wilson", ci: ta.ci, items: 4, people: 2, effectiveN: ta.effectiveN });
    const pa = twoWayMeanInterval(
      answers.map((a) => ({ item: a.item, person: a.person, num: a.score.correctPairs, den: a.score.L })),
      "people+items",
    );
    expect(overall.PA.interval).toBe("two-way");
    expect(overall.PA.ci![0]).toBeCloseTo(Math.max(0, pa.ci![0]), 12);
    expect(overall.PA.ci![1]).toBeCloseTo(Math.min(1, pa.ci![1]), 12);
    // over items alone (these people the population): the one-way form, never wider here
    const itemsOnly = enactOverall(answers, "items");
    const ta1 = twoWayProportionInterval(
      answers.map((a) => ({ item: a.item, person: a.person, num: a.score.accepted ? 1 : 0 })),
      "items",
    );
    expect(itemsOnly.TA.ci).toEqual(ta1.ci);
  });

  it("says why a figure has no interval: one item, one person", () => {
    const one = enactOverall([answers[0], answers[4]], "people+items");
    expect(one.TA).toMatchObject({ ci: null, reason: "one item" });
    const person = enactOverall(answers.slice(0, 4), "people+items");
    expect(person.TA).toMatchObject({ ci: null, reason: "one person" });
    expect(enactOverall(answers.slice(0, 4), "items").TA.ci).not.toBeNull();
  });

  it("is a section only where the study has both tasks; people pooled or one of them, plan answers as the table takes them, each model run over items", () => {
    const plan = { kind: "enact-forward", item: "f1", person: "p1", score: score(0, 3), plan: true };
    const snapshot = snapshotOf([...answers, plan]);
    const predictions = [
      { runId: "m1", itemId: "f1", answer: null, score: score(3, 3), correct: true },
      { runId: "m1", itemId: "i1", answer: null, score: score(0, 2), correct: false },
      { runId: "m1", itemId: "nowhere", answer: null, score: score(0, 2), correct: false },
    ];
    const models = [
      { id: "m1", name: "Model one" },
      { id: "m2", name: "No predictions" },
    ];
    const section = enactSectionOf({ snapshot, annotatorId: null, includePlanAnswers: false, over: "people+items", models, predictions })!;
    expect(section.kinds).toEqual(["enact-forward", "enact-inverse"]);
    expect(section.rows.map((r) => [r.series, r.label, r.answers])).toEqual([
      ["humans", "Humans (pooled)", 8],
      ["m1", "Model one", 2],
    ]);
    expect(section.rows[0].TA.value).toBe(0.5);
    // a model run is one fixed judge: its interval is over items, though it is one "person"
    expect(section.rows[1].TA).toMatchObject({ value: 0.5, items: 2, people: 1 });
    expect(section.rows[1].TA.ci).not.toBeNull();
    expect(enactSectionOf({ snapshot, annotatorId: null, includePlanAnswers: true, over: "people+items", models: [], predictions: [] })!.rows[0].answers).toBe(
      9,
    );
    const one = enactSectionOf({ snapshot, annotatorId: "p2", includePlanAnswers: false, over: "people+items", models: [], predictions: [] })!;
    expect(one.rows[0]).toMatchObject({ label: "Person p2", answers: 4, TA: { value: 0.5 } });
    expect(one.rows[0].PA.value).toBeCloseTo(0.8, 12);
    // conditions are rows apart, never pooled
    const split = enactSectionOf({
      snapshot: snapshotOf(answers.map((a, i) => ({ ...a, condition: i % 2 === 0 ? "b" : "a" }))),
      annotatorId: null,
      includePlanAnswers: false,
      over: "people+items",
      models: [],
      predictions: [],
    })!;
    expect(split.rows.map((r) => [r.condition, r.answers])).toEqual([
      ["a", 4],
      ["b", 4],
    ]);
    // one task only: the table's All column already is the overall
    expect(
      enactSectionOf({
        snapshot: snapshotOf(answers.filter((a) => a.kind === "enact-forward")),
        annotatorId: null,
        includePlanAnswers: false,
        over: "people+items",
        models: [],
        predictions: [],
      }),
    ).toBeNull();
  });
});
