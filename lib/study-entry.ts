import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { db } from "@/lib/db";
import { recordAudit } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import type { StudyStatus } from "@/lib/generated/prisma/enums";
import { WITHDRAWN_REASON } from "@/lib/participants";
import { reviewExcludedItemFilter } from "@/lib/review/exclusion";

/**
 * How participants get into a study without a password.
 *
 * Public link /join/<entryToken>?PROLIFIC_PID=..&STUDY_ID=..&SESSION_ID=.. (Prolific) or ?pid=..
 * (any other source): the external id names one annotator account, User(externalSource,
 * externalId), which is unique in the database; so the same id twice (also at the same moment,
 * the loser of the race reads the winner's row) is one account, resumed on any device. Prolific's
 * session fields go to StudyMember.entrySession.
 *
 * Invite link /join/invite/<token>: a personal link for one named annotator (StudyInvite), made
 * by a researcher; it signs that annotator in, as often as they open it, until it is revoked.
 *
 * The page under each link only checks (parseEntryParams, previewEntry: nothing is written, so a
 * link preview or a crawler creates nothing); the account is created or resumed when the
 * participant's browser signs in with next-auth's "study-link" credentials (lib/auth.ts).
 */

const PLACEHOLDER = /\{\{%?\s*[A-Z_]+\s*%?\}\}|%PROLIFIC_PID%|%STUDY_ID%|%SESSION_ID%/;
/** Prolific's participant, study and session ids are 24-character hexadecimal object ids */
const PROLIFIC_ID = /^[0-9a-f]{24}$/i;
const GENERIC_ID = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

export type EntrySource = "prolific" | "link";

export interface EntryParams {
  source: EntrySource;
  externalId: string;
  /** Prolific: STUDY_ID and SESSION_ID (when given) */
  session: Record<string, string>;
}

export interface EntryProblem {
  field: string;
  message: string;
}

function invalid(problems: EntryProblem[]): AppError {
  return new AppError("INVALID", `This study link is not valid: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`, { issues: problems.map((p) => ({ path: p.field, message: p.message })) });
}

type Query = Record<string, string | string[] | undefined>;

/** One value per field: a field given twice with different values is refused (a tampered link). */
function single(query: Query, field: string, problems: EntryProblem[]): string | undefined {
  const raw = query[field];
  if (raw === undefined) return undefined;
  const values = [...new Set((Array.isArray(raw) ? raw : [raw]).map((v) => v.trim()))];
  if (values.length > 1) {
    problems.push({ field, message: `given ${values.length} times with different values` });
    return undefined;
  }
  return values[0];
}

function checkId(field: string, value: string | undefined, pattern: RegExp, expected: string, problems: EntryProblem[]): string | undefined {
  if (value === undefined) return undefined;
  if (value === "") problems.push({ field, message: "is empty" });
  else if (PLACEHOLDER.test(value)) problems.push({ field, message: `still holds the placeholder ${JSON.stringify(value)}: open the study from the recruitment platform, which fills it in` });
  else if (!pattern.test(value)) problems.push({ field, message: `${JSON.stringify(value.slice(0, 80))} is not ${expected}` });
  else return value;
  return undefined;
}

/**
 * The participant fields of a study link, checked: Prolific's PROLIFIC_PID (with STUDY_ID and
 * SESSION_ID) or a generic pid. Missing, malformed, duplicated, conflicting or unfilled
 * placeholder fields throw INVALID naming each field.
 */
