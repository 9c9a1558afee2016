import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { convertEnactReleaseLine, isEnactReleaseLine, parseActionList } from "@/lib/tasks/shared/enact/release";
import { getTaskModule } from "@/lib/tasks";
import { formatIssues } from "@/lib/tasks/format-issues";

// the 16 real items from ENACT's data viewer (data/enact-sample/README.md)
const samplePath = path.resolve(import.meta.dirname, "../../../../data/enact-sample/QA/enact_ordering_sample.jsonl");
const sampleLines = readFileSync(samplePath, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as Record<string, unknown>);
const file = "enact_ordering_sample.jsonl";

function convertAll() {
  return sampleLines.map((line, i) => convertEnactReleaseLine(line, { file, line: i + 1 }));
}

describe("ENACT release conversion on the 16 real items", () => {
  it("detects every line as a release line", () => {
    expect(sampleLines).toHaveLength(16);
    for (const line of sampleLines) expect(isEnactReleaseLine(line)).toBe(true);
  });

  it("converts the first line: 1-based gt_answer to 0-based order, 9 ordered actions, 9 candidates", () => {
    const item = convertAll()[0];
    expect(item.id).toBe("preparing_lunch_box_1748410854863188_forward_world_modeling_ordering_10_steps_a57a5da4");
    expect(item.kind).toBe("enact-forward");
    expect(item.key).toEqual({ order: [0, 5, 4, 3, 7, 2, 6, 1, 8] });
    expect(item.tags).toEqual({ steps: 10, activity: "preparing_lunch_box", source: "enact-release" });
    expect(item.practice).toBe(false);
    expect(item.gold).toBe(false);
    const pub = item.public as { initialImage: string; actions: string[]; candidates: string[] };
    expect(pub.actions).toHaveLength(9);
    expect(pub.actions[0]).toBe("The packing box is no longer on top of and touching the countertop.");
    expect(pub.actions[8]).toBe("The chocolate chip cookie changes to be inside the packing box.");
    const images = sampleLines[0].images as string[];
    expect(pub.initialImage).toBe(images[0]);
    expect(pub.initialImage).toMatch(/^QA\/images\/.*_cur_state\.png$/);
    expect(pub.candidates).toEqual(images.slice(1));
  });

  it("converts an inverse line: the ordered observations and the shuffled action texts", () => {
    const index = sampleLines.findIndex((line) => line.type === "inverse_world_modeling_ordering_10_steps");
    const item = convertAll()[index];
    expect(item.kind).toBe("enact-inverse");
    const pub = item.public as { observations: string[]; candidates: string[] };
    expect(pub.observations).toEqual(sampleLines[index].images);
    expect(pub.candidates).toHaveLength(9);
    expect(pub.candidates[0]).toBe("The straight chair stopped being on top of and touching the floors.");
    expect(pub.candidates[8]).toBe("The fridge transitions to be open.");
    expect(item.key.order).toEqual([3, 8, 4, 6, 0, 1, 2, 5, 7]);
    expect(item.tags).toEqual({ steps: 10, activity: "cleaning_up_plates_and_food", source: "enact-release" });
  });

  it("gives every item a valid native form, one per task and step count", () => {
    const items = convertAll();
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const taskModule = getTaskModule(item.kind);
      const checked = taskModule.itemSchema!.safeParse({ public: item.public, key: item.key });
      expect(checked.success, checked.success ? "" : formatIssues(checked.error)).toBe(true);
      expect(item.key.order.map((index) => index + 1)).toEqual(sampleLines[i].gt_answer);
      expect(item.key.order).toHaveLength(item.tags.steps - 1);
      seen.add(`${item.kind}/${item.tags.steps}`);
    });
    expect(seen.size).toBe(16);
    // and the converted key scores its own gt_answer as exact
    for (const item of items) {
      expect(getTaskModule(item.kind).score({ order: item.key.order }, item.key, item)).toMatchObject({
        accepted: true,
        exact: true,
        semanticAvailable: false,
      });
    }
  });
});

