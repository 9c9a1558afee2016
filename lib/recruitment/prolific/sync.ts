import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { readBodyBytes } from "@/lib/http/body";
import { enqueueOnce, jobIdFor, QUEUES } from "@/lib/jobs/queue";
import { recordAudit } from "@/lib/audit/log";
import { endParticipantFromPlatform } from "@/lib/participants/participants";
import {
  findProlificParticipant,
  findProlificStudy,
  listProlificStudiesToSync,
  markSubmissionPlaceFreed,
  updateProlificStudy,
  upsertProlificSubmission,
  findProlificStudyByProlificId,
  findProlificSubmission,
  findStudyForProlific,
} from "@/lib/repos/prolific";
import { inTransaction } from "@/lib/repos/transactions";
import { openSecret } from "@/lib/security/secret-box";
import { hookRefusal, type ProlificSubmissionReply } from "@/lib/recruitment/prolific/client";
import { prolificClientFor } from "@/lib/recruitment/prolific/tokens";

/**
 * Submissions come from Prolific two ways: the polling sync (a job every PROLIFIC_SYNC_SECONDS,
 * and the Sync button) lists each published study's submissions, and Prolific's hook posts each
 * status change to POST /api/prolific/hooks. Both store the submission's status
 * (ProlificSubmission) and, for a RETURNED or TIMED-OUT one, end the participant's work at once as
 * "Mark returned" does (lib/participants: their open assignments are released, so the place goes
 * back to the pool).
 */

const ENDED: Record<string, "RETURNED" | "TIMED_OUT"> = { RETURNED: "RETURNED", "TIMED-OUT": "TIMED_OUT" };

function dateOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Stores one submission's state and frees the place of a returned or timed-out one; whether a place was freed. */
export async function applySubmission(studyId: string, s: ProlificSubmissionReply): Promise<boolean> {
  return inTransaction(async (tx) => {
    const user = await findProlificParticipant(tx, studyId, s.participant_id);
    const { placeFreedAt } = await upsertProlificSubmission(tx, {
      id: s.id,
      studyId,
      participantId: s.participant_id,
      userId: user?.id ?? null,
      status: s.status,
      startedAt: dateOf(s.started_at),
      completedAt: dateOf(s.completed_at),
      timeTakenSeconds: typeof s.time_taken === "number" && Number.isFinite(s.time_taken) ? Math.round(s.time_taken) : null,
    });
    const ended = ENDED[s.status];
    if (!ended || !user || placeFreedAt) return false;
    const reason = ended === "RETURNED" ? "returned the submission on Prolific" : "timed out on Prolific";
    const { changed } = await endParticipantFromPlatform(tx, studyId, user.id, ended, reason);
    await markSubmissionPlaceFreed(tx, s.id);
    return changed;
  });
}

const submissionReplySchema = z.object({
  id: z.string().min(1).max(64),
  participant_id: z.string().min(1).max(64),
  status: z.string().min(1).max(40),
  started_at: z.string().max(64).nullish(),
  completed_at: z.string().max(64).nullish(),
  time_taken: z.number().nullish(),
});

export interface SyncResult {
  submissions: number;
  freed: number;
  status: string;
}

/** Lists the study's submissions on Prolific and stores them; `actorId` null for the job. */
export async function syncProlificStudy(studyId: string, actorId: string | null): Promise<SyncResult> {
  const row = await findProlificStudy(studyId);
  if (!row) throw new AppError("CONFLICT", "The study has no Prolific study to sync");
  const target = { studyId };
  try {
    const client = await prolificClientFor(row.ownerId, target, actorId);
    const [study, submissions] = await Promise.all([client.getStudy(row.prolificId), client.listSubmissions(row.prolificId)]);
    let freed = 0;
    let stored = 0;
    for (const raw of submissions) {
      const parsed = submissionReplySchema.safeParse(raw);
      if (!parsed.success) continue;
      stored += 1;
      if (await applySubmission(studyId, parsed.data)) freed += 1;
    }
    await updateProlificStudy(studyId, { status: study.status ?? row.status, lastSyncAt: new Date(), lastSyncError: null });
    if (freed > 0) await recordAudit(actorId, "prolific.sync", `study:${studyId}`, { submissions: stored, freed });
    return { submissions: stored, freed, status: study.status ?? row.status };
  } catch (error) {
    await updateProlificStudy(studyId, { lastSyncError: error instanceof Error ? error.message.slice(0, 500) : String(error) });
    throw error;
  }
}

