import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { runScoreCli, runScoreCommand, scoreFiles } from "@/lib/cli/score";

const jsonl = (...lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n") + "\n";

// forward with states: grasp, release, grasp (frames after steps 0 and 2 look alike)
const forwardItem = {
  id: "fw-1",
  kind: "enact-forward",
  public: {
    initialImage: "img/s0.png",
    actions: ["grasp the cup", "release the cup", "grasp the cup"],
    candidates: ["img/c0.png", "img/c1.png", "img/c2.png"],
  },
  key: {
    order: [1, 2, 0],
    states: { initial: [], candidates: [["Grasp(cup)", "At(cup,p2)"], ["Grasp(cup)", "At(cup,p1)"], ["At(cup,p1)"]] },
    hidden: ["At(cup,p1)", "At(cup,p2)"],
  },
  tags: { steps: 4 },
  practice: false,
  gold: false,
};
// forward without states: exact order only
const forwardPlain = {
  id: "fw-2",
  kind: "enact-forward",
  public: { initialImage: "a.png", actions: ["x", "y", "z", "w"], candidates: ["b.png", "c.png", "d.png", "e.png"] },
  key: { order: [2, 0, 1, 3] },
  tags: {},
  practice: false,
  gold: false,
};
const inverseItem = {
  id: "inv-1",
  kind: "enact-inverse",
  public: { observations: ["o0.png", "o1.png", "o2.png"], candidates: ["close it", "open it"] },
  key: { order: [1, 0] },
  tags: {},
  practice: false,
  gold: false,
};

describe("runScoreCommand", () => {
  it("scores one kind: per item id then score fields, aggregate TA and PA", () => {
    const output = JSON.parse(
      runScoreCommand(
        jsonl(forwardItem, forwardPlain),
        jsonl(
          { id: "fw-1", answer: { order: [0, 2, 1] } }, // semantic match
          { id: "fw-2", answer: "My answer: [3, 2, 1, 4]" }, // model text, 1-based: [2, 1, 0, 3] -> 2 of 4
        ),
      ),
    );
    expect(output).toEqual({
      items: [
        { id: "fw-1", accepted: true, exact: false, correctPairs: 3, L: 3, semanticAvailable: true },
        { id: "fw-2", accepted: false, exact: false, correctPairs: 2, L: 4, semanticAvailable: false },
      ],
      // TA = 1 / 2; PA = (3 + 2) / (3 + 4); PA_item = (3 / 3 + 2 / 4) / 2
      aggregate: { TA: 0.5, PA: 5 / 7, PA_item: 0.75 },
    });
  });

  it("keys the aggregate by kind when kinds are mixed, and tags each item with its kind", () => {
    const output = JSON.parse(
      runScoreCommand(jsonl(forwardItem, inverseItem), jsonl({ id: "inv-1", answer: { order: [1, 0] } }, { id: "fw-1", answer: { order: [2, 1] } })),
    );
    expect(output.items).toEqual([
      { id: "inv-1", kind: "enact-inverse", accepted: true, exact: true, correctPairs: 2, L: 2, semanticAvailable: false },
      // shorter answer: predicted r1 then r0: P0 = {+At(p1)} fails C0 = {+Grasp}; P1 = {+Grasp} passes C0 or C2:
      // best alignment 1 pair of max(3, 2)
      { id: "fw-1", kind: "enact-forward", accepted: false, exact: false, correctPairs: 1, L: 3, semanticAvailable: true },
    ]);
    expect(output.aggregate).toEqual({
      "enact-forward": { TA: 0, PA: 1 / 3, PA_item: 1 / 3 },
      "enact-inverse": { TA: 1, PA: 1, PA_item: 1 },
    });
  });

  it("scores ENACT's release format as it is (converted first)", () => {
    const release = readFileSync(path.resolve(import.meta.dirname, "../../data/enact-sample/QA/enact_ordering_sample.jsonl"), "utf8");
    const lines = release
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string; type: string; gt_answer: number[] });
    const forward = lines.filter((line) => line.type.startsWith("forward"));
    // the model gets the first forward item right and reverses the rest (1-based labels in text)
    const answers = forward.map((line, i) => ({
      id: line.id,
      answer: `[${(i === 0 ? line.gt_answer : [...line.gt_answer].reverse()).join(", ")}]`,
    }));
    const output = JSON.parse(runScoreCommand(release, jsonl(...answers), { items: "QA/enact_ordering_sample.jsonl" }));
    expect(output.items).toHaveLength(8);
    expect(output.items[0]).toMatchObject({ accepted: true, correctPairs: 9, L: 9, semanticAvailable: false });
    expect(output.aggregate.TA).toBe(1 / 8);
    // a reversed order of odd length L keeps its middle step: L = 2 (cook_cabbage [2,1]) keeps none,
    // L = 3, 5, 7 keep 1 each; L = 4, 6, 8 none. PA = (9 + 0 + 1 + 0 + 1 + 0 + 1 + 0) / (9+2+3+4+5+6+7+8)
    expect(output.aggregate.PA).toBeCloseTo(12 / 44, 12);
  });

  it("aggregates an empty answers file to nulls", () => {
    expect(JSON.parse(runScoreCommand(jsonl(forwardItem), ""))).toEqual({ items: [], aggregate: { TA: null, PA: null, PA_item: null } });
  });
});

