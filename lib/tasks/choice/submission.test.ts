import { describe, expect, it } from "vitest";
import { egoschemaSubmission } from "@/lib/tasks/choice/submission";

const options = ["0", "1", "2", "3", "4"].map((id) => ({ id, text: `option ${id}` }));

describe("EgoSchema submission", () => {
  it("takes the majority, a tie going to the option first in the item's order; leaves out items nobody answered and invalid choices", () => {
    const body = egoschemaSubmission.build(
      [
        { externalId: "q1", public: { options }, tags: {}, answers: [{ annotator: "a", answer: { choice: "3" } }, { annotator: "b", answer: { choice: "1" } }] },
        { externalId: "q2", public: { options }, tags: {}, answers: [] },
        { externalId: "q3", public: { options }, tags: {}, answers: [{ annotator: "a", answer: { choice: "9" } }] },
      ],
      "majority",
    );
    expect(JSON.parse(body)).toEqual({ q1: 1 });
  });
});
