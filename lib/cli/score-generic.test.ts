import { describe, expect, it } from "vitest";
import { runScoreCommand } from "@/lib/cli/score";

const jsonl = (...lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n") + "\n";

const rubric = [
  { id: "instruction", type: "likert", dimension: "instruction", label: "Instruction following", min: 0, max: 3 },
  { id: "gravity", type: "check", dimension: "physics", label: "Gravity?" },
  { id: "penetration", type: "check", dimension: "physics", label: "Passes through?", pass: "no" },
];

describe("yardstick score on rating and pairwise (docs/generic-kinds.md)", () => {
  it("rating: one row per answer with points per entry, dimension and total; aggregate means", () => {
    const out = JSON.parse(
      runScoreCommand(
        jsonl(
          { id: "v1", kind: "rating", public: { media: { text: "p" }, rubric }, key: { reference: { instruction: 3, gravity: "yes", penetration: "no" } } },
          { id: "v2", kind: "rating", public: { media: { text: "q" }, rubric }, key: {} },
        ),
        jsonl(
          { id: "v1", annotator: "p1", answer: { ratings: { instruction: 3, gravity: "yes", penetration: "yes" } } },
          { id: "v2", annotator: "p1", answer: '{"ratings": {"instruction": 1, "gravity": "no", "penetration": "no"}}' },
        ),
      ),
    ) as { items: Array<Record<string, unknown>>; aggregate: Record<string, number | null> };
    expect(out.items).toEqual([
      {
        id: "v1",
        annotator: "p1",
        items: { instruction: 3, gravity: 1, penetration: 0 },
        dimensions: { instruction: 3, physics: 1 },
        total: 4,
        missing: 0,
        agree: 2 / 3,
      },
      {
        id: "v2",
        annotator: "p1",
        items: { instruction: 1, gravity: 0, penetration: 1 },
        dimensions: { instruction: 1, physics: 1 },
        total: 2,
        missing: 0,
        agree: null,
      },
    ]);
    expect(out.aggregate).toEqual({ total: 3, agree: 2 / 3, instruction: 2, physics: 1 });
  });

  it("pairwise: one row per answer with A's share per dimension and the models; aggregate win rates and Bradley-Terry strengths", () => {
    const pair = (id: string, a: string, b: string) => ({
      id,
      kind: "pairwise",
      public: { a: { text: "x" }, b: { text: "y" }, dimensions: [{ id: "quality", label: "Quality" }], models: { a, b } },
      key: {},
    });
    const out = JSON.parse(
      runScoreCommand(
        jsonl(pair("p1", "A", "B"), pair("p2", "B", "A")),
        jsonl(
          { id: "p1", annotator: 1, answer: { prefs: { quality: "a" } } },
          { id: "p2", annotator: 1, answer: { prefs: { quality: "tie" } } },
          { id: "p1", annotator: 2, answer: { prefs: { quality: "a" } } },
          { id: "p2", annotator: 2, answer: { prefs: { quality: "a" } } },
        ),
      ),
    ) as { items: Array<Record<string, unknown>>; aggregate: Record<string, number | null> };
    expect(out.items[0]).toEqual({ id: "p1", annotator: 1, a: { quality: 1 }, models: { a: "A", b: "B" }, agree: null });
    // A: 1 + 0.5 + 1 + 0 of 4; B: 0 + 0.5 + 0 + 1 of 4 -> BT 2.5 : 1.5
    expect(out.aggregate.win_A).toBe(2.5 / 4);
    expect(out.aggregate.win_B).toBe(1.5 / 4);
    expect(out.aggregate.bt_A).toBeCloseTo(2.5 / 4, 9);
    expect(out.aggregate.bt_B).toBeCloseTo(1.5 / 4, 9);
    expect(out.aggregate.agree).toBeNull();
  });
});

const choiceItem = (id: string, answer: string | undefined, n = 4) => ({
  id,
  kind: "choice",
  public: { question: `Question ${id}?`, options: Array.from({ length: n }, (_, i) => ({ id: `o${i}`, text: `option ${i}` })) },
  key: answer === undefined ? {} : { answer },
  tags: {},
});
const numericItem = (id: string, key: Record<string, unknown>) => ({
  id,
  kind: "numeric",
  public: { question: `How many ${id}?`, unit: "meters" },
  key,
  tags: {},
});

describe("yardstick score: the pinned contract of choice", () => {
  it("prints rows {id, annotator?, correct, score} and the aggregate {accuracy, chance}", () => {
    const output = JSON.parse(
      runScoreCommand(
        jsonl(choiceItem("q1", "o2"), choiceItem("q2", "o0", 2)),
        jsonl(
          { id: "q1", annotator: "ann-1", answer: { choice: "o2" } },
          { id: "q2", answer: { choice: "o1" } },
          { id: "q1", annotator: "gpt", answer: "C. option 2" },
        ),
      ),
    ) as { items: Array<Record<string, unknown>>; aggregate: Record<string, unknown> };
    expect(output.items).toEqual([
      { id: "q1", annotator: "ann-1", correct: true, score: 1 },
      { id: "q2", correct: false, score: 0 },
      { id: "q1", annotator: "gpt", correct: true, score: 1 },
    ]);
    expect(output.items.map((row) => Object.keys(row))).toEqual([
      ["id", "annotator", "correct", "score"],
      ["id", "correct", "score"],
      ["id", "annotator", "correct", "score"],
    ]);
    expect(output.aggregate).toEqual({ accuracy: 2 / 3, chance: (1 / 4 + 1 / 2 + 1 / 4) / 3 });
    expect(Object.keys(output.aggregate)).toEqual(["accuracy", "chance"]);
  });

  it("leaves items without a key unscored (correct and score null) and out of the aggregate", () => {
    const output = JSON.parse(
      runScoreCommand(
        jsonl(choiceItem("q1", "o1"), choiceItem("w1", undefined)),
        jsonl({ id: "q1", answer: { choice: "o0" } }, { id: "w1", answer: { choice: "o0" } }),
      ),
    ) as {
      items: unknown[];
      aggregate: unknown;
    };
    expect(output.items).toEqual([
      { id: "q1", correct: false, score: 0 },
      { id: "w1", correct: null, score: null },
    ]);
    expect(output.aggregate).toEqual({ accuracy: 0, chance: 0.25 });
  });

  it("refuses an answer that names no option letter, naming the line", () => {
    expect(() => runScoreCommand(jsonl(choiceItem("q1", "o1")), jsonl({ id: "q1", answer: "Maybe B" }))).toThrow(
      /answers\.jsonl line 1: answer for item "q1" is not a readable choice answer/,
    );
  });
});

describe("yardstick score: the pinned contract of numeric", () => {
  it("prints rows {id, annotator?, score} and the aggregate {score, invalid}; non-numeric and missing values score 0", () => {
    const output = JSON.parse(
      runScoreCommand(
        jsonl(
          numericItem("n1", { answer: 10, metric: "mra" }),
          numericItem("n2", { answer: 4, metric: "exact" }),
          numericItem("n3", { answer: 2, metric: "abs", tolerance: 0.25 }),
        ),
        jsonl(
          { id: "n1", annotator: "a", answer: { value: 11 } },
          { id: "n2", annotator: "a", answer: { value: 4 } },
          { id: "n3", annotator: "a", answer: { value: 2.3 } },
          { id: "n1", annotator: "m", answer: "about eleven" },
          { id: "n2", annotator: "m", answer: null },
          { id: "n3", annotator: "m", answer: "2.25 m" },
        ),
      ),
    ) as { items: Array<Record<string, unknown>>; aggregate: Record<string, unknown> };
    expect(output.items).toEqual([
      { id: "n1", annotator: "a", score: 0.9 },
      { id: "n2", annotator: "a", score: 1 },
      { id: "n3", annotator: "a", score: 0 },
      { id: "n1", annotator: "m", score: 0 },
      { id: "n2", annotator: "m", score: 0 },
      { id: "n3", annotator: "m", score: 1 },
    ]);
    expect(output.aggregate).toEqual({ score: (0.9 + 1 + 0 + 0 + 0 + 1) / 6, invalid: 2 });
  });

  it("scores both kinds side by side, the aggregate keyed by kind", () => {
    const output = JSON.parse(
      runScoreCommand(
        jsonl(choiceItem("q1", "o1"), numericItem("n1", { answer: 10, metric: "mra" })),
        jsonl({ id: "q1", answer: "B" }, { id: "n1", answer: "9" }),
      ),
    ) as {
      items: unknown[];
      aggregate: unknown;
    };
    expect(output.items).toEqual([
      { id: "q1", kind: "choice", correct: true, score: 1 },
      { id: "n1", kind: "numeric", score: 0.9 },
    ]);
    expect(output.aggregate).toEqual({ choice: { accuracy: 1, chance: 0.25 }, numeric: { score: 0.9, invalid: 0 } });
  });
});
