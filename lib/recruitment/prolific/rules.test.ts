import { describe, expect, it } from "vitest";
import { hookRefusal, hookSignature, prolificErrorText } from "@/lib/recruitment/prolific/client";
import { batchRows, batchRuleSchema, bonusCsv, type RuleParticipant, type RuleSubmission } from "@/lib/recruitment/prolific/rules";

const person = (userId: string, over: Partial<RuleParticipant> = {}): RuleParticipant => ({
  userId,
  status: "COMPLETE",
  statusReason: null,
  goldAnswered: 2,
  goldFailed: 0,
  answered: 10,
  correct: 7,
  ...over,
});
const submission = (id: string, userId: string | null, status = "AWAITING REVIEW"): RuleSubmission => ({ id, participantId: `p-${id}`, userId, status });

describe("batch rules", () => {
  const people = [
    person("done"),
    person("excluded", { status: "EXCLUDED", statusReason: "failed 2 of 2 gold items", goldFailed: 2, correct: 9 }),
    person("returned", { status: "RETURNED", correct: 3 }),
    person("zero", { correct: 0 }),
  ];
  const subs = [
    submission("a", "done"),
    submission("b", "excluded"),
    submission("c", "returned", "RETURNED"),
    submission("d", null),
    submission("e", "zero", "APPROVED"),
  ];

  it("approves completed participants awaiting review, and no one else", () => {
    expect(batchRows({ action: "approve" }, subs, people).map((r) => r.submissionId)).toEqual(["a"]);
  });

  it("rejects the participants the attention rule excluded, with the rule's reason", () => {
    const rows = batchRows({ action: "reject", category: "FAILED_CHECK", message: "x".repeat(100) }, subs, people);
    expect(rows).toEqual([{ submissionId: "b", participantId: "p-b", userId: "excluded", reason: "failed 2 of 2 gold items" }]);
  });

  it("pays a bonus per correct answer, capped, never to the excluded, to no one with nothing correct, and once per participant", () => {
    expect(batchRows({ action: "bonus", perCorrect: 5 }, subs, people)).toEqual([
      { submissionId: "a", participantId: "p-a", userId: "done", reason: "7 of 10 answers correct", amount: 35 },
    ]);
    expect(batchRows({ action: "bonus", perCorrect: 5, cap: 20 }, subs, people)[0].amount).toBe(20);
    expect(batchRows({ action: "bonus", perCorrect: 5 }, subs, people, new Set(["p-a"]))).toEqual([]);
  });

  it("writes Prolific's csv in the currency's major unit", () => {
    expect(bonusCsv([{ submissionId: "a", participantId: "60ffe5c8371090c7041d43f8", userId: "u", reason: "", amount: 425 }])).toBe(
      "60ffe5c8371090c7041d43f8,4.25",
    );
  });

  it("refuses a rejection message under Prolific's 100 characters and an unknown category", () => {
    expect(batchRuleSchema.safeParse({ action: "reject", category: "FAILED_CHECK", message: "too short" }).success).toBe(false);
    expect(batchRuleSchema.safeParse({ action: "reject", category: "RUDE", message: "x".repeat(120) }).success).toBe(false);
    expect(batchRuleSchema.safeParse({ action: "bonus", perCorrect: 0 }).success).toBe(false);
  });
});

describe("Prolific's words and signatures", () => {
  it("puts an error body's title and detail (a sentence or field messages) into one sentence", () => {
    expect(prolificErrorText({ error: { status: 400, title: "Bad request", detail: "Cannot pause." } })).toBe("Bad request: Cannot pause.");
    expect(prolificErrorText({ error: { title: "Bad request", detail: { reward: ["too low"], name: ["required", "too short"] } } })).toBe(
      "Bad request: reward: too low; name: required, too short",
    );
    expect(prolificErrorText("nonsense")).toBeNull();
  });

  it("accepts Prolific's signature and refuses a changed body, another secret, a stale time and missing headers", () => {
    const body = '{"event_type":"submission.status.change","resource_id":"x","status":"RETURNED"}';
    const now = 1_800_000_000_000;
    const ts = String(now / 1000);
    const headers = (signature: string, timestamp = ts) =>
      new Headers({ "X-Prolific-Request-Signature": signature, "X-Prolific-Request-Timestamp": timestamp });
    expect(hookRefusal("s3cret", headers(hookSignature("s3cret", ts, body)), body, now)).toBeNull();
    expect(hookRefusal("s3cret", headers(hookSignature("s3cret", ts, body)), body.replace("RETURNED", "APPROVED"), now)).toMatch(/does not match/);
    expect(hookRefusal("s3cret", headers(hookSignature("other", ts, body)), body, now)).toMatch(/does not match/);
    const old = String(now / 1000 - 600);
    expect(hookRefusal("s3cret", headers(hookSignature("s3cret", old, body), old), body, now)).toMatch(/seconds from now/);
    expect(hookRefusal("s3cret", new Headers(), body, now)).toMatch(/no X-Prolific-Request-Signature/);
  });
});
