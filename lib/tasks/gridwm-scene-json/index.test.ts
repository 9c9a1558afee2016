import { describe, expect, it } from "vitest";
import { formatIssues } from "@/lib/tasks/format-issues";
import {
  canonState,
  canonicalSceneString,
  componentScoreOf,
  gridwmSceneJsonItemSchema,
  gridwmSceneJsonModule,
  normalizeScene,
  parseSceneJsonModelAnswer,
  releasedScriptScore,
  sceneComponents,
  sceneFieldReadability,
  scoreSceneJson,
  toInt,
  type GridwmSceneJsonKey,
  type GridwmSceneJsonPublic,
} from "@/lib/tasks/gridwm-scene-json";
import type { TaskItem } from "@/lib/tasks/types";

/** The gold example of ../shared/benchmarks/gridwm-judge.md. */
const gold = {
  agent: { pos: [6, 3], dir: 0, carrying: null },
  front_cell: { pos: [6, 3], type: "ball", state: 0 },
  objects: [
    { type: "ball", pos: [5, 3], color: "blue", state: 0 },
    { type: "door", pos: [5, 5], color: "yellow", state: 2 },
    { type: "key", pos: [6, 2], color: "purple", state: 0 },
  ],
};
const key: GridwmSceneJsonKey = { answer_json: gold as GridwmSceneJsonKey["answer_json"] };
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function withChanges(change: (scene: typeof gold & Record<string, unknown>) => void) {
  const scene = clone(gold) as typeof gold & Record<string, unknown>;
  change(scene);
  return scene;
}

describe("Task B component score: the 0.90 edge", () => {
  it("scores the gold itself 1, exact and correct", () => {
    expect(scoreSceneJson(clone(gold), key)).toEqual({ exact: true, componentScore: 1, correct: true });
  });

  it("scores a wrong direction alone exactly 0.9 and counts it correct (the paper's rule)", () => {
    const score = scoreSceneJson(
      withChanges((s) => (s.agent.dir = 1)),
      key,
    );
    expect(score.componentScore).toBe(0.9);
    expect(score).toEqual({ exact: false, componentScore: 0.9, correct: true });
  });

  it("documents the released script's float sum: the same answer gives 0.8999999999999999 there, under 0.90", () => {
    const components = sceneComponents(
      withChanges((s) => (s.agent.dir = 1)),
      gold,
    );
    expect(components).toEqual({ agent_pos: 1, agent_dir: 0, carrying: 1, front_cell: 1, objects_jaccard: 1 });
    expect(releasedScriptScore(components)).toBe(0.8999999999999999);
    expect(releasedScriptScore(components) >= 0.9).toBe(false);
    expect(Math.abs(releasedScriptScore(components) - componentScoreOf(components))).toBeLessThan(1e-15);
  });

  it("counts half the objects (Jaccard 1/2) as exactly 0.9, correct; Jaccard 2/5 as 0.88, not correct", () => {
    // predicted 2 of the 3 gold objects plus 1 wrong: |A n B| = 2, |A u B| = 4
    const half = scoreSceneJson(
      withChanges((s) => (s.objects = [gold.objects[0], gold.objects[1], { type: "box", pos: [1, 1], color: "red", state: 0 }])),
      key,
    );
    expect(half).toEqual({ exact: false, componentScore: 0.9, correct: true });
    // 2 of 3 plus 2 wrong: 2 / 5
    const twoFifths = scoreSceneJson(
      withChanges(
        (s) =>
          (s.objects = [
            gold.objects[0],
            gold.objects[1],
            { type: "box", pos: [1, 1], color: "red", state: 0 },
            { type: "box", pos: [1, 2], color: "red", state: 0 },
          ]),
      ),
      key,
    );
    expect(twoFifths.componentScore).toBeCloseTo(0.88, 12);
    expect(twoFifths.correct).toBe(false);
  });

  it("weights each component as released: carrying 0.15, front cell 0.25, position 0.30", () => {
    expect(
      scoreSceneJson(
        withChanges((s) => ((s.agent as { carrying: unknown }).carrying = { type: "key", color: "red" })),
        key,
      ).componentScore,
    ).toBe(0.85);
    expect(
      scoreSceneJson(
        withChanges((s) => (s.front_cell.state = 1)),
        key,
      ).componentScore,
    ).toBe(0.75);
    expect(
      scoreSceneJson(
        withChanges((s) => (s.agent.pos = [6, 4])),
        key,
      ).componentScore,
    ).toBe(0.7);
  });

  it("scores an empty object as the released script does: only carrying (null = null) counts", () => {
    expect(scoreSceneJson({}, key)).toEqual({ exact: false, componentScore: 0.15, correct: false });
  });
});

