import { describe, expect, it } from "vitest";
import { draftsOf, reportingBodyOf } from "@/components/research/reporting-drafts";
import { reportingAnswersSchema } from "@/lib/validations/reporting";

const noPay = { rewardPerPerson: "", currency: "", bonusRule: "", bonusTotal: "", estimatedMinutes: "" };

describe("the Reporting form's body", () => {
  it("leaves empty fields out and reads the pay's numbers as numbers", () => {
    const body = reportingBodyOf(
      { "1.9": { choice: "Yes", detail: "IRB 2026-14" }, "1.10": { choice: "", detail: "  " }, "2.1": { choice: "No", detail: "" } },
      { ...noPay, rewardPerPerson: "9.5", currency: "GBP", estimatedMinutes: " 45 " },
    );
    expect(body).toEqual({
      answers: { "1.9": { choice: "Yes", detail: "IRB 2026-14" }, "2.1": { choice: "No" } },
      compensation: { rewardPerPerson: 9.5, currency: "GBP", estimatedMinutes: 45 },
    });
    expect(reportingAnswersSchema.parse(body)).toEqual(body);
  });

  it("keeps a number that is not one as text, so that the schema names its field", () => {
    const parsed = reportingAnswersSchema.safeParse(reportingBodyOf({}, { ...noPay, bonusTotal: "ten" }));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["compensation.bonusTotal"]);
  });

  it("turns stored answers back into the same fields", () => {
    const stored = reportingAnswersSchema.parse({
      answers: { "1.9": { choice: "Yes", detail: "IRB" } },
      compensation: { rewardPerPerson: 9, currency: "GBP" },
    });
    const drafts = draftsOf(stored);
    expect(drafts.answers).toEqual({ "1.9": { choice: "Yes", detail: "IRB" } });
    expect(drafts.compensation).toEqual({ ...noPay, rewardPerPerson: "9", currency: "GBP" });
    expect(reportingBodyOf(drafts.answers, drafts.compensation)).toEqual(stored);
  });
});
