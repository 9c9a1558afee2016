import "server-only";
import { z } from "zod";
import { PRACTICE_FAIL_REASON, releaseOpenWork } from "@/lib/assignment";
import { AppError } from "@/lib/errors";
import { discardStudyExports, sweepExpiredExports } from "@/lib/exports/export-jobs";
import { forgetAnswersInScorerCache } from "@/lib/scoring/forget";
import type { DbClient, Tx } from "@/lib/db/client-types";
import type { ParticipantStatus, StudyStatus } from "@/lib/generated/prisma/enums";
import { insertAuditEntry } from "@/lib/repos/audit";
import {
  countResponsesOfParticipant,
  countParticipantWork,
  countWorkByParticipant,
  deleteParticipantAssignments,
  findMember,
  findMemberStanding,
  listMemberIdsWithStatus,
  listParticipantAnswers,
  listPeopleOfStudy,
  markMemberComplete,
  markTutorialDone,
  setMemberConsent,
  setMemberStatus,
} from "@/lib/repos/participants";
import { findStudyForParticipants } from "@/lib/repos/studies";
import { inTransaction } from "@/lib/repos/transactions";
import { tutorialPagesOf } from "@/lib/studies/settings";
import type { EndingName, TutorialPage } from "@/lib/validations/study-settings";

/**
 * Participants of a study (StudyMember with its status): the participant's own steps (consent,
 * tutorial, withdrawal) and what researchers see and do (the status table, marking someone
 * returned, re-including an excluded participant). The queue side (lib/assignment) sets
 * EXCLUDED and TIMED_OUT and hands no new work to anyone who is not ACTIVE.
 */

