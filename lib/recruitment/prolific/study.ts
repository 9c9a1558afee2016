import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { planForStudy } from "@/lib/plan/plan-for-study";
import { recordAudit } from "@/lib/audit/log";
import {
  findProlificStudy,
  findStudyForProlific,
  insertProlificStudy,
  listParticipantQuality,
  listProlificBatches,
  listProlificSubmissions,
  updateProlificStudy,
} from "@/lib/repos/prolific";
import { peopleForAnswersPerItem } from "@/lib/stats/study-planner";
import { median } from "@/lib/stats/descriptive";
import { sealSecret } from "@/lib/security/secret-box";
import { endingsOf, ENDINGS, type EndingName } from "@/lib/validations/study-settings";
import { prolificClientFor, prolificTokenStatus, type ProlificTokenView } from "@/lib/recruitment/prolific/tokens";
import type { CompletionCode, CompletionCodeType, StudyAction, StudyDraft } from "@/lib/recruitment/prolific/client";

/**
 * The Prolific study of a Yardstick study: made as a draft from the study (its entry link with
 * Prolific's three placeholders, one completion code per ending, places from the planner, reward
 * and time from the pilot's median), then published, paused, started again and stopped.
 *
 * Who may: only the study's owner (Study.createdBy). The calls use the owner's own token, so they
 * spend the owner's Prolific workspace balance; another researcher or an admin may see the state
 * but not commit someone else's money (publishing and approving pay rewards, bonuses pay more).
 */

export const PROLIFIC_PLACEHOLDERS = "PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}";

export const draftBodySchema = z.object({
  /** what participants read on Prolific */
  description: z.string().trim().min(10, "at least 10 characters").max(5000, "at most 5,000 characters"),
  /** pay per hour in the workspace currency's minor units (e.g. 1200 = £12.00 an hour) */
  hourlyRate: z.coerce.number().int("a whole number of pence or cents").min(100, "at least 100 (1.00 an hour)").max(20_000, "at most 20,000 (200.00 an hour)"),
  /** minutes, used when no participant has completed the study yet (no pilot) */
  estimatedMinutes: z.coerce.number().int("whole minutes").min(1, "at least a minute").max(600, "at most 600 minutes").optional(),
  /** places on Prolific; by default the planner's: items x answers per item / items per participant */
  places: z.coerce.number().int("a whole number").min(1, "at least 1").max(10_000, "at most 10,000").optional(),
});
export type DraftBody = z.infer<typeof draftBodySchema>;

export const studyActionBodySchema = z.object({ action: z.enum(["PUBLISH", "PAUSE", "START", "STOP"]) });

/** Prolific's code type for each Yardstick ending (FAILED_ATTENTION_CHECK for the attention rule, OTHER for the rest). */
const CODE_TYPES: Record<EndingName, CompletionCodeType> = { failedScreening: "OTHER", excluded: "FAILED_ATTENTION_CHECK", timedOut: "OTHER", full: "OTHER" };

export function appBaseUrl(): string {
  return (process.env.PROLIFIC_APP_URL?.trim() || process.env.NEXTAUTH_URL?.trim() || "http://localhost:3000").replace(/\/+$/, "");
}

/** The completion codes of a study's endings: its completion code, then each ending's own. */
export function completionCodesOf(study: { completionCode: string | null; endings: unknown }): CompletionCode[] {
  if (!study.completionCode)
    throw new AppError("INVALID", "The study has no completion code: set one in its settings (Completion code) first", { field: "completionCode" });
  const codes: CompletionCode[] = [{ code: study.completionCode, code_type: "COMPLETED", actions: [{ action: "MANUALLY_REVIEW" }] }];
  const endings = endingsOf(study.endings);
  for (const name of ENDINGS) {
    const code = endings[name]?.code;
    if (code && !codes.some((c) => c.code === code)) codes.push({ code, code_type: CODE_TYPES[name], actions: [{ action: "MANUALLY_REVIEW" }] });
  }
  return codes;
}

/** Minutes of the pilot: the median answer time of the participants who completed the study (whole minutes, at least 1). */
export function pilotMinutes(participants: Array<{ status: string; wallMs: number }>): { minutes: number; sample: number } | null {
  const times = participants.filter((p) => p.status === "COMPLETE" && p.wallMs > 0).map((p) => p.wallMs);
  if (times.length === 0) return null;
  return { minutes: Math.max(1, Math.ceil(median(times) / 60_000)), sample: times.length };
}