describe("Task B normalisation (score_exam.py)", () => {
  it("reads numbers given as strings or integral floats, and trims states, colors and types", () => {
    const messy = {
      agent: { pos: ["6", " 3 "], dir: "0", carrying: null },
      front_cell: { pos: [6.0, 3], type: " ball ", state: "0" },
      objects: [
        { type: "key ", pos: ["6", "2"], color: " purple", state: " 0 " },
        { type: "door", pos: [5, 5], color: "yellow", state: 2.0 },
        { type: "ball", pos: [5, 3], color: "blue\n", state: false },
      ],
    };
    expect(scoreSceneJson(messy, key)).toEqual({ exact: true, componentScore: 1, correct: true });
  });

  it("does not equate a state of null with 0, a word with a number, or a non-integral number with an integer", () => {
    expect(
      scoreSceneJson(
        withChanges((s) => ((s.front_cell as { state: unknown }).state = null)),
        key,
      ).exact,
    ).toBe(false);
    expect(
      scoreSceneJson(
        withChanges((s) => ((s.objects[1] as { state: unknown }).state = "locked")),
        key,
      ).componentScore,
    ).toBeLessThan(1);
    expect(
      scoreSceneJson(
        withChanges((s) => ((s.agent as { pos: unknown }).pos = [6.5, 3])),
        key,
      ).componentScore,
    ).toBe(0.7);
    expect(
      scoreSceneJson(
        withChanges((s) => ((s.agent as { dir: unknown }).dir = "north")),
        key,
      ).componentScore,
    ).toBe(0.9);
  });

  it("compares carrying as null or (type, color): a bare type string is not the object", () => {
    const carryingKey: GridwmSceneJsonKey = {
      answer_json: { ...gold, agent: { ...gold.agent, carrying: { type: "key", color: "yellow" } } } as GridwmSceneJsonKey["answer_json"],
    };
    const carrying = (value: unknown) => withChanges((s) => ((s.agent as { carrying: unknown }).carrying = value));
    expect(scoreSceneJson(carrying({ type: " key", color: "yellow " }), carryingKey).exact).toBe(true);
    expect(scoreSceneJson(carrying("key"), carryingKey).componentScore).toBe(0.85);
    expect(scoreSceneJson(carrying(null), carryingKey).componentScore).toBe(0.85);
    expect(scoreSceneJson(carrying({ type: "key", color: "yellow" }), key).componentScore).toBe(0.85);
    expect(normalizeScene({ agent: { carrying: { color: "red" } } }).carrying).toEqual(["<unknown>", null]);
    expect(normalizeScene({ agent: { carrying: 3 } }).carrying).toEqual(["<unknown>", null]);
  });

  it("treats objects as a set: order and repeated rows do not matter; unreadable rows are dropped", () => {
    const shuffledObjects = withChanges((s) => (s.objects = [gold.objects[2], gold.objects[0], gold.objects[1], gold.objects[0]]));
    expect(scoreSceneJson(shuffledObjects, key)).toEqual({ exact: true, componentScore: 1, correct: true });
    const withJunk = withChanges((s) => ((s.objects as unknown[]) = [...gold.objects, { type: "ball" }, { pos: [1, 1] }, "ball", null]));
    expect(scoreSceneJson(withJunk, key).exact).toBe(true);
    // the same type and position with another colour is another object
    const recoloured = withChanges((s) => (s.objects = [gold.objects[0], gold.objects[1], { ...gold.objects[2], color: "red" }]));
    expect(scoreSceneJson(recoloured, key).componentScore).toBeCloseTo(0.8 + 0.2 * (2 / 4), 12);
  });

  it("gives both empty object lists Jaccard 1, and one empty list 0", () => {
    const emptyKey: GridwmSceneJsonKey = { answer_json: { ...gold, objects: [] } as unknown as GridwmSceneJsonKey["answer_json"] };
    expect(
      scoreSceneJson(
        withChanges((s) => (s.objects = [])),
        emptyKey,
      ).exact,
    ).toBe(true);
    expect(scoreSceneJson(clone(gold), emptyKey).componentScore).toBe(0.8);
    expect(
      scoreSceneJson(
        withChanges((s) => (s.objects = [])),
        key,
      ).componentScore,
    ).toBe(0.8);
  });

  it.each([
    [3, 3],
    [3.0, 3],
    [true, 1],
    [false, 0],
    ["-3", -3],
    [" 12 ", 12],
    ["3.5", null],
    ["+3", null],
    ["--3", null],
    ["", null],
    [2.5, null],
    [[3], null],
    [null, null],
  ])("toInt(%j) = %j", (value, expected) => {
    expect(toInt(value)).toBe(expected);
  });

  it.each([
    [0, "0"],
    [2.0, "2"],
    [" 2 ", "2"],
    [true, "1"],
    [0.5, "0.5"],
    [1e-5, "1e-05"],
    [null, null],
    [[1, "a"], "[1, 'a']"],
    [{ a: true }, "{'a': True}"],
  ])("canonState(%j) = %j (Python's str)", (value, expected) => {
    expect(canonState(value)).toBe(expected);
  });
});