describe("ENACT release conversion errors name file, line and field", () => {
  const first = sampleLines[0];
  const inverse = sampleLines.find((line) => String(line.type).startsWith("inverse"))!;

  function errorOf(obj: unknown): AppError {
    try {
      convertEnactReleaseLine(obj, { file: "QA/broken.jsonl", line: 7 });
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    }
    throw new Error("expected the conversion to fail");
  }

  it.each([
    ["a repeated label", { ...first, gt_answer: [1, 1, 5, 4, 8, 3, 7, 2, 9] }, "gt_answer", "permutation of 1..9"],
    ["0-based labels", { ...first, gt_answer: [0, 5, 4, 3, 7, 2, 6, 1, 8] }, "gt_answer", "permutation of 1..9"],
    ["a label too few", { ...first, gt_answer: [1, 6, 5, 4, 8, 3, 7, 2] }, "gt_answer", "8 labels but the question lists 9 actions"],
    ["non-integer labels", { ...first, gt_answer: ["1", "2"] }, "gt_answer", "integer labels"],
    ["an image too few", { ...first, images: (first.images as string[]).slice(0, 9) }, "images", "needs 10 images, got 9"],
    ["an unknown type", { ...first, type: "forward_world_modeling_matching_10_steps" }, "type", "forward_world_modeling_ordering_<n>_steps"],
    ["a type whose step count disagrees with the data", { ...first, type: "forward_world_modeling_ordering_9_steps" }, "images", "needs 9 images"],
    ["no id", { ...first, id: undefined }, "id", "non-empty string"],
    ["no task_name", { ...first, task_name: 5 }, "task_name", "non-empty string"],
    [
      "a forward line without its action section",
      { ...first, question: String(first.question).replace("## Actions in Order", "## Actions") },
      "question",
      'no "## Actions in Order" section',
    ],
    [
      "an inverse prompt under a forward type",
      { ...inverse, type: String(inverse.type).replace("inverse", "forward") },
      "question",
      'no "## Actions in Order" section',
    ],
    [
      "a gap in the action labels",
      { ...first, question: String(first.question).replace("[Action 4]", "[Action 5]") },
      "question",
      '"[Action 5]" found where "[Action 4]" was expected',
    ],
    [
      "an action removed from the prompt",
      { ...first, question: String(first.question).replace(/\[Action 9\][^\n]*\n/, "") },
      "gt_answer",
      "9 labels but the question lists 8 actions",
    ],
  ])("refuses %s", (_, obj, field, message) => {
    const error = errorOf(obj);
    expect(error.message).toMatch(new RegExp(`^QA/broken\\.jsonl line 7: ${field}: `));
    expect(error.message).toContain(message);
    expect(error.details).toEqual({ file: "QA/broken.jsonl", line: 7, field });
  });

  it("refuses a line that is not an object", () => {
    expect(errorOf([1, 2]).message).toBe("QA/broken.jsonl line 7: (line): expected a JSON object");
  });
});

describe("isEnactReleaseLine and parseActionList", () => {
  it("tells release lines from native item lines", () => {
    expect(isEnactReleaseLine({ id: "x", kind: "enact-forward", public: {}, key: {} })).toBe(false);
    expect(isEnactReleaseLine({ id: "x", type: "forward_world_modeling_ordering_3_steps", question: "" })).toBe(true);
    expect(isEnactReleaseLine({ gt_answer: [1] })).toBe(true);
    expect(isEnactReleaseLine(null)).toBe(false);
    expect(isEnactReleaseLine([{ gt_answer: [1] }])).toBe(false);
  });

  it("joins an action that wraps over lines and stops at the closing sentence", () => {
    const question =
      "Intro [Action 9] is not here\n## Shuffled Actions\n[Action 1] The fridge\n  opens.\n[Action 2] It closes.\n\nNow please provide your answer in the requested format.\n";
    expect(parseActionList(question, "## Shuffled Actions")).toEqual(["The fridge opens.", "It closes."]);
  });
});
