import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { recordAudit } from "@/lib/audit/log";
import { isUniqueViolation } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { StudyStatus } from "@/lib/generated/prisma/enums";
import { WITHDRAWN_REASON } from "@/lib/participants/participants";
import { countAttempt } from "@/lib/auth/login-throttle";
import { refuseReviewerEntry } from "@/lib/review/conflicts";
import { countOpenPlaces } from "@/lib/repos/assignments";
import { deleteInvite, findInviteByToken, insertInvite, insertInvitedAccount, listInvitesOfStudy, markInviteUsed } from "@/lib/repos/invites";
import { ensureMember, findMemberEntry, insertMember, setMemberEntrySession } from "@/lib/repos/participants";
import { findEntryToken, findStudyByEntryToken, findStudyTitleBySlug } from "@/lib/repos/studies";
import { inTransaction } from "@/lib/repos/transactions";
import { findParticipantAccount, insertParticipantAccount } from "@/lib/repos/users";

/**
 * How participants get into a study without a password.
 *
 * Public link /join/<entryToken>?PROLIFIC_PID=..&STUDY_ID=..&SESSION_ID=.. (Prolific: all three
 * required) or ?pid=.. (any other source): the external id names one annotator account of this
 * study, User(externalSource, externalStudyId, externalId), which is unique in the database; so
 * the same id twice (also at the same moment, the loser of the race reads the winner's row) is one
 * account, resumed on any device, and the same id at another study's link is another account that
 * reaches nothing of this one. Prolific's session fields go to StudyMember.entrySession; a
 * returning Prolific participant must bring a SESSION_ID they entered with (checkSameSession).
 *
 * Link sign-ins are rate limited per client address and new participants per study (LINK_THROTTLE,
 * counted in PostgreSQL); a refused sign-in (link, fields, status, full, rate) writes no account.
 *
 * Invite link /join/invite/<token>: a personal link made by a researcher, which creates a new
 * passwordless participant account of the study (externalSource "invite") and signs it in, as
 * often as it is opened, until it is revoked. Invites never attach to an existing account: adding
 * existing users to a study is an admin action (lib/studies/members.ts).
 *
 * Reviewers of a study's items (lib/review/conflicts.ts) are refused at both links.
 *
 * The page under each link only checks (parseEntryParams, previewEntry: nothing is written, so a
 * link preview or a crawler creates nothing); the account is created or resumed when the
 * participant's browser signs in with next-auth's "study-link" credentials (lib/auth/index.ts).
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
  return new AppError("INVALID", `This study link is not valid: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`, {
    issues: problems.map((p) => ({ path: p.field, message: p.message })),
  });
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
  else if (PLACEHOLDER.test(value))
    problems.push({ field, message: `still holds the placeholder ${JSON.stringify(value)}: open the study from the recruitment platform, which fills it in` });
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
  if (prolificFields.length > 0 && query.PROLIFIC_PID === undefined)
    problems.push({ field: "PROLIFIC_PID", message: `missing (the link has ${prolificFields.join(" and ")} but no participant id)` });
  if (query.PROLIFIC_PID !== undefined && query.pid !== undefined && pid !== undefined && generic !== undefined && pid !== generic) {
    problems.push({ field: "pid", message: "differs from PROLIFIC_PID: a link names one participant" });
  }
  if (prolificFields.length === 0 && query.pid === undefined)
    problems.push({ field: "PROLIFIC_PID", message: "missing: the link needs a participant id (PROLIFIC_PID from Prolific, or pid)" });
  if (query.PROLIFIC_PID !== undefined) {
    // Prolific's study link always carries all three: a link without one was edited by hand
    for (const field of ["STUDY_ID", "SESSION_ID"])
      if (query[field] === undefined)
        problems.push({ field, message: "missing: Prolific's study link carries it (…&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}})" });
  }
  if (problems.length > 0) throw invalid(problems);
  if (pid !== undefined) {
    return { source: "prolific", externalId: pid.toLowerCase(), session: { STUDY_ID: studyId!, SESSION_ID: sessionId! } };
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
  const study = entryToken.length >= 8 && entryToken.length <= 100 ? await findStudyByEntryToken(entryToken) : null;
  if (!study)
    throw new AppError("NOT_FOUND", "No study behind this link: it may have been replaced or switched off. Please ask the research team for the current link.");
  // an archived study is closed to participants (lib/studies/archive.ts)
  return { id: study.id, slug: study.slug, title: study.title, status: study.archivedAt ? "CLOSED" : study.status, overlap: study.overlap };
}

/**
 * Places left for new participants: per non-practice item, k minus its MAIN assignments that hold a
 * place (not released, and not open past their lease: the next claimer releases those, so they
 * are free places, e.g. one handed out and never started past its first-item lease). A model
 * agent's assignments hold none (lib/assignment/agents.ts), as in every count of lib/assignment.
 */
