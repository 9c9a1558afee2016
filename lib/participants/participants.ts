import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { PRACTICE_FAIL_REASON, releaseOpenWork } from "@/lib/assignment";
import { AppError } from "@/lib/errors";
import { discardStudyExports, sweepExpiredExports } from "@/lib/exports/export-jobs";
import { forgetAnswersInScorerCache } from "@/lib/scoring/forget";
import type { DbClient } from "@/lib/db/client-types";
import type { ParticipantStatus, StudyStatus } from "@/lib/generated/prisma/enums";
import { tutorialPagesOf } from "@/lib/studies/settings";
import type { EndingName, TutorialPage } from "@/lib/validations/study-settings";

/**
 * Participants of a study (StudyMember with its status): the participant's own steps (consent,
 * tutorial, withdrawal) and what researchers see and do (the status table, marking someone
 * returned, re-including an excluded participant). The queue side (lib/assignment) sets
 * EXCLUDED and TIMED_OUT and hands no new work to anyone who is not ACTIVE.
 */

async function studyOf(slug: string) {
  const study = await db.study.findUnique({
    where: { slug },
    select: { id: true, slug: true, title: true, status: true, consentMarkdown: true, consentVersion: true, tutorialPages: true, completionCode: true, completionRedirectUrl: true },
  });
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
  const member = await db.studyMember.findUnique({
    where: { studyId_userId: { studyId: study.id, userId } },
    select: { status: true, statusReason: true, statusAt: true, consentVersion: true, consentedAt: true, tutorialDoneAt: true, startedAt: true },
  });
  if (!member) throw new AppError("FORBIDDEN", `You are not a member of the study "${slug}"`);
  return participationOf(study, member);
}

/** The study's and the member row's columns that make a Participation. */
export interface ParticipationSource {
  study: { id: string; slug: string; title: string; status: StudyStatus; consentMarkdown: string; consentVersion: number; tutorialPages: unknown };
  member: { status: ParticipantStatus; statusReason: string | null; statusAt: Date | null; consentVersion: number | null; consentedAt: Date | null; tutorialDoneAt: Date | null; startedAt: Date | null };
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
  if (version !== p.consentVersion) throw new AppError("CONFLICT", `The consent text changed (version ${p.consentVersion}; you read version ${version}): please read it again`);
  const consentedAt = new Date();
  await db.studyMember.update({ where: { studyId_userId: { studyId: p.studyId, userId } }, data: { consentVersion: version, consentedAt }, select: { userId: true } });
  return { consentVersion: version, consentedAt };
}

/** Marks the tutorial as read (the practice items come next). Needs the current consent first. */
export async function completeTutorial(slug: string, userId: string): Promise<void> {
  const p = await getParticipation(slug, userId);
  if (p.consentNeeded) throw new AppError("CONFLICT", "Accept the consent form first");
  await db.studyMember.updateMany({ where: { studyId: p.studyId, userId, tutorialDoneAt: null }, data: { tutorialDoneAt: new Date() } });
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
  const deleted = await db.$transaction(async (tx) => {
    const answers = await tx.$queryRaw<Array<{ kind: string; answer: unknown }>>`
      SELECT i.kind, r.answer FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId"
      WHERE a."studyId" = ${p.studyId} AND a."userId" = ${userId}`;
    const cachedReplies = await forgetAnswersInScorerCache(tx, answers);
    const exportFiles = await discardStudyExports(tx, p.studyId, "A participant withdrew while it was being prepared");
    const [counts] = await tx.$queryRaw<Array<{ assignments: bigint; responses: bigint; events: bigint }>>`
      SELECT count(*) AS assignments,
             (SELECT count(*) FROM "Response" r JOIN "Assignment" a2 ON a2.id = r."assignmentId" WHERE a2."studyId" = ${p.studyId} AND a2."userId" = ${userId}) AS responses,
             (SELECT count(*) FROM "Event" e JOIN "Assignment" a3 ON a3.id = e."assignmentId" WHERE a3."studyId" = ${p.studyId} AND a3."userId" = ${userId}) AS events
      FROM "Assignment" a WHERE a."studyId" = ${p.studyId} AND a."userId" = ${userId}`;
    await tx.assignment.deleteMany({ where: { studyId: p.studyId, userId } });
    await tx.studyMember.update({ where: { studyId_userId: { studyId: p.studyId, userId } }, data: { status: "RETURNED", statusReason: WITHDRAWN_REASON, statusAt: new Date() }, select: { userId: true } });
    const deleted = { assignments: Number(counts.assignments), responses: Number(counts.responses), events: Number(counts.events) };
    await tx.auditLog.create({ data: { actorId: userId, action: "participant.withdraw", target: `study:${p.studyId}`, detail: { slug, userId, ...deleted, cachedReplies, exportFiles } } });
    return deleted;
  });
  await sweepExpiredExports().catch((error: unknown) => console.error("withdrawal: removing the study's export files failed (the next sweep tries again):", error instanceof Error ? error.message : error));
  return deleted;
}