export function parseEntryParams(query: Query): EntryParams {
  const problems: EntryProblem[] = [];
  const pid = checkId("PROLIFIC_PID", single(query, "PROLIFIC_PID", problems), PROLIFIC_ID, "a Prolific id (24 hexadecimal characters)", problems);
  const studyId = checkId("STUDY_ID", single(query, "STUDY_ID", problems), PROLIFIC_ID, "a Prolific study id (24 hexadecimal characters)", problems);
  const sessionId = checkId("SESSION_ID", single(query, "SESSION_ID", problems), PROLIFIC_ID, "a Prolific session id (24 hexadecimal characters)", problems);
  const generic = checkId("pid", single(query, "pid", problems), GENERIC_ID, "a participant id (letters, digits and _ . : @ -, at most 128)", problems);
  const prolificFields = ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID"].filter((f) => query[f] !== undefined);
  if (prolificFields.length > 0 && query.PROLIFIC_PID === undefined) problems.push({ field: "PROLIFIC_PID", message: `missing (the link has ${prolificFields.join(" and ")} but no participant id)` });
  if (query.PROLIFIC_PID !== undefined && query.pid !== undefined && pid !== undefined && generic !== undefined && pid !== generic) {
    problems.push({ field: "pid", message: "differs from PROLIFIC_PID: a link names one participant" });
  }
  if (prolificFields.length === 0 && query.pid === undefined) problems.push({ field: "PROLIFIC_PID", message: "missing: the link needs a participant id (PROLIFIC_PID from Prolific, or pid)" });
  if (problems.length > 0) throw invalid(problems);
  if (pid !== undefined) {
    const session: Record<string, string> = {};
    if (studyId) session.STUDY_ID = studyId;
    if (sessionId) session.SESSION_ID = sessionId;
    return { source: "prolific", externalId: pid.toLowerCase(), session };
  }
  return { source: "link", externalId: generic!, session: {} };
}

interface EntryStudy {
  id: string;
  slug: string;
  title: string;
  status: StudyStatus;
  overlap: number;
}

async function studyByEntryToken(entryToken: string): Promise<EntryStudy> {
  const study = entryToken.length >= 8 && entryToken.length <= 100 ? await db.study.findUnique({ where: { entryToken }, select: { id: true, slug: true, title: true, status: true, overlap: true } }) : null;
  if (!study) throw new AppError("NOT_FOUND", "No study behind this link: it may have been replaced or switched off. Please ask the research team for the current link.");
  return study;
}

/** Places left for new participants: per non-practice item, k minus its MAIN assignments that hold a place. */
export async function openPlaces(studyId: string, overlap: number): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ n: bigint | null }>>`
    SELECT sum(GREATEST(0, ${overlap} - (SELECT count(*) FROM "Assignment" a WHERE a."itemId" = i.id AND a.purpose = 'MAIN' AND a.status <> 'RELEASED'))) AS n
    FROM "Item" i WHERE i."studyId" = ${studyId} AND NOT i.practice AND ${reviewExcludedItemFilter("i")}`;
  return Number(row?.n ?? 0);
}

function refuseNewcomer(study: EntryStudy): void {
  if (study.status === "DRAFT") throw new AppError("CONFLICT", `“${study.title}” has not started yet. Please try again later.`, { reason: "draft" });
  if (study.status === "PAUSED") throw new AppError("CONFLICT", `“${study.title}” is paused at the moment and takes no new participants. Please try again later.`, { reason: "paused" });
  if (study.status === "CLOSED") throw new AppError("CONFLICT", `“${study.title}” is closed and takes no new participants.`, { reason: "closed" });
}

function refuseMember(member: { status: string; statusReason: string | null }, title: string): void {
  if (member.status === "RETURNED" && member.statusReason === WITHDRAWN_REASON) {
    throw new AppError("FORBIDDEN", `You withdrew from “${title}”, and your answers were deleted. You cannot take part again.`, { reason: "withdrawn" });
  }
}

export interface EntryPreview {
  study: { slug: string; title: string; status: StudyStatus };
  params: EntryParams;
  /** the participant has an account and a place in this study already (they resume) */
  returning: boolean;
}