describe("runScoreCommand errors name the file and line", () => {
  const items = jsonl(forwardItem, inverseItem);

  it.each([
    ["an answer line without an id", items, jsonl({ id: "fw-1", answer: { order: [1, 2, 0] } }, {}, { id: "x", answer: "[1]" }), "answers.jsonl line 2: id: "],
    [
      "an unknown item id (exact message)",
      items,
      jsonl({ id: "fw-1", answer: { order: [1, 2, 0] } }, { id: "inv-1", answer: [1, 2] }, { id: "x", answer: "[1]" }),
      'answers.jsonl line 3: unknown item id "x"',
    ],
    [
      "a second answer for an item",
      items,
      jsonl({ id: "inv-1", answer: [1, 2] }, { id: "inv-1", answer: [2, 1] }),
      'answers.jsonl line 2: second answer for item "inv-1" (first on line 1)',
    ],
    [
      "an unreadable answer",
      items,
      jsonl({ id: "inv-1", answer: "no idea" }),
      'answers.jsonl line 1: answer for item "inv-1" is not a readable enact-inverse answer',
    ],
    ["invalid JSON in answers", items, '{"id": "inv-1", "answer": [1, 2]}\n\n{oops\n', "answers.jsonl line 3: invalid JSON"],
    [
      "an unknown task kind",
      jsonl({ ...forwardItem, kind: "enact-sideways" }),
      "",
      'items.jsonl line 1: unknown task kind "enact-sideways"; known kinds: enact-forward, enact-inverse',
    ],
    [
      "an inconsistent item",
      jsonl(forwardItem, { ...inverseItem, key: { order: [0, 0] } }),
      "",
      'items.jsonl line 2: item "inv-1": key.order: order must be a permutation',
    ],
    ["a duplicate item id", jsonl(forwardItem, forwardItem), "", 'items.jsonl line 2: duplicate item id "fw-1" (first on line 1)'],
    ["an empty items file", "\n", "", "items.jsonl: no items"],
  ])("%s", (_, itemsText, answersText, message) => {
    expect(() => runScoreCommand(itemsText, answersText)).toThrow(AppError);
    expect(() => runScoreCommand(itemsText, answersText)).toThrow(message);
  });

  it("names a broken release line by file, line and field", () => {
    const release = {
      id: "r",
      type: "inverse_world_modeling_ordering_3_steps",
      task_name: "t_1",
      images: ["a", "b", "c"],
      question: "## Shuffled Actions\n[Action 1] a\n[Action 2] b\n",
      gt_answer: [2, 2],
    };
    expect(() => runScoreCommand(jsonl(forwardItem, release), "", { items: "QA/x.jsonl" })).toThrow(
      "QA/x.jsonl line 2: gt_answer: expected a permutation of 1..2, got [2, 2]",
    );
  });
});