export async function openPlaces(studyId: string, overlap: number): Promise<number> {
  return countOpenPlaces(studyId, overlap);
}

function refuseNewcomer(study: EntryStudy): void {
  if (study.status === "DRAFT") throw new AppError("CONFLICT", `“${study.title}” has not started yet. Please try again later.`, { reason: "draft" });
  if (study.status === "PAUSED")
    throw new AppError("CONFLICT", `“${study.title}” is paused at the moment and takes no new participants. Please try again later.`, { reason: "paused" });
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
  const user = await findParticipantAccount(accountWhere(study.id, params));
  const member = user ? await findMemberEntry(study.id, user.id) : null;
  if (member) {
    refuseMember(member, study.title);
    checkSameStudy(member.entrySession, params);
    checkSameSession(member.entrySession, params);
  } else {
    refuseNewcomer(study);
    if ((await openPlaces(study.id, study.overlap)) === 0)
      throw new AppError("CONFLICT", `“${study.title}” is full: every place is taken. Thank you for your interest.`, { reason: "full" });
  }
  return { study: { slug: study.slug, title: study.title, status: study.status }, params, returning: member !== null };
}

/** A returning Prolific participant must come from the same Prolific study as the first time (STUDY_ID is required, so a missing one never gets here). */
function checkSameStudy(stored: unknown, params: EntryParams): void {
  const before = stored && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>).STUDY_ID : undefined;
  if (typeof before === "string" && params.session.STUDY_ID && before !== params.session.STUDY_ID) {
    throw new AppError("CONFLICT", `This participant entered from Prolific study ${before}, not ${params.session.STUDY_ID}: the link was changed`, {
      issues: [{ path: "STUDY_ID", message: `differs from the one this participant entered with (${before})` }],
    });
  }
}

/**
 * Within a study a Prolific id alone is no credential: it shows in the researcher's tables and
 * exports, in URLs and on the participant's screen. A returning Prolific participant must bring a
 * SESSION_ID they entered with: Prolific puts the submission's SESSION_ID in every link it opens
 * for them, so the real person resumes on any device through Prolific, while someone holding
 * only the PID and the public link cannot get in (nor withdraw them). A member with no SESSION_ID
 * stored (entered before it was required) resumes with any, which is stored from then on.
 */
