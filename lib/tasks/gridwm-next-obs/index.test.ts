import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatIssues } from "@/lib/tasks/format-issues";
import { transitionOf } from "@/lib/tasks/shared/gridwm/common";
import { gridwmNextObsModule, parseNextObsModelAnswer, scoreNextObs, type GridwmNextObsKey, type GridwmNextObsPublic } from "@/lib/tasks/gridwm-next-obs";
import type { TaskItem } from "@/lib/tasks/types";

const candidatesPublic: GridwmNextObsPublic = {
  observation: "img/o.png",
  action: "right",
  candidates: ["img/a.png", "img/b.png", "img/c.png", "img/d.png"],
  mission: "avoid the lava and get to the green goal square",
};
const key: GridwmNextObsKey = { answer: "C", modelPrompt: "Action: right (id=1).\nSelect the correct next state o_{t+1}." };
const item = (pub: GridwmNextObsPublic): TaskItem<GridwmNextObsPublic, GridwmNextObsKey> => ({
  id: "a1",
  kind: "gridwm-next-obs",
  public: pub,
  key,
  tags: { env: "lavagap", transition: "turn" },
});
const itemSchema = z.object({ public: gridwmNextObsModule.publicSchema, key: gridwmNextObsModule.keySchema });

describe("Task A scoring", () => {
  it("is correct exactly when the chosen letter is the key's", () => {
    expect(scoreNextObs({ choice: "C" }, key)).toEqual({ correct: true });
    expect(scoreNextObs({ choice: "A" }, key)).toEqual({ correct: false });
  });

  it("aggregates Acc_A; null without answers", () => {
    expect(gridwmNextObsModule.aggregate([{ correct: true }, { correct: false }, { correct: false }, { correct: true }])).toEqual({ Acc_A: 0.5 });
    expect(gridwmNextObsModule.aggregate([])).toEqual({ Acc_A: null });
  });

  it("maps actions to the paper's transition types", () => {
    expect(["left", "right", "forward", "pickup", "drop", "toggle", "done"].map((action) => transitionOf(action as never))).toEqual([
      "turn",
      "turn",
      "move",
      "pickup",
      "interact",
      "interact",
      "interact",
    ]);
  });
});

describe("Task A model answers (parse_task_a_answer)", () => {
  it.each([
    ["C", "C", "strict"],
    [" b \n", "B", "strict"],
    ["The answer is D.", "D", "recoverable"],
    ["Answer: (B)", "B", "recoverable"],
    ["1)B", "B", "recoverable"],
    // as the authors' IGNORECASE search: the article "a" is a standalone letter
    ["I pick a cell, then C", "A", "recoverable"],
    ["Option C, not A", "C", "recoverable"],
  ])("%j -> %s (%s)", (text, choice, mode) => {
    expect(parseNextObsModelAnswer(text)).toEqual({ answer: { choice }, mode });
  });

  it.each([
    ["", "empty"],
    ["   ", "empty"],
    ["ABCD", "no standalone letter A-D"],
    ["E", "no standalone letter A-D"],
    // Python's \b sees letters of every script and digits and "_" as word characters
    ["éA", "no standalone letter A-D"],
    ["_B", "no standalone letter A-D"],
    ["B2", "no standalone letter A-D"],
  ])("%j fails (%s)", (text, reason) => {
    expect(parseNextObsModelAnswer(text)).toEqual({ answer: null, mode: "fail", reason });
  });

  it("takes Yardstick answers as strict and refuses other shapes", () => {
    expect(parseNextObsModelAnswer({ choice: "D" })).toEqual({ answer: { choice: "D" }, mode: "strict" });
    expect(parseNextObsModelAnswer({ choice: "E" }).mode).toBe("fail");
    expect(parseNextObsModelAnswer(3).mode).toBe("fail");
    expect(gridwmNextObsModule.parseModelAnswer("answer: c")).toEqual({ choice: "C" });
  });
});

describe("gridwm-next-obs module", () => {
  it("shows the observation, the action in words and the candidates, never the key", () => {
    const view = gridwmNextObsModule.publicView(item(candidatesPublic));
    expect(view).toEqual({
      observation: "img/o.png",
      candidates: ["img/a.png", "img/b.png", "img/c.png", "img/d.png"],
      action: "right",
      actionText: "turn right: 90 degrees clockwise",
      mission: candidatesPublic.mission,
    });
    expect(JSON.stringify(view)).not.toMatch(/"C"|answer|id=1/);
  });

  it("takes the release's composite image form", () => {
    const composite: GridwmNextObsPublic = { image: "images/taskA/doorkey/g_t3.png", action: "toggle" };
    expect(itemSchema.parse({ public: composite, key })).toEqual({ public: composite, key });
    expect(gridwmNextObsModule.publicView(item(composite))).toEqual({
      image: "images/taskA/doorkey/g_t3.png",
      action: "toggle",
      actionText: "toggle (open, close or unlock) what is in front",
    });
    expect(gridwmNextObsModule.mapImages({ public: composite, key }, (ref) => `/x/${ref}`).public).toEqual({
      ...composite,
      image: "/x/images/taskA/doorkey/g_t3.png",
    });
  });

  it("names the field of a broken public part, in either form", () => {
    const three = itemSchema.safeParse({ public: { ...candidatesPublic, candidates: ["a", "b", "c"] }, key });
    expect(formatIssues(three.error!)).toBe("public.candidates: a Task A item has exactly four candidates (A-D)");
    const badAction = itemSchema.safeParse({ public: { image: "x.png", action: "jump" }, key });
    expect(formatIssues(badAction.error!)).toContain("public.action: expected a MiniGrid action");
    const extra = itemSchema.safeParse({ public: { image: "x.png", action: "left", candidates: [] }, key });
    expect(extra.success).toBe(false);
    expect(itemSchema.safeParse({ public: candidatesPublic, key: { answer: "E" } }).success).toBe(false);
  });

  it("maps every image of the candidates form", () => {
    const mapped = gridwmNextObsModule.mapImages({ public: candidatesPublic, key }, (ref) => ref.toUpperCase());
    expect(mapped.public).toMatchObject({ observation: "IMG/O.PNG", candidates: ["IMG/A.PNG", "IMG/B.PNG", "IMG/C.PNG", "IMG/D.PNG"] });
  });

  it("shows reviewers the gold letter, its image and the model prompt", () => {
    expect(gridwmNextObsModule.reviewView(item(candidatesPublic))).toEqual({
      answer: "C",
      answerImage: "img/c.png",
      action: "right",
      actionText: "turn right: 90 degrees clockwise",
      modelPrompt: key.modelPrompt,
    });
  });

  it("codes agreement as nominal on the chosen letter", () => {
    expect(gridwmNextObsModule.agreementEncodings.map((encoding) => [encoding.id, encoding.level])).toEqual([["choice-nominal", "nominal"]]);
    expect(gridwmNextObsModule.agreementEncodings[0].units({ choice: "B" })).toEqual([{ unit: "", value: "B" }]);
  });
});
