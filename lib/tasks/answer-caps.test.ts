import { describe, expect, it } from "vitest";
import { ENACT_MAX_ORDER, enactOrderAnswerSchema } from "@/lib/tasks/shared/enact/common";
import { GRIDWM_MAX_ANSWER_OBJECTS, gridwmSceneJsonAnswerSchema } from "@/lib/tasks/gridwm-scene-json";

/** The other kinds' unbounded answer arrays are capped in their own schemas, counted before their elements are parsed. */
describe("answer caps of the other kinds", () => {
  it("ENACT: an order has at most ENACT_MAX_ORDER indices", () => {
    const at = Array.from({ length: ENACT_MAX_ORDER }, (_, i) => i);
    expect(enactOrderAnswerSchema.safeParse({ order: at }).success).toBe(true);
    const huge = Array.from({ length: 200_000 }, (_, i) => i);
    const issues = enactOrderAnswerSchema.safeParse({ order: huge }).error!.issues;
    expect(issues).toEqual([expect.objectContaining({ path: ["order"], message: `order has at most ${ENACT_MAX_ORDER} indices` })]);
    // the message does not echo the 200,000 indices
    expect(issues[0].message.length).toBeLessThan(100);
  });

  it("GridWM scene JSON: at most GRIDWM_MAX_ANSWER_OBJECTS objects", () => {
    const scene = (n: number) => ({
      agent: { pos: [1, 1], dir: 0, carrying: null },
      front_cell: { pos: [2, 1], type: "empty", state: null },
      objects: Array.from({ length: n }, (_, i) => ({ type: "ball", pos: [i % 20, Math.floor(i / 20)], color: "red", state: null })),
    });
    expect(gridwmSceneJsonAnswerSchema.safeParse(scene(GRIDWM_MAX_ANSWER_OBJECTS)).success).toBe(true);
    expect(gridwmSceneJsonAnswerSchema.safeParse(scene(50_000)).error!.issues).toEqual([
      expect.objectContaining({ path: ["objects"], message: `at most ${GRIDWM_MAX_ANSWER_OBJECTS} objects` }),
    ]);
  });
});
