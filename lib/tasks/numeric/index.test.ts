import { describe, expect, it } from "vitest";
import { aggregateNumeric, numericKeySchema, numericModule, parseNumericModelAnswer, scoreNumeric } from "@/lib/tasks/numeric";
import { readNumberInput } from "@/lib/tasks/numeric/input";
import { formatIssues } from "@/lib/tasks/format-issues";

const problems = (value: unknown) => {
  const parsed = numericKeySchema.safeParse(value);
  return parsed.success ? "" : formatIssues(parsed.error, "");
};

describe("numeric keys", () => {
  it("name a metric, a tolerance for abs only, and a positive answer for MRA", () => {
    expect(problems({ answer: 3, metric: "exact" })).toBe("");
    expect(problems({ answer: 3, metric: "abs", tolerance: 0.5 })).toBe("");
    expect(problems({ answer: 3, metric: "abs" })).toMatch(/tolerance.*needs a tolerance/);
    expect(problems({ answer: 3, metric: "mra", tolerance: 1 })).toMatch(/tolerance.*"abs" metric only/);
    expect(problems({ answer: 0, metric: "mra" })).toMatch(/answer.*above 0/);
    expect(problems({ answer: 3, metric: "rel" })).toMatch(/metric.*mra, exact, abs/);
  });
});

describe("numeric scoring", () => {
  it("scores exact, abs and mra; values that are not numbers score 0 and are invalid", () => {
    expect(scoreNumeric({ value: 3 }, { answer: 3, metric: "exact" })).toEqual({ score: 1, invalid: false });
    expect(scoreNumeric({ value: 3.0001 }, { answer: 3, metric: "exact" })).toEqual({ score: 0, invalid: false });
    expect(scoreNumeric({ value: 3.5 }, { answer: 3, metric: "abs", tolerance: 0.5 })).toEqual({ score: 1, invalid: false });
    expect(scoreNumeric({ value: 3.6 }, { answer: 3, metric: "abs", tolerance: 0.5 })).toEqual({ score: 0, invalid: false });
    expect(scoreNumeric({ value: 11 }, { answer: 10, metric: "mra" })).toEqual({ score: 0.9, invalid: false });
    expect(scoreNumeric({ value: null }, { answer: 10, metric: "mra" })).toEqual({ score: 0, invalid: true });
    expect(numericModule.scoreRow!({ score: 0.9, invalid: false })).toEqual({ score: 0.9 });
  });

  it("aggregates the mean of rows, counting invalid ones", () => {
    expect(
      aggregateNumeric([
        { score: 0.9, invalid: false },
        { score: 0, invalid: true },
        { score: 0.6, invalid: false },
      ]),
    ).toEqual({ score: 0.5, invalid: 1 });
    expect(aggregateNumeric([])).toEqual({ score: null, invalid: 0 });
  });

  it("reads model outputs as VSI-Bench's to_float(fuzzy_matching(pred))", () => {
    expect(parseNumericModelAnswer("3.5")).toEqual({ answer: { value: 3.5 }, mode: "strict" });
    expect(parseNumericModelAnswer(" 1_000 ")).toEqual({ answer: { value: 1000 }, mode: "strict" });
    expect(parseNumericModelAnswer("3.5 meters")).toEqual({ answer: { value: 3.5 }, mode: "recoverable" });
    expect(parseNumericModelAnswer("4. ")).toEqual({ answer: { value: 4 }, mode: "strict" });
    expect(parseNumericModelAnswer("about 3 meters")).toMatchObject({ answer: { value: null }, mode: "fail" });
    expect(parseNumericModelAnswer("nan")).toMatchObject({ answer: { value: null }, mode: "fail" });
    expect(parseNumericModelAnswer(7)).toEqual({ answer: { value: 7 }, mode: "strict" });
    expect(parseNumericModelAnswer({ value: 2 })).toEqual({ answer: { value: 2 }, mode: "strict" });
    expect(parseNumericModelAnswer({ value: "2" })).toMatchObject({ answer: { value: null }, mode: "fail" });
    expect(parseNumericModelAnswer(null)).toMatchObject({ answer: { value: null }, mode: "fail" });
  });

  it("reads what people type, refusing commas and words", () => {
    expect(readNumberInput(" 2.5 ")).toEqual({ value: 2.5 });
    expect(readNumberInput("-3")).toEqual({ value: -3 });
    expect(readNumberInput(".5")).toEqual({ value: 0.5 });
    expect(readNumberInput("1,5")).toEqual({ problem: "Use a point for decimals, no commas" });
    expect(readNumberInput("3m")).toEqual({ problem: "Not a number" });
    expect(readNumberInput("")).toEqual({ problem: "Type a number" });
    expect(readNumberInput("1e13")).toEqual({ problem: "Too large" });
  });
});

describe("model outputs of VSI-Bench items, read as its released code reads them", () => {
  const vsi = {
    id: "q",
    kind: "numeric",
    public: { question: "How many chairs?" },
    key: { answer: 10, metric: "mra" as const },
    tags: { source: "vsi-bench" },
  };

  it("takes to_float(split(' ')[0]) only: a leading space reads nothing and scores 0", () => {
    const leading = parseNumericModelAnswer(" 11", vsi);
    expect(leading).toMatchObject({ answer: { value: null }, mode: "fail" });
    expect(scoreNumeric(leading.answer!, vsi.key)).toEqual({ score: 0, invalid: true });
    expect(parseNumericModelAnswer("11", vsi)).toEqual({ answer: { value: 11 }, mode: "strict" });
    expect(parseNumericModelAnswer("11 chairs", vsi)).toEqual({ answer: { value: 11 }, mode: "recoverable" });
    // trailing whitespace is inside the first token; Python's float() takes it
    expect(parseNumericModelAnswer("11\n", vsi)).toEqual({ answer: { value: 11 }, mode: "recoverable" });
    // items of other sources keep the whole trimmed text
    expect(parseNumericModelAnswer(" 11", { ...vsi, tags: {} })).toEqual({ answer: { value: 11 }, mode: "strict" });
  });
});
