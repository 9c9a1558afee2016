import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { convertGridwmExamLine, isGridwmExamLine, parseExamAction, parseExamId } from "@/lib/tasks/shared/gridwm/exam";
import { isEnactReleaseLine } from "@/lib/tasks/shared/enact/release";
import { readBatchSource } from "@/lib/import/source";
import { formatIssue } from "@/lib/import/types";
import { collectItems, validateBatch } from "@/lib/import/validate";
import { getTaskModule } from "@/lib/tasks";
import { image, jsonl, removeTempFolders, writeFolder, type BatchFiles } from "@/tests/fixtures/import-batches";

afterAll(removeTempFolders);

// Lines as build_exam.py writes them (prompts as in its source)
const promptA =
  "Action: toggle (id=5).\nOn the left is the current state. On the right is a 2x2 grid of candidates (A, B, C, D).\nSelect the correct next state o_{t+1}.";
const lineA = {
  exam_id: "A.doorkey.doorkey_s000012.t7",
  task: "A",
  env_task: "doorkey",
  action: "toggle (id=5)",
  image: "images/taskA/doorkey/doorkey_s000012_t7.png",
  prompt: promptA,
  answer: "C",
  label: 2,
};
const goldB = {
  agent: { pos: [3, 4], dir: 0, carrying: { type: "key", color: "yellow" } },
  front_cell: { pos: [4, 4], type: "door", state: 2 },
  objects: [
    { type: "door", pos: [4, 4], color: "yellow", state: 2 },
    { type: "goal", pos: [6, 6], color: "green", state: null },
  ],
};
const lineB = {
  exam_id: "B.lavagap.lavagap_s000003.t2",
  task: "B",
  image: "images/taskB/lavagap/lavagap_s000003_t2.png",
  answer_json: goldB,
  answer: JSON.stringify(goldB),
};
const lineC = (variant: string, temporal: string, visual: string, success: boolean) => ({
  exam_id: `C.memory.memory_s000040.${variant}.${temporal}.${visual}`,
  task: "C",
  variant,
  visual,
  image: `images/taskC/memory/memory_s000040/${variant}_${temporal}_${visual}.png`,
  prompt: "Evaluate agent success based on storyboard.",
  answer: success ? "Success" : "Fail",
  label: success ? 1 : 0,
});
const position = { file: "task_a_exam.jsonl", line: 3 };