describe("scoreFiles and runScoreCli", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "yardstick-score-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const itemsPath = path.join(dir, "items.jsonl");
  const answersPath = path.join(dir, "answers.jsonl");
  writeFileSync(itemsPath, jsonl(inverseItem));
  writeFileSync(answersPath, jsonl({ id: "inv-1", answer: { order: [0, 1] } }, { id: "nope", answer: { order: [0] } }));

  it("reads the files and names them in errors", () => {
    expect(() => scoreFiles(itemsPath, answersPath)).toThrow(`${answersPath} line 2: unknown item id "nope"`);
    expect(() => scoreFiles(path.join(dir, "missing.jsonl"), answersPath)).toThrow("missing.jsonl: cannot read the file");
  });

  it("parses --items / --answers", () => {
    writeFileSync(answersPath, jsonl({ id: "inv-1", answer: { order: [0, 1] } }));
    const output = JSON.parse(runScoreCli(["--items", itemsPath, `--answers=${answersPath}`]));
    expect(output.aggregate).toEqual({ TA: 0, PA: 0, PA_item: 0 });
    expect(() => runScoreCli(["--items", itemsPath])).toThrow(
      "usage: yardstick score --items <items.jsonl> (--answers <answers.jsonl> | --run <a model-output file>)",
    );
    expect(() => runScoreCli(["--items", itemsPath, "--answers"])).toThrow("--answers needs a path");
    expect(() => runScoreCli(["--bogus"])).toThrow('unknown argument "--bogus"');
  });
});