/** What the page at the link shows: the study and the participant, checked; nothing is written. */
export async function previewEntry(entryToken: string, query: Query): Promise<EntryPreview> {
  const study = await studyByEntryToken(entryToken);
  const params = parseEntryParams(query);
  const user = await db.user.findUnique({ where: { externalSource_externalId: { externalSource: params.source, externalId: params.externalId } }, select: { id: true } });
  const member = user ? await db.studyMember.findUnique({ where: { studyId_userId: { studyId: study.id, userId: user.id } }, select: { status: true, statusReason: true, entrySession: true } }) : null;
  if (member) {
    refuseMember(member, study.title);
    checkSameStudy(member.entrySession, params);
  } else {
    refuseNewcomer(study);
    if ((await openPlaces(study.id, study.overlap)) === 0) throw new AppError("CONFLICT", `“${study.title}” is full: every place is taken. Thank you for your interest.`, { reason: "full" });
  }
  return { study: { slug: study.slug, title: study.title, status: study.status }, params, returning: member !== null };
}

/** A returning Prolific participant must come from the same Prolific study as the first time. */
function checkSameStudy(stored: unknown, params: EntryParams): void {
  const before = stored && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>).STUDY_ID : undefined;
  if (typeof before === "string" && params.session.STUDY_ID && before !== params.session.STUDY_ID) {
    throw new AppError("CONFLICT", `This participant entered from Prolific study ${before}, not ${params.session.STUDY_ID}: the link was changed`, {
      issues: [{ path: "STUDY_ID", message: `differs from the one this participant entered with (${before})` }],
    });
  }
}

/** The session fields to store: the latest, plus every SESSION_ID seen before (a participant may re-enter). */
function mergedSession(stored: unknown, params: EntryParams): Prisma.InputJsonValue {
  const before = stored && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  const sessions = new Set<string>(Array.isArray(before.sessionIds) ? before.sessionIds.filter((s): s is string => typeof s === "string") : []);
  if (typeof before.SESSION_ID === "string") sessions.add(before.SESSION_ID);
  if (params.session.SESSION_ID) sessions.add(params.session.SESSION_ID);
  return { ...before, ...params.session, source: params.source, ...(sessions.size > 0 ? { sessionIds: [...sessions] } : {}) };
}

function displayName(params: EntryParams): string {
  return params.source === "prolific" ? `Prolific ${params.externalId}` : `Participant ${params.externalId}`;
}