export interface ProlificStudyView {
  token: ProlificTokenView;
  isOwner: boolean;
  ownerHasToken: boolean | null;
  prolific: {
    prolificId: string;
    status: string;
    reward: number;
    estimatedMinutes: number;
    timeSource: string;
    timeSampleSize: number;
    places: number;
    hooked: boolean;
    lastSyncAt: string | null;
    lastSyncError: string | null;
  } | null;
  /** what a new draft would take from the study now */
  suggested: { places: number | null; pilotMinutes: number | null; pilotSample: number };
  batches: Array<{
    id: string;
    action: string;
    state: string;
    rows: number;
    totalAmount: number;
    createdAt: string;
    doneAt: string | null;
    error: string | null;
  }>;
  /** Prolific's submissions as last synced, with the participant's standing here (null: never entered) */
  submissions: Array<{ id: string; participantId: string; status: string; placeFreed: boolean; participantStatus: string | null }>;
}

async function studyOrThrow(slug: string) {
  const study = await findStudyForProlific(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  return study;
}

export function assertOwner(study: { createdById: string | null }, actorId: string): void {
  if (study.createdById !== actorId)
    throw new AppError("FORBIDDEN", "Only the study's owner may act on Prolific for it: the calls use their token and spend their workspace's balance");
}

async function plannedPlaces(slug: string): Promise<number | null> {
  const plan = await planForStudy(slug);
  if (!plan) return null;
  const items = plan.kinds.reduce((sum, k) => sum + k.items, 0);
  if (items === 0) return null;
  return peopleForAnswersPerItem(items, Math.min(plan.itemsPerPerson ?? items, items), plan.k);
}

export async function getProlificStudyView(slug: string, viewerId: string): Promise<ProlificStudyView> {
  const study = await studyOrThrow(slug);
  const [row, token, places, quality, batches, submissions] = await Promise.all([
    findProlificStudy(study.id),
    prolificTokenStatus(viewerId),
    plannedPlaces(slug),
    listParticipantQuality(study.id),
    listProlificBatches(study.id, 20),
    listProlificSubmissions(study.id),
  ]);
  const standing = new Map(quality.map((q) => [q.userId, q.status]));
  const pilot = pilotMinutes(quality);
  const ownerToken = study.createdById ? await prolificTokenStatus(study.createdById) : null;
  return {
    token,
    isOwner: study.createdById === viewerId,
    ownerHasToken: ownerToken ? ownerToken.stored : null,
    prolific: row
      ? {
          prolificId: row.prolificId,
          status: row.status,
          reward: row.reward,
          estimatedMinutes: row.estimatedMinutes,
          timeSource: row.timeSource,
          timeSampleSize: row.timeSampleSize,
          places: row.places,
          hooked: row.hookId !== null,
          lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
          lastSyncError: row.lastSyncError,
        }
      : null,
    suggested: { places, pilotMinutes: pilot?.minutes ?? null, pilotSample: pilot?.sample ?? 0 },
    batches: batches.map((b) => ({
      id: b.id,
      action: b.action,
      state: b.state,
      rows: Array.isArray(b.rows) ? b.rows.length : 0,
      totalAmount: b.totalAmount,
      createdAt: b.createdAt.toISOString(),
      doneAt: b.doneAt?.toISOString() ?? null,
      error: b.error,
    })),
    submissions: submissions.map((s) => ({
      id: s.id,
      participantId: s.participantId,
      status: s.status,
      placeFreed: s.placeFreedAt !== null,
      participantStatus: s.userId ? (standing.get(s.userId) ?? null) : null,
    })),
  };
}

/** Creates the Prolific study as a draft (UNPUBLISHED) from the Yardstick study; one per study. */
export async function createProlificDraft(slug: string, raw: unknown, actorId: string): Promise<ProlificStudyView> {
  const body = draftBodySchema.parse(raw);
  const study = await studyOrThrow(slug);
  assertOwner(study, actorId);
  if (await findProlificStudy(study.id)) throw new AppError("CONFLICT", "This study has its Prolific study already");
  if (!study.entryToken)
    throw new AppError("INVALID", "The study has no entry link: create it on the study's Participants page first", { field: "entryToken" });
  const completion_codes = completionCodesOf(study);
  const pilot = pilotMinutes(await listParticipantQuality(study.id));
  const minutes = pilot?.minutes ?? body.estimatedMinutes;
  if (minutes === undefined)
    throw new AppError("INVALID", "No participant has completed the study yet, so there is no pilot time: enter the estimated minutes", {
      field: "estimatedMinutes",
    });
  const places = body.places ?? (await plannedPlaces(slug));
  if (places === null) throw new AppError("INVALID", "The study has no items for the planner to count places from: enter the places", { field: "places" });
  const reward = Math.ceil((body.hourlyRate * minutes) / 60);
  const draft: StudyDraft = {
    name: study.title,
    internal_name: `yardstick:${study.slug}`,
    description: body.description,
    external_study_url: `${appBaseUrl()}/join/${study.entryToken}?${PROLIFIC_PLACEHOLDERS}`,
    prolific_id_option: "url_parameters",
    completion_codes,
    total_available_places: places,
    estimated_completion_time: minutes,
    reward,
    ...(study.desktopOnly ? { device_compatibility: ["desktop"] as Array<"desktop"> } : {}),
  };
  const client = await prolificClientFor(actorId, { studyId: study.id, slug }, actorId);
  const created = await client.createStudy(draft);
  await insertProlificStudy({
    studyId: study.id,
    prolificId: created.id,
    ownerId: actorId,
    status: created.status ?? "UNPUBLISHED",
    reward,
    estimatedMinutes: minutes,
    timeSource: pilot ? "pilot" : "researcher",
    timeSampleSize: pilot?.sample ?? 0,
    places,
  });
  await recordAudit(actorId, "prolific.study.draft", `study:${study.id}`, {
    slug,
    prolificId: created.id,
    reward,
    estimatedMinutes: minutes,
    timeSource: pilot ? "pilot" : "researcher",
    places,
    completionCodes: completion_codes.map((c) => c.code_type),
  });
  return getProlificStudyView(slug, actorId);
}

/**
 * PUBLISH, PAUSE, START (again after a pause) or STOP the Prolific study. On the first PUBLISH it
 * subscribes the app's hook receiver to submission status changes (a failure there leaves the
 * polling sync alone doing the work, and says so).
 */
export async function transitionProlificStudy(slug: string, action: StudyAction, actorId: string): Promise<ProlificStudyView> {
  const study = await studyOrThrow(slug);
  assertOwner(study, actorId);
  const row = await findProlificStudy(study.id);
  if (!row) throw new AppError("CONFLICT", "Create the Prolific draft first");
  const client = await prolificClientFor(row.ownerId, { studyId: study.id, slug }, actorId);
  const reply = await client.transitionStudy(row.prolificId, action);
  const status = reply.status ?? (action === "PUBLISH" || action === "START" ? "ACTIVE" : action === "PAUSE" ? "PAUSED" : "AWAITING REVIEW");
  let hook: { hookId: string; hookSecret: string } | null = null;
  let hookError: string | null = null;
  if (action === "PUBLISH" && row.hookId === null) {
    try {
      const workspaceId = process.env.PROLIFIC_WORKSPACE_ID?.trim() || (await client.listWorkspaces())[0]?.id;
      if (!workspaceId) throw new AppError("CONFLICT", "Prolific lists no workspace for this token");
      const secret = await client.hookSecret(workspaceId);
      const hookId = await client.subscribeSubmissionStatus(workspaceId, `${appBaseUrl()}/api/prolific/hooks`);
      hook = { hookId, hookSecret: sealSecret(secret) };
    } catch (error) {
      hookError = `hooks not subscribed (the sync polls instead): ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  await updateProlificStudy(study.id, { status, ...(hook ?? {}), ...(hookError ? { lastSyncError: hookError } : {}) });
  await recordAudit(actorId, `prolific.study.${action.toLowerCase()}`, `study:${study.id}`, {
    slug,
    prolificId: row.prolificId,
    status,
    hooked: hook !== null,
    hookError,
  });
  return getProlificStudyView(slug, actorId);
}