async function studyOf(slug: string) {
  const study = await findStudyForParticipants(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  return study;
}

// ------------------------------------------------------------------------------------------------
// the participant's side

export interface Participation {
  studyId: string;
  slug: string;
  title: string;
  studyStatus: StudyStatus;
  status: ParticipantStatus;
  statusReason: string | null;
  statusAt: Date | null;
  /** Markdown; "" when the study asks for no consent */
  consentMarkdown: string;
  consentVersion: number;
  /** the version this participant accepted, and when */
  acceptedVersion: number | null;
  consentedAt: Date | null;
  consentNeeded: boolean;
  tutorialPages: TutorialPage[];
  tutorialNeeded: boolean;
  startedAt: Date | null;
  /** the participant withdrew (their responses and events were deleted) */
  withdrawn: boolean;
}

export const WITHDRAWN_REASON = "withdrew from the study; responses and events deleted";

/** The participant's standing in a study: FORBIDDEN when not a member, NOT_FOUND when no such study. */
export async function getParticipation(slug: string, userId: string): Promise<Participation> {
  const study = await studyOf(slug);
  const member = await findMember(study.id, userId);
  if (!member) throw new AppError("FORBIDDEN", `You are not a member of the study "${slug}"`);
  return participationOf(study, member);
}

/** The study's and the member row's columns that make a Participation. */
export interface ParticipationSource {
  study: { id: string; slug: string; title: string; status: StudyStatus; consentMarkdown: string; consentVersion: number; tutorialPages: unknown };
  member: {
    status: ParticipantStatus;
    statusReason: string | null;
    statusAt: Date | null;
    consentVersion: number | null;
    consentedAt: Date | null;
    tutorialDoneAt: Date | null;
    startedAt: Date | null;
  };
}

/** A Participation from rows already read (next-item reads them with the study in one query: lib/annotate/next.ts). */
export function participationOf(study: ParticipationSource["study"], member: ParticipationSource["member"]): Participation {
  const tutorialPages = tutorialPagesOf(study.tutorialPages);
  const consentMarkdown = study.consentMarkdown.trim();
  return {
    studyId: study.id,
    slug: study.slug,
    title: study.title,
    studyStatus: study.status,
    status: member.status,
    statusReason: member.statusReason,
    statusAt: member.statusAt,
    consentMarkdown,
    consentVersion: study.consentVersion,
    acceptedVersion: member.consentVersion,
    consentedAt: member.consentedAt,
    consentNeeded: consentMarkdown !== "" && member.consentVersion !== study.consentVersion,
    tutorialPages,
    tutorialNeeded: tutorialPages.length > 0 && member.tutorialDoneAt === null,
    startedAt: member.startedAt,
    withdrawn: member.status === "RETURNED" && member.statusReason === WITHDRAWN_REASON,
  };
}

/**
 * Which ending a participant's part came to (each has its own wording, completion code and
 * redirect: Study.endings), or null for one that gets none (still active, complete: the study's
 * own completion code, returned, withdrawn). Missing the practice pass mark is "failed screening",
 * not an exclusion for failed checks.
 */
export function endingOf(p: Pick<Participation, "status" | "statusReason" | "withdrawn">): Exclude<EndingName, "full"> | null {
  if (p.status === "EXCLUDED") return p.statusReason?.startsWith(PRACTICE_FAIL_REASON) ? "failedScreening" : "excluded";
  if (p.status === "TIMED_OUT") return "timedOut";
  return null;
}

/** Where a participant must go before any work, or null when work may begin. */
export function gatePath(p: Pick<Participation, "slug" | "status" | "consentNeeded" | "tutorialNeeded">): string | null {
  if (p.status === "EXCLUDED" || p.status === "TIMED_OUT" || p.status === "RETURNED") return `/s/${p.slug}/ended`;
  if (p.consentNeeded) return `/s/${p.slug}/consent`;
  if (p.tutorialNeeded) return `/s/${p.slug}/tutorial`;
  return null;
}

/** Accepts the consent text of `version` (CONFLICT when the text changed since the page was shown). */
export async function acceptConsent(slug: string, userId: string, version: number): Promise<{ consentVersion: number; consentedAt: Date }> {
  const p = await getParticipation(slug, userId);
  if (p.consentMarkdown === "") throw new AppError("INVALID", `The study "${slug}" asks for no consent`);
  if (version !== p.consentVersion)
    throw new AppError("CONFLICT", `The consent text changed (version ${p.consentVersion}; you read version ${version}): please read it again`);
  const consentedAt = new Date();
  await setMemberConsent(p.studyId, userId, version, consentedAt);
  return { consentVersion: version, consentedAt };
}

/** Marks the tutorial as read (the practice items come next). Needs the current consent first. */
export async function completeTutorial(slug: string, userId: string): Promise<void> {
  const p = await getParticipation(slug, userId);
  if (p.consentNeeded) throw new AppError("CONFLICT", "Accept the consent form first");
  await markTutorialDone(p.studyId, userId);
}

/**
 * The participant withdraws: every assignment of theirs in the study goes, and with it their
 * responses, trajectory events and play steps (cascades); the items return to the pool. Their
 * copies go too: the scorer LLM's cached replies to their texts (lib/scoring/forget.ts) and the
 * study's export files prepared before (removed after the commit; their jobs read EXPIRED). The
 * membership stays as RETURNED with the reason, so the link does not silently start them again,
 * and the audit log says what was deleted.
 */
export async function withdrawFromStudy(slug: string, userId: string): Promise<{ assignments: number; responses: number; events: number }> {
  const p = await getParticipation(slug, userId);
  if (p.withdrawn) throw new AppError("CONFLICT", "You have withdrawn from this study already");
  const deleted = await inTransaction(async (tx) => {
    const answers = await listParticipantAnswers(tx, p.studyId, userId);
    const cachedReplies = await forgetAnswersInScorerCache(tx, answers);
    const exportFiles = await discardStudyExports(tx, p.studyId, "A participant withdrew while it was being prepared");
    const counts = await countParticipantWork(tx, p.studyId, userId);
    await deleteParticipantAssignments(tx, p.studyId, userId);
    await setMemberStatus(tx, p.studyId, userId, "RETURNED", WITHDRAWN_REASON);
    const deleted = { assignments: Number(counts.assignments), responses: Number(counts.responses), events: Number(counts.events) };
    await insertAuditEntry(
      { actorId: userId, action: "participant.withdraw", target: `study:${p.studyId}`, detail: { slug, userId, ...deleted, cachedReplies, exportFiles } },
      tx,
    );
    return deleted;
  });
  await sweepExpiredExports().catch((error: unknown) =>
    console.error("withdrawal: removing the study's export files failed (the next sweep tries again):", error instanceof Error ? error.message : error),
  );
  return deleted;
}

/** COMPLETE once the queue says there is nothing left for an ACTIVE participant (idempotent). */
export async function markParticipantComplete(studyId: string, userId: string): Promise<void> {
  await markMemberComplete(studyId, userId);
}

// ------------------------------------------------------------------------------------------------
// researchers' side

/** Sets the participant's open (not submitted) assignments RELEASED: their places go back to the pool (the queue's own rule, lib/assignment). */
export async function releaseOpenAssignments(client: DbClient, studyId: string, userId: string): Promise<number> {
  return releaseOpenWork(client, studyId, userId);
}

export interface ParticipantRow {
  userId: string;
  name: string;
  externalSource: string | null;
  externalId: string | null;
  status: ParticipantStatus;
  statusReason: string | null;
  statusAt: string | null;
  joinedAt: string;
  consentedAt: string | null;
  consentVersion: number | null;
  startedAt: string | null;
  /** Prolific's STUDY_ID / SESSION_ID and the like, from the entry link */
  entrySession: Record<string, unknown> | null;
  mainSubmitted: number;
  practiceSubmitted: number;
  open: number;
  goldAnswered: number;
  goldFailed: number;
  lastActivity: string | null;
}

export type StatusCounts = Record<ParticipantStatus, number>;

export const PARTICIPANT_STATUSES: ParticipantStatus[] = ["ACTIVE", "COMPLETE", "EXCLUDED", "RETURNED", "TIMED_OUT"];

export async function listParticipants(slug: string): Promise<{ rows: ParticipantRow[]; counts: StatusCounts; consentVersion: number }> {
  const study = await studyOf(slug);
  // people only: model agents have the Agents tab (lib/participants/agents.ts)
  const members = await listPeopleOfStudy(study.id);
  const work = await countWorkByParticipant(study.id);
  const byUser = new Map(work.map((w) => [w.userId, w]));
  const counts = Object.fromEntries(PARTICIPANT_STATUSES.map((s) => [s, 0])) as StatusCounts;
  const rows = members.map((m): ParticipantRow => {
    counts[m.status] += 1;
    const w = byUser.get(m.userId);
    return {
      userId: m.userId,
      name: m.user.name,
      externalSource: m.user.externalSource,
      externalId: m.user.externalId,
      status: m.status,
      statusReason: m.statusReason,
      statusAt: m.statusAt?.toISOString() ?? null,
      joinedAt: m.createdAt.toISOString(),
      consentedAt: m.consentedAt?.toISOString() ?? null,
      consentVersion: m.consentVersion,
      startedAt: m.startedAt?.toISOString() ?? null,
      entrySession: m.entrySession && typeof m.entrySession === "object" && !Array.isArray(m.entrySession) ? (m.entrySession as Record<string, unknown>) : null,
      mainSubmitted: Number(w?.main ?? 0),
      practiceSubmitted: Number(w?.practice ?? 0),
      open: Number(w?.open ?? 0),
      goldAnswered: Number(w?.gold ?? 0),
      goldFailed: Number(w?.goldFailed ?? 0),
      lastActivity: w?.last?.toISOString() ?? null,
    };
  });
  return { rows, counts, consentVersion: study.consentVersion };
}

export const participantActionSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("return"), userId: z.string().min(1).max(64), reason: z.string().trim().max(300, "at most 300 characters").optional() }),
  z.object({ action: z.literal("reinclude"), userId: z.string().min(1).max(64), reason: z.string().trim().max(300, "at most 300 characters").optional() }),
]);
export type ParticipantAction = z.infer<typeof participantActionSchema>;

