import { z } from "zod";
import { MIN_REJECTION_MESSAGE, REJECTION_CATEGORIES } from "@/lib/recruitment/prolific/client";

/**
 * Which submissions a batch action takes, by the study's own quality rules (pure):
 * - approve: submissions awaiting review whose participant completed the study and is not
 *   excluded (the study's gold/attention rule, lib/assignment's exclusion: StudyMember EXCLUDED);
 * - reject: submissions awaiting review whose participant the attention rule excluded, with
 *   Prolific's rejection category and a message;
 * - bonus: an amount per correct (non-gold, non-practice) answer, to participants whose submission
 *   is approved or awaiting review and who are not excluded, once per participant (a participant
 *   paid by an earlier bonus batch is left out).
 * Submissions of people Yardstick never saw (no participant) are in no batch: the researcher
 * looks at those on Prolific.
 */

export const batchRuleSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("approve") }),
  z.object({
    action: z.literal("reject"),
    category: z.enum(REJECTION_CATEGORIES),
    message: z
      .string()
      .trim()
      .min(MIN_REJECTION_MESSAGE, `at least ${MIN_REJECTION_MESSAGE} characters (Prolific's minimum)`)
      .max(2000, "at most 2,000 characters"),
  }),
  z.object({
    action: z.literal("bonus"),
    /** minor units (pence or cents) per correct answer */
    perCorrect: z.coerce.number().int("a whole number of pence or cents").min(1, "at least 1").max(10_000, "at most 10,000 (100.00) per answer"),
    /** most one participant gets, minor units */
    cap: z.coerce.number().int("a whole number of pence or cents").min(1).max(100_000, "at most 100,000 (1,000.00)").optional(),
  }),
]);
export type BatchRule = z.infer<typeof batchRuleSchema>;

export interface RuleSubmission {
  id: string;
  participantId: string;
  userId: string | null;
  status: string;
}

export interface RuleParticipant {
  userId: string;
  status: string;
  statusReason: string | null;
  goldAnswered: number;
  goldFailed: number;
  answered: number;
  correct: number;
}

export interface BatchRow {
  submissionId: string;
  participantId: string;
  userId: string;
  reason: string;
  /** bonus batches: minor units */
  amount?: number;
}

export function batchRows(
  rule: BatchRule,
  submissions: RuleSubmission[],
  participants: RuleParticipant[],
  alreadyBonused: ReadonlySet<string> = new Set(),
): BatchRow[] {
  const byUser = new Map(participants.map((p) => [p.userId, p]));
  const rows: BatchRow[] = [];
  for (const s of submissions) {
    const p = s.userId ? byUser.get(s.userId) : undefined;
    if (!p) continue;
    const checks = `${p.goldFailed} of ${p.goldAnswered} attention checks failed`;
    if (rule.action === "approve") {
      if (s.status === "AWAITING REVIEW" && p.status === "COMPLETE")
        rows.push({ submissionId: s.id, participantId: s.participantId, userId: p.userId, reason: `completed; ${checks}` });
    } else if (rule.action === "reject") {
      if (s.status === "AWAITING REVIEW" && p.status === "EXCLUDED")
        rows.push({ submissionId: s.id, participantId: s.participantId, userId: p.userId, reason: p.statusReason ?? `excluded; ${checks}` });
    } else {
      if ((s.status !== "APPROVED" && s.status !== "AWAITING REVIEW") || p.status === "EXCLUDED" || p.correct === 0) continue;
      if (alreadyBonused.has(s.participantId)) continue;
      const amount = Math.min(p.correct * rule.perCorrect, rule.cap ?? Number.POSITIVE_INFINITY);
      rows.push({ submissionId: s.id, participantId: s.participantId, userId: p.userId, reason: `${p.correct} of ${p.answered} answers correct`, amount });
    }
  }
  return rows;
}

/** Prolific's csv_bonuses: `<participant id>,<amount in the currency's major unit>` per line. */
export function bonusCsv(rows: BatchRow[]): string {
  return rows.map((r) => `${r.participantId},${((r.amount ?? 0) / 100).toFixed(2)}`).join("\n");
}
