import { describe, expect, it } from "vitest";
import { EXPLORE_ANSWER_LIMITS, exploreSceneAnswerSchema } from "@/lib/tasks/explore-scene";

/**
 * An explore-scene answer is capped in its schema (objects, relations, text), the counts
 * are checked before anything else is parsed, and the relation checks are linear. Timing is in
 * lib/tasks/explore-scene/bench/answer-caps.ts (no timed assertion here).
 */

const L = EXPLORE_ANSWER_LIMITS;

/** n objects "thing k", each related to the next: "thing 3 next to thing 4". */
function answerOf(n: number, relationsPerObject = 1) {
  const objects = Array.from({ length: n }, (_, i) => ({
    category: `thing ${i}`,
    description: "a plain object",
    relation: Array.from({ length: relationsPerObject }, (_, r) => `thing ${i} next to thing ${(i + 1 + r) % n}`),
  }));
  return { objects, text: "" };
}

describe("explore-scene answer caps", () => {
  it("accepts an answer at the caps", () => {
    const perObject = Math.floor(L.relations / L.objects);
    const result = exploreSceneAnswerSchema.safeParse(answerOf(L.objects, perObject));
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it("rejects an answer far above the caps with one clear error naming the place, before parsing its objects", () => {
    const huge = answerOf(11_000);
    // an object that would fail its own checks: never looked at, the count fails first
    (huge.objects[5] as { category: unknown }).category = 42;
    const result = exploreSceneAnswerSchema.safeParse(huge);
    expect(result.success).toBe(false);
    expect(result.error!.issues).toEqual([expect.objectContaining({ path: ["objects"], message: `at most ${L.objects} objects (got 11000)` })]);
  });

  it("caps relations per object and in all, and the length of each text", () => {
    const perObject = answerOf(3, L.relationsPerObject + 1);
    expect(exploreSceneAnswerSchema.safeParse(perObject).error!.issues[0]).toMatchObject({
      path: ["objects", 0, "relation"],
      message: `at most ${L.relationsPerObject} relations per object (got ${L.relationsPerObject + 1})`,
    });
    const many = answerOf(L.objects, L.relationsPerObject);
    expect(exploreSceneAnswerSchema.safeParse(many).error!.issues[0]).toMatchObject({
      path: ["objects"],
      message: expect.stringContaining(`at most ${L.relations} relations in all`),
    });
    const long = answerOf(2);
    long.objects[1].description = "x".repeat(L.descriptionChars + 1);
    expect(exploreSceneAnswerSchema.safeParse(long).error!.issues[0]).toMatchObject({
      path: ["objects", 1, "description"],
      message: `a description has at most ${L.descriptionChars} characters`,
    });
    expect(exploreSceneAnswerSchema.safeParse({ ...answerOf(2), text: "x".repeat(L.textChars + 1) }).error!.issues[0].path).toEqual(["text"]);
  });

  it("reports at most 50 relation issues, each message short", () => {
    const wrong = answerOf(L.objects);
    for (const object of wrong.objects) object.relation = [`${object.category} next to nowhere`];
    const issues = exploreSceneAnswerSchema.safeParse(wrong).error!.issues;
    expect(issues).toHaveLength(50);
    expect(Math.max(...issues.map((issue) => issue.message.length))).toBeLessThan(400);
  });
});