describe("runScoreCommand with GridWM-Judge items", () => {
  const nextObs = {
    id: "a-1",
    kind: "gridwm-next-obs",
    public: { observation: "o.png", action: "forward", candidates: ["a.png", "b.png", "c.png", "d.png"] },
    key: { answer: "B" },
    tags: { env: "doorkey", transition: "move" },
  };
  const gold = {
    agent: { pos: [2, 3], dir: 1, carrying: null },
    front_cell: { pos: [3, 3], type: "empty", state: 0 },
    objects: [{ type: "key", pos: [1, 1], color: "yellow", state: 0 }],
  };
  const scene = { id: "b-1", kind: "gridwm-scene-json", public: { image: "f.png" }, key: { answer_json: gold }, tags: { env: "doorkey" } };
  const judge = (temporal: string, visual = "clean") => ({
    id: `c-${temporal}-${visual}`,
    kind: "gridwm-judge",
    public: { storyboard: `s-${temporal}-${visual}.png` },
    key: { answer: "Success" },
    tags: { env: "memory", group: "g1", variant: "full", temporal, visual },
  });
  const items = jsonl(nextObs, scene, judge("orig"), judge("rev"), forwardItem);

  it("prints one row per answer line in order, echoing annotators, and keys the aggregate by kind", () => {
    const output = JSON.parse(
      runScoreCommand(
        items,
        jsonl(
          { id: "a-1", annotator: "p1", answer: { choice: "B" } },
          { id: "a-1", annotator: "p2", answer: "I think it is A." },
          { id: "b-1", annotator: "p1", answer: { ...gold, agent: { ...gold.agent, dir: 2 } } },
          { id: "c-orig-clean", annotator: "p1", answer: { verdict: "Success" } },
          { id: "c-rev-clean", annotator: "p1", answer: "Fail" },
          { id: "c-orig-clean", annotator: 7, answer: "success" },
          { id: "c-rev-clean", annotator: 7, answer: "The agent succeeded: Success." },
          { id: "fw-1", answer: { order: [1, 2, 0] } },
        ),
      ),
    );
    expect(output.items).toEqual([
      { id: "a-1", annotator: "p1", kind: "gridwm-next-obs", correct: true },
      { id: "a-1", annotator: "p2", kind: "gridwm-next-obs", correct: false },
      // an egocentric frame (the default): 3 readable fields (carrying, the front cell's type and state), all right; no exact answer reachable from it
      {
        id: "b-1",
        annotator: "p1",
        kind: "gridwm-scene-json",
        exact: false,
        componentScore: 0.9,
        correct: true,
        readable: { right: 3, of: 3 },
        ceiling: { exact: false, componentScore: 0.15 },
      },
      { id: "c-orig-clean", annotator: "p1", kind: "gridwm-judge", correct: true },
      { id: "c-rev-clean", annotator: "p1", kind: "gridwm-judge", correct: false },
      { id: "c-orig-clean", annotator: 7, kind: "gridwm-judge", correct: true },
      { id: "c-rev-clean", annotator: 7, kind: "gridwm-judge", correct: true },
      { id: "fw-1", kind: "enact-forward", accepted: true, exact: true, correctPairs: 3, L: 3, semanticAvailable: true },
    ]);
    expect(output.aggregate).toEqual({
      "gridwm-next-obs": { Acc_A: 0.5 },
      "gridwm-scene-json": { Acc_B: 0, Acc_B_component: 1, meanComponentScore: 0.9, readableFieldScore: 1, Acc_B_ceiling: 0, componentCeiling: 0.15 },
      // p1 flips between orig and rev, annotator 7 does not: 1 of 2 temporal families consistent
      "gridwm-judge": { Acc_C: 0.75, JAcc_neu: 1, JCR_temp: 0.5, JCR_vis: null, JCR_frame: null },
      "enact-forward": { TA: 1, PA: 1, PA_item: 1 },
    });
  });

  it("gives one kind's metrics directly when only that kind is answered, without annotators as one judge", () => {
    const output = JSON.parse(runScoreCommand(items, jsonl({ id: "c-orig-clean", answer: "Success" }, { id: "c-rev-clean", answer: "Success" })));
    expect(output).toEqual({
      items: [
        { id: "c-orig-clean", correct: true },
        { id: "c-rev-clean", correct: true },
      ],
      aggregate: { Acc_C: 1, JAcc_neu: 1, JCR_temp: 1, JCR_vis: null, JCR_frame: null },
    });
  });

  it('refuses a second answer by the same annotator (1 and "1" are one annotator), and unreadable model text', () => {
    expect(() => runScoreCommand(items, jsonl({ id: "a-1", annotator: "1", answer: "A" }, { id: "a-1", annotator: 1, answer: "B" }))).toThrow(
      'answers.jsonl line 2: second answer for item "a-1" by annotator 1 (first on line 1)',
    );
    expect(() => runScoreCommand(items, jsonl({ id: "a-1", answer: "no letter here" }))).toThrow(
      'answers.jsonl line 1: answer for item "a-1" is not a readable gridwm-next-obs answer',
    );
    expect(() => runScoreCommand(items, jsonl({ id: "a-1", annotator: "", answer: "A" }))).toThrow(
      "answers.jsonl line 1: annotator: expected a non-empty annotator",
    );
  });

  it("scores the authors' exam files as they are (converted first)", () => {
    const exam = jsonl(
      {
        exam_id: "C.lavagap.g7.full.orig.clean",
        task: "C",
        variant: "full",
        visual: "clean",
        image: "x.png",
        prompt: "Evaluate agent success based on storyboard.",
        answer: "Success",
        label: 1,
      },
      {
        exam_id: "C.lavagap.g7.full.rev.clean",
        task: "C",
        variant: "full",
        visual: "clean",
        image: "y.png",
        prompt: "Evaluate agent success based on storyboard.",
        answer: "Success",
        label: 1,
      },
      { exam_id: "B.lavagap.g7.t3", task: "B", image: "z.png", answer_json: gold, answer: JSON.stringify(gold) },
    );
    const output = JSON.parse(
      runScoreCommand(
        exam,
        jsonl(
          { id: "C.lavagap.g7.full.orig.clean", answer: "Success" },
          { id: "C.lavagap.g7.full.rev.clean", answer: "Fail" },
          { id: "B.lavagap.g7.t3", answer: "```json\n" + JSON.stringify(gold) + "\n```" },
        ),
      ),
    );
    expect(output.aggregate["gridwm-judge"]).toEqual({ Acc_C: 0.5, JAcc_neu: 1, JCR_temp: 0, JCR_vis: null, JCR_frame: null });
    expect(output.items[2]).toEqual({
      id: "B.lavagap.g7.t3",
      kind: "gridwm-scene-json",
      exact: true,
      componentScore: 1,
      correct: true,
      readable: { right: 3, of: 3 },
      ceiling: { exact: false, componentScore: 0.15 },
    });
    expect(() => runScoreCommand(jsonl({ exam_id: "C.lavagap.g7" }), "", { items: "task_c_exam.jsonl" })).toThrow(
      "task_c_exam.jsonl line 1: exam_id: expected",
    );
  });
});
