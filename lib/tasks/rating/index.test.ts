import { describe, expect, it } from "vitest";
import {
  aggregateRatings,
  parseRatingModelAnswer,
  ratingAnswerSchemaFor,
  ratingModule,
  ratingPublicSchema,
  scoreRating,
  type RubricEntry,
} from "@/lib/tasks/rating";
import { ratingFigures, type RatingRow } from "@/lib/tasks/rating/figures";
import { krippendorffAlpha } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaClusterBootstrap } from "@/lib/stats/krippendorff-alpha-cluster-bootstrap";
import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";

const rubric = ratingPublicSchema.parse({
  media: { text: "prompt" },
  rubric: [
    { id: "instruction", type: "likert", dimension: "instruction", label: "Instruction following", min: 0, max: 3, anchors: { "0": "no", "3": "fully" } },
    { id: "gravity", type: "check", dimension: "physics", label: "Gravity?" },
    { id: "penetration", type: "check", dimension: "physics", label: "Passes through?", pass: "no" },
  ],
}).rubric as RubricEntry[];

describe("rating items", () => {
  it("refuses duplicate ids, a dimension mixing Likert and checks, anchors off the scale, and names the place", () => {
    const bad = ratingPublicSchema.safeParse({
      media: {},
      rubric: [
        { id: "a", type: "likert", dimension: "d", label: "A", min: 0, max: 3, anchors: { "5": "x" } },
        { id: "a", type: "check", dimension: "d", label: "B" },
      ],
    });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((issue) => issue.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["rubric.0.anchors", "rubric.1.id", "rubric.1.dimension"]));
    expect(ratingPublicSchema.safeParse({ media: {}, rubric: [{ id: "t", type: "check", dimension: "total", label: "x" }] }).success).toBe(false);
  });

  it("scores points per entry, dimension and in total (a check's point for its pass answer), and agreement with a reference", () => {
    const score = scoreRating(
      { ratings: { instruction: 2, gravity: "no", penetration: "no" } },
      { reference: { instruction: 2, gravity: "yes", penetration: "no" } },
      rubric,
    );
    expect(score).toEqual({
      items: { instruction: 2, gravity: 0, penetration: 1 },
      dimensions: { instruction: 2, physics: 1 },
      total: 3,
      missing: 0,
      agree: 2 / 3,
    });
    expect(ratingModule.correct(score)).toBe(false);
    const partial = scoreRating({ ratings: { instruction: 7 } }, {}, rubric);
    expect(partial).toMatchObject({ items: { instruction: null, gravity: null, penetration: null }, total: 0, missing: 3, agree: null });
  });

  it("gives an answer to an item without reference ratings no correctness (null), not a wrong one: calibration and per-annotator accuracy leave it out", () => {
    const unreferenced = scoreRating({ ratings: { instruction: 3, gravity: "yes", penetration: "no" } }, {}, rubric);
    expect(ratingModule.correct(unreferenced)).toBeNull();
    const agreeing = scoreRating(
      { ratings: { instruction: 2, gravity: "yes", penetration: "no" } },
      { reference: { instruction: 2, gravity: "yes", penetration: "no" } },
      rubric,
    );
    expect(ratingModule.correct(agreeing)).toBe(true);
  });

  it("takes from people only a complete answer of valid values", () => {
    const schema = ratingAnswerSchemaFor(rubric);
    expect(schema.safeParse({ ratings: { instruction: 3, gravity: "yes", penetration: "no" } }).success).toBe(true);
    const issues = schema
      .safeParse({ ratings: { instruction: 4, gravity: "yes", other: 1 } })
      .error!.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues).toEqual(
      expect.arrayContaining([
        ["ratings.other", 'no rubric entry "other"'],
        ["ratings.instruction", "a whole number from 0 to 3"],
        ["ratings.penetration", 'rate "Passes through?"'],
      ]),
    );
    const huge = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 1]));
    expect(schema.safeParse({ ratings: huge }).error!.issues[0].message).toBe("at most 30 ratings");
  });

  it("aggregates mean total, per dimension and agreement", () => {
    const a = scoreRating({ ratings: { instruction: 3, gravity: "yes", penetration: "no" } }, {}, rubric);
    const b = scoreRating(
      { ratings: { instruction: 1, gravity: "no", penetration: "yes" } },
      { reference: { instruction: 1, gravity: "no", penetration: "no" } },
      rubric,
    );
    expect(aggregateRatings([a, b])).toEqual({ total: (5 + 1) / 2, agree: 2 / 3, instruction: 2, physics: 1 });
    expect(aggregateRatings([])).toEqual({ total: null, agree: null });
  });

  it("reads model answers as objects (strict) or JSON text (recoverable)", () => {
    expect(parseRatingModelAnswer({ ratings: { instruction: 1 } }).mode).toBe("strict");
    expect(parseRatingModelAnswer('{"ratings": {"gravity": "yes"}}')).toEqual({ answer: { ratings: { gravity: "yes" } }, mode: "recoverable" });
    expect(parseRatingModelAnswer("three").mode).toBe("fail");
  });

  it("shows annotators the rubric and the playback rule, never the reference", () => {
    const item = { id: "x", kind: "rating", public: { media: { text: "p" }, rubric }, key: { reference: { instruction: 3 }, source: "SECRET" }, tags: {} };
    const view = JSON.stringify(ratingModule.publicView(item, { playback: "hide" }));
    expect(view).toContain('"playback":"hide"');
    expect(view).not.toContain("SECRET");
    expect(view).not.toContain("reference");
  });
});