/**
 * The worker's periodic pass: one "prolific-sync" job per published Prolific study, named by the
 * study and the pass's time slot, so that two workers' passes queue each study once, and a failed
 * sync is retried by the queue (its error is stored on the study meanwhile). How many were queued.
 */
export async function queueProlificSyncs(nowMs = Date.now()): Promise<number> {
  const studies = await listProlificStudiesToSync();
  const slot = Math.floor(nowMs / (Math.max(prolificSyncSeconds(), 1) * 1000));
  let queued = 0;
  for (const { studyId } of studies) if (await enqueueOnce(QUEUES.prolificSync, jobIdFor(`prolific-sync:${studyId}:${slot}`), { studyId })) queued += 1;
  return queued;
}

export function prolificSyncSeconds(): number {
  const configured = Number(process.env.PROLIFIC_SYNC_SECONDS ?? "");
  return Number.isInteger(configured) && configured >= 0 ? configured : 60;
}

/** Largest hook body taken: Prolific's status change events are a few hundred bytes. */
export const MAX_HOOK_BODY_BYTES = 64 * 1024;

const hookEventSchema = z.object({
  event_type: z.string().max(100),
  resource_id: z.string().min(1).max(64),
  status: z.string().min(1).max(40),
  participant_id: z.string().max(64).optional(),
  study_id: z.string().max(64).optional(),
});

/**
 * A hook request from Prolific: its submission (resource_id) names the study whose stored hook
 * secret must verify the signature; a bad or missing signature, or a stale timestamp, is refused
 * (401) and changes nothing. A verified submission.status.change is applied as the sync applies
 * it; a submission not stored yet makes the study sync.
 */
export async function receiveProlificHook(headers: Headers, rawBody: string): Promise<{ applied: boolean; freed: boolean }> {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new AppError("INVALID", "The hook body is not JSON");
  }
  const parsed = hookEventSchema.safeParse(json);
  if (!parsed.success) throw new AppError("INVALID", "The hook body is not a Prolific event (event_type, resource_id, status)");
  const event = parsed.data;
  const known = await findProlificSubmission(event.resource_id);
  const row = known ? await findProlificStudy(known.studyId) : event.study_id ? await findProlificStudyByProlificId(event.study_id) : null;
  if (!row || !row.hookSecret) throw new AppError("NOT_FOUND", "No Prolific study here is subscribed for that submission");
  const refusal = hookRefusal(openSecret(row.hookSecret), headers, rawBody);
  if (refusal) {
    await recordAudit(null, "prolific.hook.refused", `study:${row.studyId}`, { studyId: row.studyId, submissionId: event.resource_id, refusal });
    throw new AppError("UNAUTHORIZED", `Refused the hook: ${refusal}`);
  }
  if (event.event_type !== "submission.status.change") return { applied: false, freed: false };
  await recordAudit(null, "prolific.hook", `study:${row.studyId}`, { studyId: row.studyId, submissionId: event.resource_id, status: event.status });
  if (!known || !event.participant_id) {
    const result = await syncProlificStudy(row.studyId, null);
    return { applied: true, freed: result.freed > 0 };
  }
  const freed = await applySubmission(row.studyId, {
    id: known.id,
    participant_id: known.participantId,
    status: event.status,
    started_at: known.startedAt?.toISOString() ?? null,
    completed_at: known.completedAt?.toISOString() ?? null,
    time_taken: known.timeTakenSeconds,
  });
  return { applied: true, freed };
}

/** POST /api/prolific/hooks: the request's raw body (the signature covers its bytes), at most MAX_HOOK_BODY_BYTES. */
export async function receiveProlificHookRequest(request: Request): Promise<{ applied: boolean; freed: boolean }> {
  const bytes = await readBodyBytes(request, MAX_HOOK_BODY_BYTES);
  return receiveProlificHook(request.headers, Buffer.from(bytes).toString("utf8"));
}

/** The Sync button: the study's submissions now, by any staff member (it reads, and frees places; it pays nothing). */
export async function syncProlificStudyBySlug(slug: string, actorId: string): Promise<SyncResult> {
  const study = await findStudyForProlific(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  return syncProlificStudy(study.id, actorId);
}