function conversionError(line: unknown): AppError {
  try {
    convertGridwmExamLine(line, position);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected the conversion to fail");
}

describe("exam ids (score_exam.py parse_exam_id)", () => {
  it("reads the three forms", () => {
    expect(parseExamId("A.doorkey.doorkey_s000012.t7")).toEqual({ task: "A", env: "doorkey", group: "doorkey_s000012", step: 7 });
    expect(parseExamId("B.lavagap.g3.t0")).toEqual({ task: "B", env: "lavagap", group: "g3", frame: 0 });
    expect(parseExamId("C.memory.g1.cf.rev")).toEqual({ task: "C", env: "memory", group: "g1", variant: "cf", temporal: "rev" });
    expect(parseExamId("C.memory.g1.cf.rev.noisy")).toMatchObject({ visual: "noisy" });
  });

  it.each(["D.x.y.t1", "A.doorkey.g.7", "A.doorkey.t7", "C.memory.g1.cf", "C.a.b.c.d.e.f", "A..g.t1"])("refuses %j", (id) => {
    expect(typeof parseExamId(id)).toBe("string");
  });

  it("reads actions as '<name> (id=<n>)' or a bare name, and catches a name that contradicts its id", () => {
    expect(parseExamAction("forward (id=2)")).toBe("forward");
    expect(parseExamAction("action_3 (id=3)")).toBe("pickup");
    expect(parseExamAction("Left")).toBe("left");
    expect(parseExamAction("left (id=1)")).toBe('"left (id=1)" names left but id 1 is right');
    expect(parseExamAction("jump")).toMatch(/^expected "<name> \(id=<0-6>\)"/);
    expect(parseExamAction("x (id=9)")).toBe("action id 9 is not a MiniGrid action (0 left ... 6 done)");
  });
});

describe("convertGridwmExamLine", () => {
  it("is told apart from native and ENACT lines", () => {
    expect(isGridwmExamLine(lineA)).toBe(true);
    expect(isEnactReleaseLine(lineA)).toBe(false);
    expect(isGridwmExamLine({ ...lineA, kind: "gridwm-next-obs" })).toBe(false);
    expect(isGridwmExamLine({ id: "x" })).toBe(false);
  });

  it("converts Task A: the composite image, the action name, the gold letter, the prompt kept in the key", () => {
    expect(convertGridwmExamLine(lineA, position)).toEqual({
      id: "A.doorkey.doorkey_s000012.t7",
      kind: "gridwm-next-obs",
      public: { image: "images/taskA/doorkey/doorkey_s000012_t7.png", action: "toggle" },
      key: { answer: "C", modelPrompt: promptA },
      tags: { env: "doorkey", group: "doorkey_s000012", step: 7, action: "toggle", transition: "interact", source: "gridwm-exam" },
      practice: false,
      gold: false,
    });
  });

  it("takes the letter from label when answer is unusable, as the authors' scorer, and a trimmed lower-case answer", () => {
    expect(convertGridwmExamLine({ ...lineA, answer: "" }, position).key).toMatchObject({ answer: "C" });
    expect(convertGridwmExamLine({ ...lineA, answer: " c ", label: undefined }, position).key).toMatchObject({ answer: "C" });
  });

  it("converts Task B: the gold scene as the key, MiniGrid's direction encoding, tags from the id", () => {
    const item = convertGridwmExamLine(lineB, position);
    expect(item).toMatchObject({
      id: lineB.exam_id,
      kind: "gridwm-scene-json",
      public: { image: lineB.image, dirEncoding: "minigrid" },
      key: { answer_json: goldB },
      tags: { env: "lavagap", group: "lavagap_s000003", frame: 2, source: "gridwm-exam" },
    });
    // answer_json missing: the JSON text in answer is read instead
    expect(convertGridwmExamLine({ ...lineB, answer_json: undefined }, position).key).toEqual({ answer_json: goldB });
  });

  it("gives Task B items their environment's grid size and says the frame is the agent's own view", () => {
    const sizeOf = (env: string) => convertGridwmExamLine({ ...lineB, exam_id: `B.${env}.${env}_s000003.t2` }, position).public.gridSize;
    // MiniGrid's sizes of the generators' environments (MultiRoom-N6 25x25, RedBlueDoors-8x8 16x8, ...)
    expect(sizeOf("multiroom")).toEqual([25, 25]);
    expect(sizeOf("redblue")).toEqual([16, 8]);
    expect(sizeOf("doorkey")).toEqual([8, 8]);
    expect(sizeOf("lavagap")).toEqual([7, 7]);
    expect(sizeOf("keycorridor")).toEqual([16, 16]);
    expect(sizeOf("memory")).toEqual([17, 17]);
    expect(convertGridwmExamLine(lineB, position).public.frame).toBe("egocentric");
    // a gold position past the environment's size is the release's word: the grid grows to hold it, it is not refused
    const far = { ...goldB, agent: { ...goldB.agent, pos: [9, 4] } };
    expect(convertGridwmExamLine({ ...lineB, answer_json: far }, position).public.gridSize).toEqual([10, 7]);
    // an environment the generators do not have: no size (the item says nothing it cannot know)
    expect(convertGridwmExamLine({ ...lineB, exam_id: "B.unknown.u_s1.t0" }, position).public.gridSize).toBeUndefined();
  });

  it("converts Task C: verdict from answer (checked against label), probe tags from the id and the record", () => {
    expect(convertGridwmExamLine(lineC("nocue", "rev", "style", true), position)).toEqual({
      id: "C.memory.memory_s000040.nocue.rev.style",
      kind: "gridwm-judge",
      public: { storyboard: "images/taskC/memory/memory_s000040/nocue_rev_style.png" },
      key: { answer: "Success", modelPrompt: "Evaluate agent success based on storyboard." },
      tags: { env: "memory", group: "memory_s000040", variant: "nocue", temporal: "rev", visual: "style", source: "gridwm-exam" },
      practice: false,
      gold: false,
    });
    // a five-part id takes visual from the record (score_exam.py: r.get("visual") or info.get("visual"))
    const fivePart = { ...lineC("cf", "orig", "noisy", false), exam_id: "C.memory.memory_s000040.cf.orig" };
    expect(convertGridwmExamLine(fivePart, position)).toMatchObject({ key: { answer: "Fail" }, tags: { variant: "cf", temporal: "orig", visual: "noisy" } });
    // neither: no visual tag (counts as clean)
    const bare = { exam_id: "C.memory.g.full.orig", image: "s.png", answer: "success" };
    expect(convertGridwmExamLine(bare, position).tags).toEqual({ env: "memory", group: "g", variant: "full", temporal: "orig", source: "gridwm-exam" });
  });

  it.each([
    [{ ...lineA, exam_id: "A.doorkey.g" }, "exam_id", 'expected "A.<env>.<group>.t<step>", got "A.doorkey.g"'],
    [{ ...lineA, exam_id: 7 }, "exam_id", "expected a non-empty string"],
    [{ ...lineA, task: "B" }, "task", 'exam_id names task A but task is "B"'],
    [{ ...lineA, env_task: "memory" }, "env_task", 'exam_id names environment "doorkey" but env_task is "memory"'],
    [{ ...lineA, label: 1 }, "label", "label 1 is letter B but answer is C"],
    [{ ...lineA, answer: "E", label: undefined }, "answer", 'expected a letter A-D (or a label 0..3), got "E"'],
    [
      { ...lineA, action: "jump" },
      "action",
      'expected "<name> (id=<0-6>)" or a MiniGrid action name (left, right, forward, pickup, drop, toggle, done), got "jump"',
    ],
    [{ ...lineA, image: "" }, "image", "expected the path of the composite image"],
    [{ ...lineB, answer_json: { ...goldB, agent: { ...goldB.agent, pos: [3] } } }, "answer_json.agent.pos", "a position is [x, y]: two non-negative integers"],
    [{ ...lineB, answer_json: { ...goldB, agent: { ...goldB.agent, dir: 5 } } }, "answer_json.agent.dir", "dir is 0..3"],
    [{ ...lineB, answer_json: undefined, answer: "not json" }, "answer", "answer_json is missing and answer is not JSON text"],
    [{ ...lineC("cf", "orig", "clean", false), label: 1 }, "label", "label 1 means Success but answer is Fail"],
    [{ ...lineC("cf", "orig", "clean", false), variant: "full" }, "variant", 'exam_id names variant "cf" but variant is "full"'],
    [{ ...lineC("cf", "orig", "clean", false), visual: "noisy" }, "visual", 'exam_id names visual "clean" but visual is "noisy"'],
    [{ ...lineC("cf", "orig", "clean", false), answer: "Maybe" }, "answer", 'expected "Success" or "Fail", got "Maybe"'],
  ])("names the field of a broken line: %#", (line, field, message) => {
    const error = conversionError(line);
    expect(error.message).toBe(`task_a_exam.jsonl line 3: ${field}: ${message}`);
    expect(error.details).toEqual({ file: "task_a_exam.jsonl", line: 3, field });
  });
});

/** An exam folder as build_exam.py writes it: three exam files and the images they name. */
async function examFolder(lines: { a?: unknown[]; b?: unknown[]; c?: unknown[] }, extra: BatchFiles = {}): Promise<string> {
  const files: BatchFiles = { "manifest.json": "{}\n" };
  const all = [...(lines.a ?? []), ...(lines.b ?? []), ...(lines.c ?? [])] as Array<{ image?: unknown }>;
  for (const line of all) if (typeof line.image === "string" && !(line.image in files)) files[line.image] = await image(`exam:${line.image}`);
  if (lines.a) files["task_a_exam.jsonl"] = jsonl(lines.a);
  if (lines.b) files["task_b_exam.jsonl"] = jsonl(lines.b);
  if (lines.c) files["task_c_exam.jsonl"] = jsonl(lines.c);
  return writeFolder({ ...files, ...extra }, "exams");
}

describe("importing exam files as they are", () => {
  const cLines = [lineC("full", "orig", "clean", true), lineC("full", "rev", "clean", true), lineC("cf", "orig", "noisy", false)];

  it("finds the three exam files in a folder and converts every line", async () => {
    const folder = await examFolder({ a: [lineA], b: [lineB], c: cLines });
    const source = await readBatchSource({ folder });
    expect(source.itemsFiles).toEqual([
      { path: "task_a_exam.jsonl", format: "gridwm-exam" },
      { path: "task_b_exam.jsonl", format: "gridwm-exam" },
      { path: "task_c_exam.jsonl", format: "gridwm-exam" },
    ]);
    const result = await validateBatch(source);
    expect(result.issues).toEqual([]);
    expect(result.items.map((item) => [item.externalId, item.kind, item.file, item.line])).toEqual([
      ["A.doorkey.doorkey_s000012.t7", "gridwm-next-obs", "task_a_exam.jsonl", 1],
      ["B.lavagap.lavagap_s000003.t2", "gridwm-scene-json", "task_b_exam.jsonl", 1],
      ["C.memory.memory_s000040.full.orig.clean", "gridwm-judge", "task_c_exam.jsonl", 1],
      ["C.memory.memory_s000040.full.rev.clean", "gridwm-judge", "task_c_exam.jsonl", 2],
      ["C.memory.memory_s000040.cf.orig.noisy", "gridwm-judge", "task_c_exam.jsonl", 3],
    ]);
    const full = await collectItems(result);
    const [a, b, c] = full;
    expect(a.public).toEqual({ image: expect.stringMatching(/^\/api\/assets\/[0-9a-f]{64}$/), action: "toggle" });
    expect(a.key).toEqual({ answer: "C", modelPrompt: promptA });
    expect(a.tags).toMatchObject({ env: "doorkey", transition: "interact" });
    expect(b.key).toEqual({ answer_json: goldB });
    expect(c.tags).toEqual({ env: "memory", group: "memory_s000040", variant: "full", temporal: "orig", visual: "clean", source: "gridwm-exam" });
    // the public part an annotator receives holds no gold and no prompt
    for (const item of full) {
      const view = JSON.stringify(
        getTaskModule(item.kind).publicView({ id: item.externalId, kind: item.kind, public: item.public, key: item.key, tags: item.tags }),
      );
      expect(view).not.toMatch(/Evaluate agent|Select the correct|"answer|"Success"|"Fail"/);
    }
    expect(result.assets.size).toBe(5);
  });

  it("reads one exam file given on its own, relative to its folder", async () => {
    const folder = await examFolder({ c: cLines });
    const source = await readBatchSource({ file: path.join(folder, "task_c_exam.jsonl") });
    expect(source.itemsFiles).toEqual([{ path: "task_c_exam.jsonl", format: "gridwm-exam" }]);
    expect((await validateBatch(source)).items).toHaveLength(3);
  });

  it("reports every broken line by file, line and field, and a missing image", async () => {
    const folder = await examFolder({
      a: [lineA, { ...lineA, exam_id: "A.doorkey.doorkey_s000013.t1", label: 3 }],
      c: [cLines[0], { ...cLines[1], exam_id: "C.memory.x" }],
    });
    const missingImage = { ...lineB, exam_id: "B.lavagap.lavagap_s000004.t0", image: "images/taskB/missing.png" };
    const folderWithMissing = await examFolder({ b: [lineB] }, { "task_b_exam.jsonl": jsonl([lineB, missingImage]) });
    const broken = await validateBatch(await readBatchSource({ folder }));
    expect(broken.issues.map(formatIssue)).toEqual([
      "task_a_exam.jsonl line 2, field label: label 3 is letter D but answer is C",
      'task_c_exam.jsonl line 2, field exam_id: expected "C.<env>.<group>.<variant>.<temporal>[.<visual>]", got "C.memory.x"',
    ]);
    const missing = await validateBatch(await readBatchSource({ folder: folderWithMissing }));
    expect(missing.issues.map(formatIssue)).toEqual(['task_b_exam.jsonl line 2, field public.image: image "images/taskB/missing.png" not found in the batch']);
  });
});
