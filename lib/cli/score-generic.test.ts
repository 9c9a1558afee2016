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
        jsonl({ id: "v1", kind: "rating", public: { media: { text: "p" }, rubric }, key: { reference: { instruction: 3, gravity: "yes", penetration: "no" } } }, { id: "v2", kind: "rating", public: { media: { text: "q" }, rubric }, key: {} }),
        jsonl({ id: "v1", annotator: "p1", answer: { ratings: { instruction: 3, gravity: "yes", penetration: "yes" } } }, { id: "v2", annotator: "p1", answer: '{"ratings": {"instruction": 1, "gravity": "no", "penetration": "no"}}' }),
      ),
    ) as { items: Array<Record<string, unknown>>; aggregate: Record<string, number | null> };
    expect(out.items).toEqual([
      { id: "v1", annotator: "p1", items: { instruction: 3, gravity: 1, penetration: 0 }, dimensions: { instruction: 3, physics: 1 }, total: 4, missing: 0, agree: 2 / 3 },
      { id: "v2", annotator: "p1", items: { instruction: 1, gravity: 0, penetration: 1 }, dimensions: { instruction: 1, physics: 1 }, total: 2, missing: 0, agree: null },
    ]);
    expect(out.aggregate).toEqual({ total: 3, agree: 2 / 3, instruction: 2, physics: 1 });
  });

  it("pairwise: one row per answer with A's share per dimension and the models; aggregate win rates and Bradley-Terry strengths", () => {
    const pair = (id: string, a: string, b: string) => ({ id, kind: "pairwise", public: { a: { text: "x" }, b: { text: "y" }, dimensions: [{ id: "quality", label: "Quality" }], models: { a, b } }, key: {} });
    const out = JSON.parse(
      runScoreCommand(
        jsonl(pair("p1", "A", "B"), pair("p2", "B", "A")),
        jsonl({ id: "p1", annotator: 1, answer: { prefs: { quality: "a" } } }, { id: "p2", annotator: 1, answer: { prefs: { quality: "tie" } } }, { id: "p1", annotator: 2, answer: { prefs: { quality: "a" } } }, { id: "p2", annotator: 2, answer: { prefs: { quality: "a" } } }),
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