export interface EnteredUser {
  id: string;
  name: string;
  email: string | null;
  slug: string;
  created: boolean;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/** The account of an external id, created when new; concurrent calls for one id get one account. */
async function externalAccount(params: EntryParams): Promise<{ id: string; name: string; email: string | null; role: string; disabled: boolean; created: boolean }> {
  const where = { externalSource_externalId: { externalSource: params.source, externalId: params.externalId } };
  const select = { id: true, name: true, email: true, role: true, disabled: true } as const;
  const existing = await db.user.findUnique({ where, select });
  if (existing) return { ...existing, created: false };
  try {
    const user = await db.user.create({ data: { name: displayName(params), role: "ANNOTATOR", externalSource: params.source, externalId: params.externalId }, select });
    return { ...user, created: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return { ...(await db.user.findUniqueOrThrow({ where, select })), created: false };
  }
}

/**
 * Creates or resumes the participant of a study link and makes them a member with their session
 * fields. Refusals: NOT_FOUND (no such link), INVALID (fields), CONFLICT (not open, full, other
 * Prolific study), FORBIDDEN (withdrew; a disabled or staff account).
 */
export async function enterByLink(entryToken: string, query: Query): Promise<EnteredUser> {
  const study = await studyByEntryToken(entryToken);
  const params = parseEntryParams(query);
  const account = await externalAccount(params);
  if (account.disabled) throw new AppError("FORBIDDEN", "This participant account is disabled. Please contact the research team.");
  if (account.role !== "ANNOTATOR") throw new AppError("FORBIDDEN", "This account cannot sign in by a study link.");
  const member = await db.studyMember.findUnique({ where: { studyId_userId: { studyId: study.id, userId: account.id } }, select: { status: true, statusReason: true, entrySession: true } });
  if (member) {
    refuseMember(member, study.title);
    checkSameStudy(member.entrySession, params);
    await db.studyMember.update({ where: { studyId_userId: { studyId: study.id, userId: account.id } }, data: { entrySession: mergedSession(member.entrySession, params) }, select: { userId: true } });
  } else {
    refuseNewcomer(study);
    if ((await openPlaces(study.id, study.overlap)) === 0) throw new AppError("CONFLICT", `“${study.title}” is full: every place is taken. Thank you for your interest.`, { reason: "full" });
    // the same participant in two tabs at once: one row, the other insert is skipped
    await db.studyMember.createMany({ data: [{ studyId: study.id, userId: account.id, entrySession: mergedSession(null, params) }], skipDuplicates: true });
  }
  return { id: account.id, name: account.name, email: account.email, slug: study.slug, created: account.created };
}

// ------------------------------------------------------------------------------------------------
// invites

export const inviteCreateSchema = z.union([
  z.object({ userId: z.string().min(1).max(64) }),
  z.object({ name: z.string().trim().min(1, "a name is needed").max(120, "at most 120 characters"), email: z.union([z.literal(""), z.string().trim().toLowerCase().email("not an email address")]).optional() }),
]);
export type InviteCreateInput = z.infer<typeof inviteCreateSchema>;

export const inviteRevokeSchema = z.object({ inviteId: z.string().min(1).max(64) });

async function studyIdOf(slug: string): Promise<{ id: string; title: string }> {
  const study = await db.study.findUnique({ where: { slug }, select: { id: true, title: true } });
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  return study;
}

/** An invite as researchers see it: the annotator by name (research views never show emails). */
export interface InviteRow {
  id: string;
  token: string;
  userId: string;
  name: string;
  createdAt: string;
  usedAt: string | null;
}

export async function listInvites(slug: string): Promise<InviteRow[]> {
  const study = await studyIdOf(slug);
  const invites = await db.studyInvite.findMany({ where: { studyId: study.id }, orderBy: { createdAt: "desc" }, select: { id: true, token: true, userId: true, createdAt: true, usedAt: true, user: { select: { name: true } } } });
  return invites.map((i) => ({ id: i.id, token: i.token, userId: i.userId, name: i.user.name, createdAt: i.createdAt.toISOString(), usedAt: i.usedAt?.toISOString() ?? null }));
}

/**
 * An invite link for a named annotator: an existing ANNOTATOR (userId) or a new one made from a
 * name (and an email, optional; an existing annotator with that email is reused). The annotator
 * becomes a member of the study at once.
 */
export async function createInvite(slug: string, input: InviteCreateInput, actorId: string): Promise<InviteRow> {
  const study = await studyIdOf(slug);
  let user: { id: string; name: string; email: string | null; role: string; disabled: boolean } | null;
  if ("userId" in input) {
    user = await db.user.findUnique({ where: { id: input.userId }, select: { id: true, name: true, email: true, role: true, disabled: true } });
    if (!user) throw new AppError("NOT_FOUND", `No user with id ${input.userId}`);
  } else {
    const email = input.email ? input.email : null;
    user = email ? await db.user.findUnique({ where: { email }, select: { id: true, name: true, email: true, role: true, disabled: true } }) : null;
    if (!user) {
      try {
        user = await db.user.create({ data: { name: input.name, email, role: "ANNOTATOR" }, select: { id: true, name: true, email: true, role: true, disabled: true } });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError("CONFLICT", `A user with the email ${email} exists already`);
        throw error;
      }
    }
  }
  if (user.role !== "ANNOTATOR") throw new AppError("INVALID", `${user.name} is a ${user.role.toLowerCase()}: invite links are for annotators (staff sign in with their password)`);
  if (user.disabled) throw new AppError("INVALID", `${user.name} is disabled`);
  const token = randomBytes(24).toString("base64url");
  const invite = await db.studyInvite.create({ data: { token, studyId: study.id, userId: user.id }, select: { id: true, createdAt: true } });
  await db.studyMember.createMany({ data: [{ studyId: study.id, userId: user.id }], skipDuplicates: true });
  await recordAudit(actorId, "study.invite.create", `study:${study.id}`, { slug, inviteId: invite.id, userId: user.id, name: user.name });
  return { id: invite.id, token, userId: user.id, name: user.name, createdAt: invite.createdAt.toISOString(), usedAt: null };
}

export async function revokeInvite(slug: string, inviteId: string, actorId: string): Promise<void> {
  const study = await studyIdOf(slug);
  const deleted = await db.studyInvite.deleteMany({ where: { id: inviteId, studyId: study.id } });
  if (deleted.count === 0) throw new AppError("NOT_FOUND", `No invite ${inviteId} in ${slug}`);
  await recordAudit(actorId, "study.invite.revoke", `study:${study.id}`, { slug, inviteId });
}

async function inviteByToken(token: string) {
  const invite =
    token.length >= 8 && token.length <= 100
      ? await db.studyInvite.findUnique({
          where: { token },
          select: { id: true, usedAt: true, studyId: true, study: { select: { slug: true, title: true, status: true } }, user: { select: { id: true, name: true, email: true, role: true, disabled: true } } },
        })
      : null;
  if (!invite) throw new AppError("NOT_FOUND", "This invite link is not valid (any more). Please ask the research team for a new one.");
  return invite;
}

/** What the invite page shows; nothing is written. */
export async function previewInvite(token: string): Promise<{ study: { slug: string; title: string; status: StudyStatus }; name: string }> {
  const invite = await inviteByToken(token);
  if (invite.study.status === "DRAFT") throw new AppError("CONFLICT", `“${invite.study.title}” has not started yet. Please try again later.`, { reason: "draft" });
  return { study: invite.study, name: invite.user.name };
}

/** Signs in the invited annotator: marks the invite used (the first time) and makes sure of the membership. */
export async function enterByInvite(token: string): Promise<EnteredUser> {
  const invite = await inviteByToken(token);
  const { user, study } = invite;
  if (user.disabled) throw new AppError("FORBIDDEN", "This account is disabled. Please contact the research team.");
  if (user.role !== "ANNOTATOR") throw new AppError("FORBIDDEN", "This account cannot sign in by an invite link.");
  if (study.status === "DRAFT") throw new AppError("CONFLICT", `“${study.title}” has not started yet. Please try again later.`, { reason: "draft" });
  const member = await db.studyMember.findUnique({ where: { studyId_userId: { studyId: invite.studyId, userId: user.id } }, select: { status: true, statusReason: true } });
  if (member) refuseMember(member, study.title);
  await db.studyMember.createMany({ data: [{ studyId: invite.studyId, userId: user.id }], skipDuplicates: true });
  await db.studyInvite.updateMany({ where: { id: invite.id, usedAt: null }, data: { usedAt: new Date() } });
  return { id: user.id, name: user.name, email: user.email, slug: study.slug, created: false };
}

// ------------------------------------------------------------------------------------------------
// next-auth's "study-link" credentials (lib/auth.ts)

export const studyLinkCredentialsSchema = z.union([
  z.object({ invite: z.string().min(1).max(100) }),
  z.object({ entryToken: z.string().min(1).max(100), query: z.string().max(4000) }),
]);

/** The credentials the browser posts: the link's token and its query string, as the page received them. */
export async function enterByCredentials(raw: unknown): Promise<EnteredUser> {
  const parsed = studyLinkCredentialsSchema.safeParse(raw);
  if (!parsed.success) throw new AppError("INVALID", "This study link is not valid: it lacks its token");
  if ("invite" in parsed.data) return enterByInvite(parsed.data.invite);
  const search = new URLSearchParams(parsed.data.query);
  const query: Query = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return enterByLink(parsed.data.entryToken, query);
}

/** Named annotators who could get an invite (not link participants), for the researcher's picker. */
export async function listInviteCandidates(): Promise<Array<{ id: string; name: string }>> {
  return db.user.findMany({ where: { role: "ANNOTATOR", disabled: false, externalSource: null }, orderBy: { name: "asc" }, take: 1000, select: { id: true, name: true } });
}
