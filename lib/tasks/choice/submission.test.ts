import { describe, expect, it } from "vitest";
import { blinkSubmission, egoschemaSubmission, submissionFormats } from "@/lib/tasks/choice/submission";

const options = ["0", "1", "2", "3", "4"].map((id) => ({ id, text: `option ${id}` }));

describe("EgoSchema submission", () => {
  it("takes the majority, a tie going to the option first in the item's order; leaves out items nobody answered and invalid choices", () => {
    const body = egoschemaSubmission.build(
      [
        {
          externalId: "q1",
          public: { options },
          tags: {},
          answers: [
            { annotator: "a", answer: { choice: "3" } },
            { annotator: "b", answer: { choice: "1" } },
          ],
        },
        { externalId: "q2", public: { options }, tags: {}, answers: [] },
        { externalId: "q3", public: { options }, tags: {}, answers: [{ annotator: "a", answer: { choice: "9" } }] },
      ],
      "majority",
    );
    expect(JSON.parse(body)).toEqual({ q1: 1 });
  });
});

describe("BLINK submission (eval/README.md of zeyofu/BLINK_Benchmark: the final prediction file)", () => {
  const choices = [
    { id: "A", text: "the second image" },
    { id: "B", text: "the third image" },
  ];
  const four = ["A", "B", "C", "D"].map((id) => ({ id, text: `(${id})` }));
  const other = [
    { id: "left", text: "left" },
    { id: "right", text: "right" },
    { id: "same", text: "the same" },
  ];

  it("writes {idx: \"(letter)\"}, the letter the chosen option's place in the item's order, whatever its id; the majority's or one person's", () => {
    const items = [
      {
        externalId: "test_Art_Style_1",
        public: { options: choices },
        tags: { source: "blink" },
        answers: [
          { annotator: "a", answer: { choice: "B" } },
          { annotator: "b", answer: { choice: "B" } },
          { annotator: "c", answer: { choice: "A" } },
        ],
      },
      { externalId: "test_Counting_7", public: { options: four }, tags: { source: "blink" }, answers: [{ annotator: "a", answer: { choice: "D" } }] },
      {
        externalId: "test_Relative_Depth_3",
        public: { options: other },
        tags: { source: "blink" },
        answers: [
          { annotator: "a", answer: { choice: "same" } },
          { annotator: "b", answer: { choice: "left" } },
        ],
      },
      { externalId: "test_Jigsaw_2", public: { options: choices }, tags: { source: "blink" }, answers: [] },
      { externalId: "test_Jigsaw_4", public: { options: choices }, tags: { source: "blink" }, answers: [{ annotator: "a", answer: { choice: "Z" } }] },
    ];
    // a tie (same vs left) goes to the option first in the item's order: left, "(A)"
    expect(JSON.parse(blinkSubmission.build(items, "majority"))).toEqual({ test_Art_Style_1: "(B)", test_Counting_7: "(D)", test_Relative_Depth_3: "(A)" });
    expect(JSON.parse(blinkSubmission.build(items, "c"))).toEqual({ test_Art_Style_1: "(A)" });
    expect(JSON.parse(blinkSubmission.build(items, "a"))).toEqual({ test_Art_Style_1: "(B)", test_Counting_7: "(D)", test_Relative_Depth_3: "(C)" });
  });

  it("is listed with the choice kind's formats, for items tagged source blink", () => {
    expect(submissionFormats.map((format) => [format.id, format.source, format.fileName])).toEqual([
      ["egoschema", "egoschema", "egoschema-submission.json"],
      ["perception-test-mc", "perception-test", "perception-test-mc-submission.json"],
      ["blink", "blink", "blink-submission.json"],
    ]);
  });
});
