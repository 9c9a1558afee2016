import { describe, expect, it } from "vitest";
import { readModelRunFile } from "@/lib/models/run-file";

/** Each benchmark's model-output shape, as its release or scorer writes it, read as a run's answers with their places. */

const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const answers = (text: string) => readModelRunFile(text).answers.map(({ id, answer }) => [id, answer]);

describe("readModelRunFile", () => {
  it("reads OpenEQA's results list [{question_id, answer}]", () => {
    const text = pretty([
      { question_id: "q-1", answer: "The sofa is red." },
      { question_id: "q-2", answer: "Two" },
    ]);
    const read = readModelRunFile(text);
    expect(read.format).toBe("openeqa-results");
    expect(read.errors).toEqual([]);
    expect(read.answers).toEqual([
      { place: "entry 1 (line 2)", line: 2, entry: 1, id: "q-1", answer: "The sofa is red." },
      { place: "entry 2 (line 6)", line: 6, entry: 2, id: "q-2", answer: "Two" },
    ]);
  });

  it("reads EgoSchema's {q_uid: 0-4} and BLINK's {idx: \"(D)\"}", () => {
    expect(readModelRunFile('{"aaaa-1": 0, "bbbb-2": 4}').format).toBe("egoschema");
    expect(answers('{"aaaa-1": 0, "bbbb-2": 4}')).toEqual([
      ["aaaa-1", 0],
      ["bbbb-2", 4],
    ]);
    expect(readModelRunFile('{"val_Art_Style_1": "(D)"}').format).toBe("blink");
    expect(answers('{"val_Art_Style_1": "(D)", "val_Art_Style_2": "(A)"}')).toEqual([
      ["val_Art_Style_1", "(D)"],
      ["val_Art_Style_2", "(A)"],
    ]);
  });

  it("reads BLINK's per-task outputs {split: [{idx, prediction, full_prediction}]}: the matched prediction, else the full text", () => {
    const text = pretty({
      val: [
        { idx: "val_Counting_1", answer: "(B)", full_prediction: "I count three. (B)", prediction: "(B)" },
        { idx: "val_Counting_2", answer: "(A)", full_prediction: "The answer is (C)" },
      ],
    });
    const read = readModelRunFile(text);
    expect(read.format).toBe("blink-outputs");
    expect(read.answers.map(({ place, id, answer }) => [place, id, answer])).toEqual([
      ["entry 1.1 (line 3)", "val_Counting_1", "(B)"],
      ["entry 1.2 (line 9)", "val_Counting_2", "The answer is (C)"],
    ]);
  });

  it("reads Perception Test's per-video lists {video_id: [{id, answer_id}]} as items <video_id>/<id>", () => {
    const read = readModelRunFile(pretty({ video_10: [{ id: 0, answer_id: 1, answer: "middle cup" }], video_11: [{ id: 3, answer_id: 2 }] }));
    expect(read.format).toBe("perception-test-mc");
    expect(read.answers.map(({ id, answer }) => [id, answer])).toEqual([
      ["video_10/0", 1],
      ["video_11/3", 2],
    ]);
  });

  it("reads VSI-Bench rows with their prediction, and Yardstick's {id, answer} lines, one line or many", () => {
    const row = {
      id: 7,
      dataset: "arkitscenes",
      scene_name: "41069025",
      question_type: "object_counting",
      question: "How many?",
      ground_truth: "2",
      prediction: "3",
    };
    const vsi = readModelRunFile(`${JSON.stringify(row)}\n${JSON.stringify({ ...row, id: 8, prediction: "(C)" })}\n`);
    expect(vsi.format).toBe("vsi-bench");
    expect(vsi.answers.map(({ place, id, answer }) => [place, id, answer])).toEqual([
      ["line 1", "7", "3"],
      ["line 2", "8", "(C)"],
    ]);
    expect(readModelRunFile(JSON.stringify(row)).format).toBe("vsi-bench");
    expect(readModelRunFile('{"id": "a", "answer": 3}').answers).toEqual([{ place: "line 1", line: 1, id: "a", answer: 3 }]);
    expect(answers('{"id": "a", "answer": "(B)"}\n\n{"id": 2, "answer": {"choice": "x"}}\n')).toEqual([
      ["a", "(B)"],
      ["2", { choice: "x" }],
    ]);
  });

  it("names every bad entry by its number and the line it starts on; a repeated id names the first place", () => {
    const text = pretty([
      { question_id: "q-1", answer: "a" },
      { question_id: "", answer: "b" },
      { question_id: "q-1", answer: "c" },
    ]);
    const read = readModelRunFile(text);
    expect(read.errors).toEqual([
      { place: "entry 2 (line 6)", line: 6, entry: 2, field: "question_id", message: "expected the question's id" },
      { place: "entry 3 (line 10)", line: 10, entry: 3, message: 'item "q-1" has an answer at entry 1 (line 2) already' },
    ]);
    expect(readModelRunFile('{"id": "a", "answer": 1}\n{"id": "a", "answer": 2}\n{oops').errors).toEqual([
      { place: "line 2", line: 2, field: "id", message: 'item "a" has an answer on line 1 already' },
      { place: "line 3", line: 3, message: expect.stringMatching(/^invalid JSON/) },
    ]);
  });

  it("refuses a JSON file of no known shape, naming the shapes it reads", () => {
    const read = readModelRunFile('[{"foo": 1}]');
    expect(read.answers).toEqual([]);
    expect(read.errors[0].message).toMatch(/^not a model-run file: expected \{"id", "answer"\} lines, or the model-output file of OpenEQA, .*VSI-Bench$/);
  });
});