/**
 * A researcher's action on one participant:
 * - return: the participant gave up (e.g. returned the submission on Prolific): RETURNED, and their
 *   open assignments are RELEASED so the places go back to the pool;
 * - reinclude: an EXCLUDED participant becomes ACTIVE again (their answers count in dashboards
 *   again, and they may get new work).
 * Each writes an audit entry.
 */
export async function actOnParticipant(slug: string, input: ParticipantAction, actorId: string): Promise<{ status: ParticipantStatus; released: number }> {
  const study = await studyOf(slug);
  return inTransaction(async (tx) => {
    const member = await findMemberStanding(tx, study.id, input.userId);
    if (!member) throw new AppError("NOT_FOUND", `That user is not a participant of ${slug}`);
    if (input.action === "return") {
      if (member.status === "RETURNED") throw new AppError("CONFLICT", `${member.user.name} is marked returned already`);
      // a completed participant's answers are whole: a return on Prolific after completing changes nothing here
      if (member.status === "COMPLETE") throw new AppError("CONFLICT", `${member.user.name} completed the study, so is not marked returned`);
      const reason = input.reason || "marked returned by a researcher";
      await setMemberStatus(tx, study.id, input.userId, "RETURNED", reason);
      const released = await releaseOpenAssignments(tx, study.id, input.userId);
      await insertAuditEntry(
        { actorId, action: "participant.return", target: `study:${study.id}`, detail: { slug, userId: input.userId, from: member.status, reason, released } },
        tx,
      );
      return { status: "RETURNED" as const, released };
    }
    if (member.status !== "EXCLUDED") throw new AppError("CONFLICT", `${member.user.name} is ${member.status.toLowerCase().replace("_", " ")}, not excluded`);
    const reason = input.reason || "re-included by a researcher";
    await setMemberStatus(tx, study.id, input.userId, "ACTIVE", reason);
    await insertAuditEntry(
      {
        actorId,
        action: "participant.reinclude",
        target: `study:${study.id}`,
        detail: { slug, userId: input.userId, previousReason: member.statusReason, reason },
      },
      tx,
    );
    return { status: "ACTIVE" as const, released: 0 };
  });
}