describe("Task B canonical text and agreement", () => {
  it("is the same for answers the scorer cannot tell apart, and differs otherwise", () => {
    const reordered = withChanges((s) => (s.objects = [gold.objects[1], gold.objects[2], gold.objects[0], gold.objects[1]]));
    expect(canonicalSceneString(reordered)).toBe(canonicalSceneString(gold));
    expect(canonicalSceneString(withChanges((s) => (s.agent.dir = 2)))).not.toBe(canonicalSceneString(gold));
  });

  it("offers nominal on the canonical scene and interval on the component score (which needs the score)", () => {
    const [exact, interval] = gridwmSceneJsonModule.agreementEncodings;
    expect(exact).toMatchObject({ id: "exact-nominal", level: "nominal" });
    expect(exact.units(clone(gold))).toEqual([{ unit: "", value: canonicalSceneString(gold) }]);
    expect(interval).toMatchObject({ id: "component-interval", level: "interval", needsContext: true });
    expect(interval.units(clone(gold))).toEqual([]);
    const score = scoreSceneJson(
      withChanges((s) => (s.agent.dir = 1)),
      key,
    );
    expect(interval.units(clone(gold), { key, score })).toEqual([{ unit: "", value: 0.9 }]);
  });
});

describe("Task B model answers (parse_task_b_json)", () => {
  const json = JSON.stringify(gold);

  it("is strict for a bare JSON object and for Yardstick's own answer objects", () => {
    expect(parseSceneJsonModelAnswer(`  ${json}\n`)).toEqual({ answer: gold, mode: "strict" });
    expect(parseSceneJsonModelAnswer(clone(gold))).toEqual({ answer: gold, mode: "strict" });
  });

  it("recovers JSON from a code fence or from the outermost braces", () => {
    expect(parseSceneJsonModelAnswer("```json\n" + json + "\n```")).toEqual({ answer: gold, mode: "recoverable" });
    expect(parseSceneJsonModelAnswer(`Here is the scene: ${json} Hope this helps.`)).toEqual({ answer: gold, mode: "recoverable" });
    expect(parseSceneJsonModelAnswer(`[${json}]`)).toEqual({ answer: gold, mode: "recoverable" });
  });

  it("repairs trailing commas (recoverable even when the text is only the object)", () => {
    const trailing = '{"agent": {"pos": [6, 3], "dir": 0, "carrying": null,}, "front_cell": {"pos": [6, 3], "type": "ball", "state": 0}, "objects": [],\n}';
    const parsed = parseSceneJsonModelAnswer(trailing);
    expect(parsed.mode).toBe("recoverable");
    expect(parsed.answer).toEqual({ agent: { pos: [6, 3], dir: 0, carrying: null }, front_cell: { pos: [6, 3], type: "ball", state: 0 }, objects: [] });
  });

  it.each([
    ["", "empty"],
    ["no json here", "no JSON object"],
    ["[1, 2]", "no JSON object"],
    ['{"a": 1} and {"b": 2}', "not JSON"],
    ["{'agent': None}", "not JSON"],
  ])("fails on %j (%s)", (text, reason) => {
    expect(parseSceneJsonModelAnswer(text)).toEqual({ answer: null, mode: "fail", reason });
  });

  it("fails on non-text, non-object input", () => {
    expect(parseSceneJsonModelAnswer(42).mode).toBe("fail");
    expect(gridwmSceneJsonModule.parseModelAnswer([gold])).toBeNull();
  });
});

