import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/log";
import type { Prisma } from "@/lib/generated/prisma/client";
import {
  claimProlificBatch,
  findProlificBatch,
  findProlificStudy,
  findStudyForProlific,
  insertProlificBatch,
  listPaidBonusBatches,
  listParticipantQuality,
  listProlificSubmissions,
  updateProlificBatch,
  type ProlificBatchRow,
} from "@/lib/repos/prolific";
import { inTransaction } from "@/lib/repos/transactions";
import { setSubmissionStatuses } from "@/lib/repos/prolific";
import { assertOwner } from "@/lib/recruitment/prolific/study";
import { batchRows, batchRuleSchema, bonusCsv, type BatchRow, type BatchRule } from "@/lib/recruitment/prolific/rules";
import { prolificClientFor } from "@/lib/recruitment/prolific/tokens";

/**
 * Batch actions on a study's Prolific submissions: a preview (who, what, how much) stored as a
 * ProlificBatch in state PREVIEW, then one confirm of that batch by its id. The confirm claims the
 * batch (PREVIEW -> RUNNING in one statement), so a confirm sent twice, or by two tabs, runs it
 * once; a later confirm of a DONE batch answers its result without calling Prolific. A bonus batch
 * records Prolific's bulk bonus id once set up and `paidAt` before it asks Prolific to pay, so the
 * pay request (not idempotent at Prolific) is never sent twice; a FAILED batch is not run again
 * (preview a new one: its rows leave out what the failed one did).
 */

export const previewBodySchema = batchRuleSchema;
export const confirmBodySchema = z.object({ batchId: z.string().min(1).max(64) });

export interface BatchView {
  id: string;
  action: string;
  state: string;
  rule: unknown;
  rows: BatchRow[];
  totalAmount: number;
  error: string | null;
  createdAt: string;
  doneAt: string | null;
}

function viewOf(b: ProlificBatchRow): BatchView {
  return {
    id: b.id,
    action: b.action,
    state: b.state,
    rule: b.rule,
    rows: (Array.isArray(b.rows) ? b.rows : []) as unknown as BatchRow[],
    totalAmount: b.totalAmount,
    error: b.error,
    createdAt: b.createdAt.toISOString(),
    doneAt: b.doneAt?.toISOString() ?? null,
  };
}

async function ownedProlificStudy(slug: string, actorId: string) {
  const study = await findStudyForProlific(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  assertOwner(study, actorId);
  const row = await findProlificStudy(study.id);
  if (!row) throw new AppError("CONFLICT", "The study has no Prolific study yet");
  return { study, row };
}

/** Participant ids already paid a bonus (or being paid) in this study. */
async function bonusedParticipants(studyId: string): Promise<Set<string>> {
  const paid = await listPaidBonusBatches(studyId, true);
  const ids = new Set<string>();
  for (const batch of paid) for (const r of (Array.isArray(batch.rows) ? batch.rows : []) as unknown as BatchRow[]) ids.add(r.participantId);
  return ids;
}

/** The rows a rule takes now, stored as a batch to confirm. */
export async function previewBatch(slug: string, raw: unknown, actorId: string): Promise<BatchView> {
  const rule: BatchRule = previewBodySchema.parse(raw);
  const { study } = await ownedProlificStudy(slug, actorId);
  const [submissions, quality, bonused] = await Promise.all([
    listProlificSubmissions(study.id),
    listParticipantQuality(study.id),
    rule.action === "bonus" ? bonusedParticipants(study.id) : Promise.resolve(new Set<string>()),
  ]);
  const rows = batchRows(rule, submissions, quality, bonused);
  const totalAmount = rows.reduce((sum, r) => sum + (r.amount ?? 0), 0);
  const batch = await insertProlificBatch({
    studyId: study.id,
    action: rule.action,
    rule: rule as unknown as Prisma.InputJsonValue,
    rows: rows as unknown as Prisma.InputJsonValue,
    totalAmount,
    createdById: actorId,
  });
  await recordAudit(actorId, "prolific.batch.preview", `study:${study.id}`, { slug, batchId: batch.id, action: rule.action, rows: rows.length, totalAmount });
  return viewOf(batch);
}

/** Runs a previewed batch once; a repeated confirm answers the stored outcome. */
export async function confirmBatch(slug: string, raw: unknown, actorId: string): Promise<BatchView> {
  const { batchId } = confirmBodySchema.parse(raw);
  const { study, row } = await ownedProlificStudy(slug, actorId);
  const batch = await findProlificBatch(study.id, batchId);
  if (!batch) throw new AppError("NOT_FOUND", "No such batch in this study");
  if (batch.state === "DONE") return viewOf(batch);
  if (batch.state === "FAILED") throw new AppError("CONFLICT", `This batch failed (${batch.error ?? "no reason stored"}): preview a new one`);
  if (!(await claimProlificBatch(batch.id))) {
    const now = await findProlificBatch(study.id, batchId);
    if (now?.state === "DONE") return viewOf(now);
    throw new AppError("CONFLICT", "This batch is being run by another confirm: wait for it");
  }
  const rows = viewOf(batch).rows;
  const rule = batch.rule as unknown as BatchRule;
  const client = await prolificClientFor(row.ownerId, { studyId: study.id, slug }, actorId);
  try {
    if (rows.length > 0) {
      if (rule.action === "approve") {
        await client.bulkApprove(rows.map((r) => r.submissionId));
        await inTransaction((tx) =>
          setSubmissionStatuses(
            tx,
            rows.map((r) => r.submissionId),
            "APPROVED",
          ),
        );
      } else if (rule.action === "reject") {
        // one by one, each stored as it is done: a failure half way leaves the rejected ones out of the next preview
        for (const r of rows) {
          await client.transitionSubmission(r.submissionId, "REJECT", { rejection_category: rule.category, message: rule.message });
          await inTransaction((tx) => setSubmissionStatuses(tx, [r.submissionId], "REJECTED"));
        }
      } else {
        let bonusPaymentId = batch.bonusPaymentId;
        if (!bonusPaymentId) {
          bonusPaymentId = (await client.setUpBonuses(row.prolificId, bonusCsv(rows))).id;
          await updateProlificBatch(batch.id, { bonusPaymentId });
        }
        // paidAt before the request: whatever happens next, this batch never asks Prolific to pay again
        await updateProlificBatch(batch.id, { paidAt: new Date() });
        await client.payBonuses(bonusPaymentId);
      }
    }
    const done = await updateProlificBatch(batch.id, { state: "DONE", doneAt: new Date(), error: null });
    await recordAudit(actorId, `prolific.batch.${rule.action}`, `study:${study.id}`, {
      slug,
      batchId: batch.id,
      rows: rows.length,
      totalAmount: batch.totalAmount,
    });
    return viewOf(done);
  } catch (error) {
    const message = error instanceof Error ? error.message.slice(0, 500) : String(error);
    await updateProlificBatch(batch.id, { state: "FAILED", error: message });
    await recordAudit(actorId, "prolific.batch.failed", `study:${study.id}`, { slug, batchId: batch.id, action: rule.action, error: message });
    throw error;
  }
}

export async function getBatch(slug: string, batchId: string): Promise<BatchView> {
  const study = await findStudyForProlific(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const batch = await findProlificBatch(study.id, batchId);
  if (!batch) throw new AppError("NOT_FOUND", "No such batch in this study");
  return viewOf(batch);
}