/**
 * A recruitment platform says the participant's submission ended without completing (returned on
 * Prolific, or timed out there): as "Mark returned" does, they become RETURNED (TIMED_OUT) and
 * their open assignments are RELEASED, so the places go back to the pool at once. A completed
 * participant, or one already marked, is left as they are (false). Audited as the system's.
 */
export async function endParticipantFromPlatform(
  tx: Tx,
  studyId: string,
  userId: string,
  status: "RETURNED" | "TIMED_OUT",
  reason: string,
): Promise<{ changed: boolean; released: number }> {
  const member = await findMemberStanding(tx, studyId, userId);
  if (!member || member.status === "COMPLETE" || member.status === "RETURNED" || member.status === "TIMED_OUT") return { changed: false, released: 0 };
  await setMemberStatus(tx, studyId, userId, status, reason);
  const released = await releaseOpenAssignments(tx, studyId, userId);
  await insertAuditEntry(
    {
      actorId: null,
      action: status === "RETURNED" ? "participant.return" : "participant.timed-out",
      target: `study:${studyId}`,
      detail: { userId, from: member.status, reason, released },
    },
    tx,
  );
  return { changed: true, released };
}

/** Users whose answers dashboards leave out by default: the study's EXCLUDED participants. */
export async function excludedParticipantIds(studyId: string): Promise<string[]> {
  const rows = await listMemberIdsWithStatus(studyId, "EXCLUDED");
  return rows.map((row) => row.userId);
}

/** How many answers the participant has given in the study (what withdrawing would delete). */
export async function countParticipantResponses(studyId: string, userId: string): Promise<number> {
  return countResponsesOfParticipant(studyId, userId);
}