describe("gridwm-scene-json module", () => {
  const pub: GridwmSceneJsonPublic = { image: "img/f.png", mission: "use the key to open the door and then get to the goal", gridSize: [7, 7] };
  const item: TaskItem<GridwmSceneJsonPublic, GridwmSceneJsonKey> = {
    id: "b1",
    kind: "gridwm-scene-json",
    public: pub,
    key: { ...key, modelPrompt: "SECRET PROMPT" },
    tags: { env: "doorkey" },
  };

  it("shows annotators the frame, mission, grid size and direction names, never the key", () => {
    const view = gridwmSceneJsonModule.publicView(item);
    expect(view).toEqual({
      image: "img/f.png",
      mission: pub.mission,
      gridSize: [7, 7],
      frame: "egocentric",
      dirEncoding: "spec",
      directions: ["north", "east", "south", "west"],
    });
    expect(gridwmSceneJsonModule.publicView({ ...item, public: { ...pub, gridSize: [16, 16], frame: "full-grid" } })).toMatchObject({
      gridSize: [16, 16],
      frame: "full-grid",
    });
    expect(JSON.stringify(view)).not.toContain("purple");
    expect(JSON.stringify(view)).not.toContain("SECRET");
  });

  it("says MiniGrid's direction names for items whose key uses agent_dir", () => {
    expect(gridwmSceneJsonModule.publicView({ ...item, public: { image: "x.png", dirEncoding: "minigrid" } })).toMatchObject({
      directions: ["east", "south", "west", "north"],
    });
  });

  it("renders the gold scene and its canonical text for reviewers", () => {
    expect(gridwmSceneJsonModule.reviewView(item)).toMatchObject({ answer_json: gold, canonical: canonicalSceneString(gold), modelPrompt: "SECRET PROMPT" });
  });

  it("takes grids of MiniGrid's sizes (3 to 64 a side), and says so for others", () => {
    expect(gridwmSceneJsonItemSchema.safeParse({ public: { ...pub, gridSize: [16, 16], frame: "full-grid" }, key }).success).toBe(true);
    const tiny = gridwmSceneJsonItemSchema.safeParse({ public: { ...pub, gridSize: [2, 9] }, key });
    expect(formatIssues(tiny.error!)).toContain("public.gridSize.0: a grid side is 3 to 64 cells");
    expect(gridwmSceneJsonItemSchema.safeParse({ public: { ...pub, gridSize: [65, 8] }, key }).success).toBe(false);
    expect(gridwmSceneJsonItemSchema.safeParse({ public: { ...pub, frame: "map" }, key }).success).toBe(false);
  });

  it("rejects a key position outside public.gridSize, naming the field", () => {
    const result = gridwmSceneJsonItemSchema.safeParse({ public: { ...pub, gridSize: [6, 6] }, key });
    expect(result.success).toBe(false);
    expect(formatIssues(result.error!)).toContain("key.answer_json.agent.pos: position [6, 3] is outside the 6x6 grid of public.gridSize");
  });

  it("takes only complete canonical answers from annotators, inside the grid", () => {
    const schema = gridwmSceneJsonModule.answerSchemaFor!(item);
    const answer = {
      agent: { pos: [1, 2], dir: 3, carrying: { type: "key", color: "yellow" } },
      front_cell: { pos: [0, 2], type: "wall", state: null },
      objects: [{ type: "door", pos: [3, 3], color: "yellow", state: 2 }],
    };
    expect(schema.safeParse(answer).success).toBe(true);
    expect(schema.safeParse({ ...answer, objects: [{ type: "door", pos: [7, 3], color: "yellow", state: 2 }] }).success).toBe(false);
    expect(schema.safeParse({ ...answer, agent: { ...answer.agent, dir: 4 } }).success).toBe(false);
    expect(schema.safeParse({ ...answer, front_cell: { pos: [0, 2], type: "wall", state: "closed" } }).success).toBe(false);
    expect(schema.safeParse({ agent: answer.agent, objects: [] }).success).toBe(false);
  });

  it("aggregates Acc_B (exact), Acc_B_component (>= 0.90) and the mean component score", () => {
    const scores = [
      scoreSceneJson(clone(gold), key),
      scoreSceneJson(
        withChanges((s) => (s.agent.dir = 1)),
        key,
      ),
      scoreSceneJson({}, key),
    ];
    expect(gridwmSceneJsonModule.aggregate(scores)).toMatchObject({ Acc_B: 1 / 3, Acc_B_component: 2 / 3, meanComponentScore: (1 + 0.9 + 0.15) / 3 });
    expect(gridwmSceneJsonModule.aggregate([])).toMatchObject({ Acc_B: null, Acc_B_component: null, meanComponentScore: null });
  });
});