function checkSameSession(stored: unknown, params: EntryParams): void {
  if (params.source !== "prolific") return;
  const before = stored && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  const known = new Set<string>(Array.isArray(before.sessionIds) ? before.sessionIds.filter((s): s is string => typeof s === "string") : []);
  if (typeof before.SESSION_ID === "string") known.add(before.SESSION_ID);
  if (known.size > 0 && !known.has(params.session.SESSION_ID)) {
    throw new AppError(
      "FORBIDDEN",
      "This Prolific participant is in the study with another session. Please open the study from your submission on Prolific (its link carries your session), or contact the research team.",
      {
        reason: "other-session",
        issues: [{ path: "SESSION_ID", message: "is not a session this participant entered with" }],
      },
    );
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

/** The participant account of an external id at this study's link (identity is source + study + id). */
function accountWhere(studyId: string, params: EntryParams) {
  return { externalSource: params.source, externalStudyId: studyId, externalId: params.externalId };
}

/**
 * Rate limits of study-link sign-ins (SECURITY.md): every sign-in attempt counts against its client
 * address (a generic pid can be guessed; a bot can make accounts), and every new participant
 * against the study, in fixed windows kept in PostgreSQL (LoginThrottle rows "link-ip:<address>"
 * and "link-study:<study id>"), so that every app process and restart agrees. Generous enough for
 * a lab behind one address and for a Prolific launch (their platform paces starts).
 */
export const LINK_THROTTLE = {
  windowMs: 10 * 60 * 1000,
  maxPerAddress: 30,
  maxNewPerStudy: 200,
} as const;

/** 429 with Retry-After (lib/errors.ts): the client may come back when the window ends */
function rateLimited(message: string, retryAfterSeconds: number): AppError {
  return new AppError("RATE_LIMITED", message, { reason: "rate-limited", retryAfterSeconds });
}

async function checkAddressRate(address: string): Promise<void> {
  const { attempts, secondsLeft } = await countAttempt(`link-ip:${address}`, LINK_THROTTLE.windowMs);
  if (attempts > LINK_THROTTLE.maxPerAddress)
    throw rateLimited("Too many sign-ins by study links from your network. Please wait a few minutes and open the link again.", secondsLeft);
}

async function checkStudyRate(studyId: string, title: string): Promise<void> {
  const { attempts, secondsLeft } = await countAttempt(`link-study:${studyId}`, LINK_THROTTLE.windowMs);
  if (attempts > LINK_THROTTLE.maxNewPerStudy)
    throw rateLimited(`Too many new participants are joining “${title}” at once. Please wait a few minutes and open the link again.`, secondsLeft);
}

/**
 * Creates or resumes the participant of a study link and makes them a member with their session
 * fields. Refusals write no account: NOT_FOUND (no such link), INVALID (fields), CONFLICT (not
 * open, full, other Prolific study), RATE_LIMITED (429 with Retry-After), FORBIDDEN (withdrew; reviewed the items; a
 * disabled or staff account). `address` is the client address (lib/auth/login-throttle.ts clientAddress).
 */
export async function enterByLink(entryToken: string, query: Query, address: string): Promise<EnteredUser> {
  const study = await studyByEntryToken(entryToken);
  const params = parseEntryParams(query);
  await checkAddressRate(address);
  for (let attempt = 0; ; attempt++) {
    const existing = await findParticipantAccount(accountWhere(study.id, params));
    if (existing) return resumeByLink(study, params, existing);
    refuseNewcomer(study);
    if ((await openPlaces(study.id, study.overlap)) === 0)
      throw new AppError("CONFLICT", `“${study.title}” is full: every place is taken. Thank you for your interest.`, { reason: "full" });
    await checkStudyRate(study.id, study.title);
    try {
      // the account and its membership together: a refusal above or a failure here leaves neither
      const user = await inTransaction(async (tx) => {
        const created = await insertParticipantAccount(tx, displayName(params), accountWhere(study.id, params));
        await insertMember(tx, study.id, created.id, mergedSession(null, params));
        return created;
      });
      return { id: user.id, name: user.name, email: user.email, slug: study.slug, created: true };
    } catch (error) {
      // the same participant in two tabs at once: the loser resumes the winner's account
      if (!isUniqueViolation(error) || attempt > 0) throw error;
    }
  }
}

async function resumeByLink(
  study: EntryStudy,
  params: EntryParams,
  account: { id: string; name: string; email: string | null; role: string; disabled: boolean },
): Promise<EnteredUser> {
  if (account.disabled) throw new AppError("FORBIDDEN", "This participant account is disabled. Please contact the research team.");
  if (account.role !== "ANNOTATOR") throw new AppError("FORBIDDEN", "This account cannot sign in by a study link.");
  const member = await findMemberEntry(study.id, account.id);
  if (member) {
    refuseMember(member, study.title);
    checkSameStudy(member.entrySession, params);
    checkSameSession(member.entrySession, params);
  } else {
    // an admin removed them: they come back as a newcomer would
    refuseNewcomer(study);
    if ((await openPlaces(study.id, study.overlap)) === 0)
      throw new AppError("CONFLICT", `“${study.title}” is full: every place is taken. Thank you for your interest.`, { reason: "full" });
  }
  await refuseReviewerEntry(study.id, account.id, study.title);
  if (member) await setMemberEntrySession(study.id, account.id, mergedSession(member.entrySession, params));
  else await ensureMember(study.id, account.id, mergedSession(null, params));
  return { id: account.id, name: account.name, email: account.email, slug: study.slug, created: false };
}

// ------------------------------------------------------------------------------------------------
// invites

/** An invite names a new participant; it never names an existing account (no user id, no email). */
export const inviteCreateSchema = z.strictObject({ name: z.string().trim().min(1, "a name is needed").max(120, "at most 120 characters") });
export type InviteCreateInput = z.infer<typeof inviteCreateSchema>;

export const inviteRevokeSchema = z.object({ inviteId: z.string().min(1).max(64) });

async function studyIdOf(slug: string): Promise<{ id: string; title: string }> {
  const study = await findStudyTitleBySlug(slug);
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
  const invites = await listInvitesOfStudy(study.id);
  return invites.map((i) => ({
    id: i.id,
    token: i.token,
    userId: i.userId,
    name: i.user.name,
    createdAt: i.createdAt.toISOString(),
    usedAt: i.usedAt?.toISOString() ?? null,
  }));
}

/**
 * An invite link for a named participant: a new passwordless ANNOTATOR account that belongs to the
 * study (externalSource "invite", externalStudyId the study) and becomes its member at once.
 * Never an existing account: a researcher could otherwise sign in as anyone.
 */
export async function createInvite(slug: string, raw: InviteCreateInput, actorId: string): Promise<InviteRow> {
  const parsed = inviteCreateSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.join(".") || (issue.code === "unrecognized_keys" ? issue.keys.join(", ") : ""),
      message: issue.message,
    }));
    throw new AppError(
      "INVALID",
      `An invite makes a new participant account from a name (existing users are added by an admin on the Members tab): ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      { issues },
    );
  }
  const study = await studyIdOf(slug);
  const token = randomBytes(24).toString("base64url");
  const { user, invite } = await inTransaction(async (tx) => {
    const user = await insertInvitedAccount(tx, parsed.data.name, study.id, randomBytes(12).toString("base64url"));
    const invite = await insertInvite(tx, token, study.id, user.id);
    await insertMember(tx, study.id, user.id);
    return { user, invite };
  });
  await recordAudit(actorId, "study.invite.create", `study:${study.id}`, { slug, inviteId: invite.id, userId: user.id, name: user.name });
  return { id: invite.id, token, userId: user.id, name: user.name, createdAt: invite.createdAt.toISOString(), usedAt: null };
}

export async function revokeInvite(slug: string, inviteId: string, actorId: string): Promise<void> {
  const study = await studyIdOf(slug);
  if (!(await deleteInvite(study.id, inviteId))) throw new AppError("NOT_FOUND", `No invite ${inviteId} in ${slug}`);
  await recordAudit(actorId, "study.invite.revoke", `study:${study.id}`, { slug, inviteId });
}

async function inviteByToken(token: string) {
  const invite = token.length >= 8 && token.length <= 100 ? await findInviteByToken(token) : null;
  // only the participant account the invite made for its study (an invite made for an existing
  // account by an earlier version is not a way into that account)
  if (invite && (invite.user.externalSource !== "invite" || invite.user.externalStudyId !== invite.studyId))
    throw new AppError("NOT_FOUND", "This invite link is not valid (any more). Please ask the research team for a new one.");
  if (!invite) throw new AppError("NOT_FOUND", "This invite link is not valid (any more). Please ask the research team for a new one.");
  return invite;
}

/** What the invite page shows; nothing is written. */
export async function previewInvite(token: string): Promise<{ study: { slug: string; title: string; status: StudyStatus }; name: string }> {
  const invite = await inviteByToken(token);
  if (invite.study.status === "DRAFT")
    throw new AppError("CONFLICT", `“${invite.study.title}” has not started yet. Please try again later.`, { reason: "draft" });
  return { study: invite.study, name: invite.user.name };
}

/** Signs in the invited annotator: marks the invite used (the first time) and makes sure of the membership. */
export async function enterByInvite(token: string): Promise<EnteredUser> {
  const invite = await inviteByToken(token);
  const { user, study } = invite;
  if (user.disabled) throw new AppError("FORBIDDEN", "This account is disabled. Please contact the research team.");
  if (user.role !== "ANNOTATOR") throw new AppError("FORBIDDEN", "This account cannot sign in by an invite link.");
  if (study.status === "DRAFT") throw new AppError("CONFLICT", `“${study.title}” has not started yet. Please try again later.`, { reason: "draft" });
  const member = await findMemberEntry(invite.studyId, user.id);
  if (member) refuseMember(member, study.title);
  await refuseReviewerEntry(invite.studyId, user.id, study.title);
  await ensureMember(invite.studyId, user.id);
  await markInviteUsed(invite.id);
  return { id: user.id, name: user.name, email: user.email, slug: study.slug, created: false };
}

// ------------------------------------------------------------------------------------------------
// next-auth's "study-link" credentials (lib/auth/index.ts)

export const studyLinkCredentialsSchema = z.union([
  z.object({ invite: z.string().min(1).max(100) }),
  z.object({ entryToken: z.string().min(1).max(100), query: z.string().max(4000) }),
]);

/** The credentials the browser posts: the link's token and its query string, as the page received them; `address` is the client's. */
export async function enterByCredentials(raw: unknown, address: string): Promise<EnteredUser> {
  const parsed = studyLinkCredentialsSchema.safeParse(raw);
  if (!parsed.success) throw new AppError("INVALID", "This study link is not valid: it lacks its token");
  if ("invite" in parsed.data) return enterByInvite(parsed.data.invite);
  const search = new URLSearchParams(parsed.data.query);
  const query: Query = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return enterByLink(parsed.data.entryToken, query, address);
}

/** The study's public entry token (null when its link is off). */
export async function getEntryToken(studyId: string): Promise<string | null> {
  return findEntryToken(studyId);
}
