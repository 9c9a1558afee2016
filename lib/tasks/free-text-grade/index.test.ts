import { describe, expect, it } from "vitest";
import { freeTextGradeModule } from "@/lib/tasks/free-text-grade";

describe("free-text-grade", () => {
  it("gives a grade no correctness (null): a grade has no right value, so calibration and per-annotator accuracy leave it out rather than count it wrong", () => {
    const item = {
      id: "g1",
      kind: "free-text-grade",
      public: { question: "What is on the table?", references: ["a cup"], answer: "a mug" },
      key: { source: { study: "s", prediction: "p" } },
      tags: {},
    };
    for (const grade of [1, 3, 5]) expect(freeTextGradeModule.correct(freeTextGradeModule.score({ grade }, item.key, item))).toBeNull();
  });
});