/** COMPLETE once the queue says there is nothing left for an ACTIVE participant (idempotent). */
export async function markParticipantComplete(studyId: string, userId: string): Promise<void> {
  await db.studyMember.updateMany({ where: { studyId, userId, status: "ACTIVE" }, data: { status: "COMPLETE", statusReason: null, statusAt: new Date() } });
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
  const members = await db.studyMember.findMany({
    where: { studyId: study.id, user: { isAgent: false } },
    orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
    select: {
      userId: true,
      createdAt: true,
      status: true,
      statusReason: true,
      statusAt: true,
      consentVersion: true,
      consentedAt: true,
      startedAt: true,
      entrySession: true,
      user: { select: { name: true, externalSource: true, externalId: true } },
    },
  });
  const work = await db.$queryRaw<Array<{ userId: string; main: bigint; practice: bigint; open: bigint; gold: bigint; goldFailed: bigint; last: Date | null }>>`
    SELECT a."userId",
      count(r.id) FILTER (WHERE a.purpose <> 'PRACTICE') AS main,
      count(r.id) FILTER (WHERE a.purpose = 'PRACTICE') AS practice,
      count(*) FILTER (WHERE a.status IN ('ASSIGNED', 'STARTED')) AS open,
      count(r.id) FILTER (WHERE i.gold) AS gold,
      count(r.id) FILTER (WHERE i.gold AND NOT r.correct) AS "goldFailed",
      greatest(max(r."createdAt"), max(a."startedAt")) AS last
    FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId" LEFT JOIN "Response" r ON r."assignmentId" = a.id
    WHERE a."studyId" = ${study.id}
    GROUP BY a."userId"`;
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
  return db.$transaction(async (tx) => {
    const member = await tx.studyMember.findUnique({ where: { studyId_userId: { studyId: study.id, userId: input.userId } }, select: { status: true, statusReason: true, user: { select: { name: true } } } });
    if (!member) throw new AppError("NOT_FOUND", `That user is not a participant of ${slug}`);
    if (input.action === "return") {
      if (member.status === "RETURNED") throw new AppError("CONFLICT", `${member.user.name} is marked returned already`);
      // a completed participant's answers are whole: a return on Prolific after completing changes nothing here
      if (member.status === "COMPLETE") throw new AppError("CONFLICT", `${member.user.name} completed the study, so is not marked returned`);
      const reason = input.reason || "marked returned by a researcher";
      await tx.studyMember.update({ where: { studyId_userId: { studyId: study.id, userId: input.userId } }, data: { status: "RETURNED", statusReason: reason, statusAt: new Date() }, select: { userId: true } });
      const released = await releaseOpenAssignments(tx, study.id, input.userId);
      await tx.auditLog.create({ data: { actorId, action: "participant.return", target: `study:${study.id}`, detail: { slug, userId: input.userId, from: member.status, reason, released } } });
      return { status: "RETURNED" as const, released };
    }
    if (member.status !== "EXCLUDED") throw new AppError("CONFLICT", `${member.user.name} is ${member.status.toLowerCase().replace("_", " ")}, not excluded`);
    const reason = input.reason || "re-included by a researcher";
    await tx.studyMember.update({ where: { studyId_userId: { studyId: study.id, userId: input.userId } }, data: { status: "ACTIVE", statusReason: reason, statusAt: new Date() }, select: { userId: true } });
    await tx.auditLog.create({ data: { actorId, action: "participant.reinclude", target: `study:${study.id}`, detail: { slug, userId: input.userId, previousReason: member.statusReason, reason } } });
    return { status: "ACTIVE" as const, released: 0 };
  });
}

/** Users whose answers dashboards leave out by default: the study's EXCLUDED participants. */
export async function excludedParticipantIds(studyId: string): Promise<string[]> {
  const rows = await db.studyMember.findMany({ where: { studyId, status: "EXCLUDED" }, select: { userId: true } });
  return rows.map((row) => row.userId);
}

/** How many answers the participant has given in the study (what withdrawing would delete). */
export async function countParticipantResponses(studyId: string, userId: string): Promise<number> {
  return db.response.count({ where: { assignment: { studyId, userId } } });
}
