import "server-only";
import { findProlificStudy, listPaidBonusBatches, listProlificSubmissions } from "@/lib/repos/prolific";
import type { BatchRow } from "@/lib/recruitment/prolific/rules";

/**
 * What a study paid its Prolific participants, from Yardstick's own records of the calls it made
 * (ProlificStudy, ProlificSubmission, DONE bonus ProlificBatch rows): the base reward and the time
 * it was computed from, how many submissions were approved and rejected, and the bonuses paid. The
 * amounts are in the workspace currency's minor units (pence or cents), as sent to Prolific.
 * null: the study was not run through Prolific from Yardstick.
 */
export interface ProlificCompensation {
  prolificId: string;
  status: string;
  /** per submission */
  reward: number;
  estimatedMinutes: number;
  /** "pilot": the median answer time of `timeSampleSize` completed participants; "researcher": entered */
  timeSource: string;
  timeSampleSize: number;
  /** reward per hour at the estimated time */
  hourlyRate: number;
  places: number;
  submissions: number;
  approved: number;
  rejected: number;
  returned: number;
  timedOut: number;
  bonuses: {
    participants: number;
    total: number;
    perParticipant: Array<{ participantId: string; amount: number }>;
    /** the rules of the paid bonus batches, e.g. { perCorrect: 10, cap: 200 } (minor units) */
    rules: Array<{ perCorrect: number; cap?: number }>;
  };
}

export async function prolificCompensation(studyId: string): Promise<ProlificCompensation | null> {
  const row = await findProlificStudy(studyId);
  if (!row) return null;
  const [submissions, bonusBatches] = await Promise.all([listProlificSubmissions(studyId), listPaidBonusBatches(studyId)]);
  const count = (status: string) => submissions.filter((s) => s.status === status).length;
  const perParticipant = new Map<string, number>();
  let total = 0;
  const rules: Array<{ perCorrect: number; cap?: number }> = [];
  for (const batch of bonusBatches) {
    total += batch.totalAmount;
    const rule = batch.rule as { perCorrect?: unknown; cap?: unknown } | null;
    if (rule && typeof rule.perCorrect === "number") rules.push({ perCorrect: rule.perCorrect, ...(typeof rule.cap === "number" ? { cap: rule.cap } : {}) });
    for (const r of (Array.isArray(batch.rows) ? batch.rows : []) as unknown as BatchRow[])
      perParticipant.set(r.participantId, (perParticipant.get(r.participantId) ?? 0) + (r.amount ?? 0));
  }
  return {
    prolificId: row.prolificId,
    status: row.status,
    reward: row.reward,
    estimatedMinutes: row.estimatedMinutes,
    timeSource: row.timeSource,
    timeSampleSize: row.timeSampleSize,
    hourlyRate: Math.round((row.reward * 60) / row.estimatedMinutes),
    places: row.places,
    submissions: submissions.length,
    approved: count("APPROVED"),
    rejected: count("REJECTED"),
    returned: count("RETURNED"),
    timedOut: count("TIMED-OUT"),
    bonuses: {
      participants: perParticipant.size,
      total,
      perParticipant: [...perParticipant].map(([participantId, amount]) => ({ participantId, amount })),
      rules,
    },
  };
}