describe("Task B: what can be read from the frame", () => {
  // as the released exams: MiniGrid's agent_dir (0 east), the agent's own view, every object of the grid in the gold
  const egoGold = {
    agent: { pos: [3, 4], dir: 0, carrying: { type: "key", color: "yellow" } },
    front_cell: { pos: [4, 4], type: "door", state: 2 },
    objects: [
      { type: "ball", pos: [1, 1], color: "blue", state: 0 },
      { type: "door", pos: [4, 4], color: "yellow", state: 2 },
      { type: "goal", pos: [6, 6], color: "green", state: 0 },
    ],
  };
  const egoItem: TaskItem<GridwmSceneJsonPublic, GridwmSceneJsonKey> = {
    id: "B.doorkey.g.t1",
    kind: "gridwm-scene-json",
    public: { image: "ego.png", frame: "egocentric", dirEncoding: "minigrid", gridSize: [8, 8] },
    key: { answer_json: egoGold as GridwmSceneJsonKey["answer_json"] },
    tags: {},
  };
  const mapItem: TaskItem<GridwmSceneJsonPublic, GridwmSceneJsonKey> = { ...egoItem, public: { ...egoItem.public, frame: "full-grid" } };

  it("classifies each field of an egocentric item: pose and world positions cannot be read, what is carried and the front cell's contents can", () => {
    const fields = sceneFieldReadability(egoItem);
    expect(Object.fromEntries(fields.map((field) => [field.field, field.readable]))).toEqual({
      "agent.pos": false,
      "agent.dir": false,
      "agent.carrying": true,
      "front_cell.pos": false,
      "front_cell.type": true,
      "front_cell.state": true,
      objects: false,
    });
    // the ball behind the agent is outside its 7x7 view: the frame cannot show it at all
    expect(fields.find((field) => field.field === "objects")!.why).toMatch(/1 of the 3 objects lie outside the agent's 7x7 view/);
    expect(sceneFieldReadability(mapItem).every((field) => field.readable)).toBe(true);
  });

  it("scores the readable fields beside Acc_B, and the ceiling the frame allows", () => {
    const right = gridwmSceneJsonModule.score(clone(egoGold), egoItem.key, egoItem);
    expect(right).toMatchObject({ exact: true, componentScore: 1, readable: { right: 3, of: 3 }, ceiling: { exact: false, componentScore: 0.15 } });
    // everything the frame shows, right; the world pose guessed wrong: 3 of 3 readable fields, not exact
    const seen = {
      ...clone(egoGold),
      agent: { pos: [1, 6], dir: 3, carrying: { type: "key", color: "yellow" } },
      front_cell: { pos: [1, 5], type: "door", state: 2 },
      objects: [],
    };
    const partial = gridwmSceneJsonModule.score(seen, egoItem.key, egoItem);
    expect(partial).toMatchObject({ exact: false, readable: { right: 3, of: 3 } });
    const onMap = gridwmSceneJsonModule.score(clone(egoGold), mapItem.key, mapItem);
    expect(onMap).toMatchObject({ readable: { right: 7, of: 7 }, ceiling: { exact: true, componentScore: 1 } });
    expect(gridwmSceneJsonModule.aggregate([right, partial, onMap])).toMatchObject({
      Acc_B: 2 / 3,
      readableFieldScore: 1,
      Acc_B_ceiling: 1 / 3,
      componentCeiling: (0.15 + 0.15 + 1) / 3,
    });
    // scores stored before the classification have none: left out of those figures, not counted as 0
    expect(gridwmSceneJsonModule.aggregate([scoreSceneJson(clone(gold), key)])).toMatchObject({ Acc_B: 1, readableFieldScore: null, Acc_B_ceiling: null });
  });
});