describe("rating figures", () => {
  it("gives alpha per dimension equal to Krippendorff's alpha of the same units, and means per generator and judge", () => {
    const rubricByItem = new Map([
      ["i1", rubric],
      ["i2", rubric],
      ["i3", rubric],
    ]);
    const answers: Array<[string, string, number, string, string]> = [
      ["i1", "p", 3, "yes", "no"],
      ["i1", "q", 2, "yes", "no"],
      ["i2", "p", 0, "no", "yes"],
      ["i2", "q", 1, "no", "no"],
      ["i3", "p", 2, "yes", "no"],
      ["i3", "q", 3, "yes", "yes"],
    ];
    const rows = answers.map(([itemId, annotator, instruction, gravity, penetration]) => {
      const answer = { ratings: { instruction, gravity, penetration } } as { ratings: Record<string, number | "yes" | "no"> };
      return { itemId, annotator, answer, score: scoreRating(answer, {}, rubric), model: itemId === "i2" ? "gen-b" : "gen-a" };
    });
    const judge = [{ runId: "r1", score: scoreRating({ ratings: { instruction: 3, gravity: "yes", penetration: "no" } }, {}, rubric) }];
    const f = ratingFigures(rubricByItem, rows, judge, [{ id: "r1", name: "judge" }], "seed", 200);
    const instruction = f.alpha.find((a) => a.dimension === "instruction")!;
    expect(instruction.level).toBe("ordinal");
    expect(instruction.alpha).toBeCloseTo(
      krippendorffAlpha(
        [
          [3, 0, 2],
          [2, 1, 3],
        ],
        "ordinal",
      ).alpha!,
      12,
    );
    const physics = f.alpha.find((a) => a.dimension === "physics")!;
    // units: (i1 gravity, i1 pen, i2 gravity, i2 pen, i3 gravity, i3 pen)
    expect(physics.alpha).toBeCloseTo(
      krippendorffAlpha(
        [
          ["yes", "no", "no", "yes", "yes", "no"],
          ["yes", "no", "no", "no", "yes", "yes"],
        ],
        "nominal",
      ).alpha!,
      12,
    );
    expect(physics.items).toBe(3);
    expect(f.pooled.instruction).toEqual({ mean: 11 / 6, n: 6 });
    expect(f.byGenerator.map((g) => [g.model, g.cells.instruction.mean])).toEqual([
      ["gen-a", 10 / 4],
      ["gen-b", 1 / 2],
    ]);
    expect(f.judges[0].cells.total).toEqual({ mean: 5, n: 1 });
    expect(f.dimensions).toEqual([
      { id: "instruction", type: "likert", maxPoints: 3 },
      { id: "physics", type: "check", maxPoints: 2 },
    ]);
  });

  it("alpha's interval: items only is the item bootstrap of before; over people and items wider when people differ", () => {
    const rubricByItem = new Map(Array.from({ length: 30 }, (_, i) => [`i${i}`, rubric]));
    // people p and q rate an item's instruction alike (its truth), r and s two points off on every other item
    const rows: RatingRow[] = [];
    for (let i = 0; i < 30; i++) {
      const truth = i % 4;
      for (const [annotator, off] of [
        ["p", 0],
        ["q", 0],
        ["r", i % 2 === 0 ? 2 : 0],
        ["s", i % 2 === 1 ? 2 : 0],
      ] as const) {
        const answer = { ratings: { instruction: (truth + off) % 4, gravity: "yes", penetration: "no" } } as { ratings: Record<string, number | "yes" | "no"> };
        rows.push({ itemId: `i${i}`, annotator, answer, score: scoreRating(answer, {}, rubric), model: null });
      }
    }
    const both = ratingFigures(rubricByItem, rows, [], [], "seed", 400).alpha.find((a) => a.dimension === "instruction")!;
    const itemsOnly = ratingFigures(rubricByItem, rows, [], [], "seed", 400, "items").alpha.find((a) => a.dimension === "instruction")!;
    const units = Array.from({ length: 30 }, (_, i) => rows.filter((r) => r.itemId === `i${i}`).map((r) => r.answer.ratings.instruction as number));
    const before = krippendorffAlphaClusterBootstrap(
      units,
      units.map((_, i) => i),
      "ordinal",
      mulberry32(seedFromString("seed|rating-alpha|instruction")),
      { resamples: 400 },
    );
    expect(itemsOnly.ci![0]).toBeCloseTo(before.ci![0], 10);
    expect(itemsOnly.ci![1]).toBeCloseTo(before.ci![1], 10);
    expect(both.alpha).toBeCloseTo(itemsOnly.alpha!, 12);
    expect(both).toMatchObject({ items: 30, people: 4 });
    expect(both.ci![1] - both.ci![0]).toBeGreaterThan(1.5 * (itemsOnly.ci![1] - itemsOnly.ci![0]));
  });
});
