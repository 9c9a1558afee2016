import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { databasePoolSize, db } from "@/lib/db";
import { DbSaturatedError } from "@/lib/db/transient";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import type { AssignmentPurpose, AssignmentStatus, ParticipantStatus, StudyStatus } from "@/lib/generated/prisma/enums";
import { assertNoReviewersOf } from "@/lib/review/conflicts";
import { reviewExcludedItemFilter } from "@/lib/review/exclusion";

/**
 * Who gets which item next: the queue rules (docs/assignment.md has the same with examples).
 * Every rule is enforced here, on the server, under concurrency.
 *
 * Places and k. Every ordinary item (not practice, not gold) gets exactly k = Study.overlap
 * annotators for MAIN work; with Study.conditions, every item x condition gets k. A *place* is a
 * MAIN assignment that is not RELEASED. An item (x condition) with k places is not offered again.
 * Practice (PRACTICE), pre-assigned (AGREEMENT) and gold items hold no place.
 *
 * Leases. A new MAIN assignment of an ordinary item gets leaseExpiresAt = now +
 * Study.firstItemLeaseSeconds (the first-item lease, 2 minutes by default: a place handed out but
 * never started, e.g. to a bot or to someone who closed the tab at once, returns to the pool
 * quickly); its first event batch makes it STARTED with now + Study.leaseSeconds, and every stored
 * event batch extends it (lib/events.ts, at most about once a minute per assignment),
 * and so does serving it again. An open (ASSIGNED/STARTED) assignment whose lease has passed is
 * releasable: the candidate search treats its place as free, and whoever claims the item first
 * sets it RELEASED (`sweepStudy` does the same for a whole study). Until then its owner keeps
 * it, and serving it to them renews the lease. A RELEASED assignment never counts toward k and is
 * never handed out again; (itemId, userId) is unique, so nobody gets an item twice, whatever its
 * fate. A late submission to a RELEASED assignment is stored (lib/responses.ts) and takes its place
 * back only when the item still has room.
 *
 * Order of service (one participant):
 * 1. the study must be OPEN (else "paused", "closed" or "not_open") and the participant not
 *    EXCLUDED, TIMED_OUT or RETURNED (else that status with its reason; any open work is released);
 *    past Study.sessionTimeLimitSeconds from StudyMember.startedAt (set when their first item is
 *    handed out) they become TIMED_OUT and their open work is released;
 * 2. open practice, then the next practice item (import order, to everyone, outside k);
 * 3. practice pass mark (Study.practicePassMark): once every practice item is answered, a share of
 *    correct answers below the mark makes the participant EXCLUDED ("practice below pass mark"), and
 *    no real item is handed out while a practice answer is still on its way ("wait"). A
 *    participant a researcher re-included (ACTIVE with a status reason) is not gated again;
 * 4. open assignments (pre-assigned AGREEMENT first, then MAIN, in queue order);
 * 5. quota (Study.itemsPerParticipant): MAIN assignments that are not RELEASED, gold included,
 *    count; once reached: "quota" (opsentry's page marks the participant COMPLETE);
 * 6. gold (Study.goldRate): the g-th gold item of a participant is due at queue index
 *    floor((g + u) / goldRate), u in [0, 1) from md5(userId, g): one gold item per block of
 *    1 / goldRate items, at a random place in the block. Gold items hold no place and have no k:
 *    any number of participants get each of them, each participant at most once, in their md5
 *    order. Gold is only mixed in while ordinary work is left. The exclusion rule is evaluated on
 *    each gold submission (lib/responses.ts);
 * 7. new ordinary work, chosen in this order:
 *    - conditions (Study.conditions), strictly balanced: a participant only takes a condition
 *      they have used least, so each person's per-condition counts never differ by more than one
 *      and every person sees every condition in equal shares. When no item is left for them in
 *      those conditions, they are done (the remaining places go to others). A person gets an item
 *      in at most one condition (the unique index);
 *    - Latin square: within a condition, items whose (import order index + the participant's
 *      join order index) mod conditions equals the condition's index come first. With k people
 *      in each of the C lists who do every item, every item x condition gets exactly k people and
 *      nobody waits (the classic design); with more people, dropouts or quotas, the rule still
 *      fills every item x condition to k as long as enough participants come (places are claimed
 *      on demand, never reserved for a list). An item of another list is taken only when none of
 *      the participant's own is free in an allowed condition, and never while one of theirs is
 *      merely busy (being claimed by someone else): then the next round, or "wait". Taking
 *      another list's place under contention would leave one of that list without an item;
 *    - balance tag (Study.balanceTag): the participant's least-used value of the tag first
 *      (missing tag: its own value); a preference, since the values may have different sizes;
 *    - md5(userId:itemId): every person meets items in a random order of their own, the same on
 *      every device;
 * 8. nothing left: "wait" while the browser still holds assignments it excluded, else "done".
 * An annotator holds at most MAX_OPEN_ASSIGNMENTS open on-demand assignments (the item on
 * screen, one prefetched, one submitted offline); past that, "wait".
 *
 * Concurrency. A request runs in one short transaction that holds an advisory lock on
 * (study, participant) only, so one person's parallel requests (two tabs, a prefetch) are served
 * one after the other, and nobody waits for anybody else. Candidates are read without any lock;
 * a place is then claimed with pg_try_advisory_xact_lock on the item (on the base case for probe
 * families), a release of its expired leases, and a conditional insert that re-counts the places
 * in a fresh statement (READ COMMITTED: it sees every claim committed before the lock was taken).
 * A busy item is skipped, not waited for; when every candidate was busy or filled meanwhile, the
 * candidates are read again (a few rounds), then "wait". No lock is ever waited for while
 * another is held, so there are no deadlocks.
 *
 * Probe families (GridWM-Judge, issue 9 "Assignment for probes"). Consistency is measured within
 * a person, so the items of one base case (kind gridwm-judge, same `env` and `group` tags; items
 * without a `group` are ordinary items) go to the same annotator(s). The rule, for MAIN work only:
 * - Ownership: an annotator holds a base case once they have a MAIN assignment (not RELEASED) to
 *   any of its items. A base case has at most k holders (k x conditions with conditions); an
 *   annotator who does not hold it may take one of its items only while it has fewer holders
 *   (and then holds it). So with k = 1 a family is never split, and with k > 1 each of k
 *   annotators takes the whole family. The per-item count < k check stays as well.
 * - Spacing: a further item of a held base case is due when at least g other items (any
 *   purpose) were assigned to the annotator since the last member of that base case (measured
 *   with Assignment.position), g = Study.probeMinGap, lowered to what the annotator's work
 *   allows so that members are spread evenly when there is too little else: (other items since
 *   the last member + other items they could still get) / items of the base case left, rounded
 *   down; never below 1 (never adjacent while anything else can separate them).
 *   Order of service: due family items; then new base cases (started early, so that the rest of
 *   the queue is there to space their members), those with the fewest holders first, so that
 *   with k > 1 every family reaches k holders; then ordinary items; all in the annotator's md5
 *   order. A held item that is not due is served only when nothing else is left for the
 *   annotator, the one that waited longest first: spacing is best effort, and an annotator whose
 *   only remaining work is one family gets its members back to back rather than stalling
 *   (nobody else may take them).
 * - Balance: an annotator may start a new base case only while they hold fewer than
 *   ceil(base cases x k / people) of them, people being the study's ACTIVE and COMPLETE members
 *   (plus the asking annotator). This is a hard share, not a preference: if a member never
 *   works, their share of base cases waits for them (removing the member frees it); started
 *   families are always finished by their holders. Pre-assigned (AGREEMENT) items neither take
 *   nor need ownership; MAIN pre-assignments (assignItemsTo) are the researcher's explicit choice
 *   and are not checked against ownership.
 * A claim of a family item takes the base case's lock as well as the item's, so concurrent
 * requests cannot break k or ownership. The probe queries run only for studies that have probe
 * families.
 */

/** Open (created, not submitted) on-demand assignments an annotator may hold: on screen, prefetched, one submitted offline. */
/** The start of the reason stored when a participant misses the practice pass mark (the "failed screening" ending: lib/participants.ts endingOf). */
export const PRACTICE_FAIL_REASON = "practice below pass mark";

export const MAX_OPEN_ASSIGNMENTS = 3;

/** Rounds of "read candidates, try to claim" before answering "wait" (every try lost a race). */
const CLAIM_ROUNDS = 4;
/** Claims tried per round. */
const CLAIM_TRIES = 6;
/** Candidates read per (condition, balance value) group. */
const CANDIDATES_PER_GROUP = 2;

const purposeRank: Record<AssignmentPurpose, number> = { PRACTICE: 0, AGREEMENT: 1, MAIN: 2 };

/**
 * What the participant should do next (lib/annotate/next.ts turns it into the page's NextView).
 * Every status but "assigned" means no new work now.
 */
export type NextAssignment =
  /** work on this assignment (`created`: made by this request; false: an open one served again) */
  | { status: "assigned"; assignmentId: string; purpose: AssignmentPurpose; created: boolean }
  /** nothing left for this participant: every item they could still get is full or theirs already */
  | { status: "done" }
  /** the participant reached the study's items-per-participant quota (Study.itemsPerParticipant) */
  | { status: "quota" }
  /** nothing to hand out until the excluded assignments (submitted offline) reach the server, or every claim lost a race: ask again shortly */
  | { status: "wait" }
  /** the study is CLOSED */
  | { status: "closed" }
  /** the study is PAUSED: no new work, open work stays (leases keep running) */
  | { status: "paused" }
  /** the study is a DRAFT */
  | { status: "not_open" }
  /** the participant is EXCLUDED (gold rule, practice pass mark, or a researcher); `reason` as stored */
  | { status: "excluded"; reason: string | null }
  /** the participant is TIMED_OUT (session time limit) */
  | { status: "timed_out"; reason: string | null }
  /** the participant is RETURNED (gave up, e.g. returned the submission on Prolific) */
  | { status: "returned"; reason: string | null };

type Tx = Prisma.TransactionClient;
type Client = Tx | typeof db;

/** now() as the timestamp(3) columns store it (UTC, like Prisma). */
export const sqlNow = Prisma.sql`(now() AT TIME ZONE 'UTC')`;
const NOW = sqlNow;

const OPEN_STATUSES: readonly AssignmentStatus[] = ["ASSIGNED", "STARTED"];
const isOpen = (status: AssignmentStatus) => OPEN_STATUSES.includes(status);

/** An id like Prisma's cuid() defaults (rows inserted with SQL get no Prisma default). */
export function newRowId(): string {
  return `c${Date.now().toString(36)}${randomBytes(10).toString("hex")}`;
}

/** A number in [0, 1) from md5(text), stable across processes. */
function unitHash(text: string): number {
  return createHash("md5").update(text).digest().readUInt32BE(0) / 2 ** 32;
}

function lockKey(text: string): Prisma.Sql {
  return Prisma.sql`hashtextextended(${text}, 0)`;
}

/** Blocking advisory lock on (study, participant) until the transaction ends. */
async function lockParticipant(tx: Tx, studyId: string, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(${lockKey(`yardstick:participant:${studyId}:${userId}`)})::text AS locked`;
}

/** Non-blocking advisory lock; true when taken (or held by this transaction already). */
async function tryLock(tx: Tx, key: string): Promise<boolean> {
  const [row] = await tx.$queryRaw<Array<{ locked: boolean }>>`SELECT pg_try_advisory_xact_lock(${lockKey(key)}) AS locked`;
  return row?.locked === true;
}

const itemLockKey = (itemId: string) => `yardstick:item:${itemId}`;
const baseLockKey = (studyId: string, base: string) => `yardstick:base:${studyId}:${base}`;

// --- reading the state ----------------------------------------------------------------------

interface StudyState {
  status: StudyStatus;
  overlap: number;
  probeMinGap: number;
  practicePassMark: number | null;
  goldRate: number;
  itemsPerParticipant: number | null;
  sessionTimeLimitSeconds: number | null;
  leaseSeconds: number;
  firstItemLeaseSeconds: number;
  balanceTag: string | null;
  conditions: string[];
  isMember: boolean;
  memberStatus: ParticipantStatus | null;
  statusReason: string | null;
  memberStarted: boolean;
  sessionOver: boolean;
  hasProbes: boolean;
  practiceTotal: number;
  /** the participant's place in the order members joined (the Latin square's list is this mod the number of conditions) */
  participantIndex: number;
  /** changes when batches are imported or deleted (the in-memory item list is reloaded) */
  itemsVersion: string;
  /** the participant's assignments in the study (any status) */
  mine: MineRow[];
}

async function readStudyState(client: Client, studyId: string, userId: string): Promise<StudyState | null> {
  const rows = await client.$queryRaw<StudyState[]>`
    SELECT s.status::text AS status, s.overlap, s."probeMinGap", s."practicePassMark", s."goldRate", s."itemsPerParticipant",
      s."sessionTimeLimitSeconds", s."leaseSeconds", s."firstItemLeaseSeconds", s."balanceTag", s.conditions,
      (m."userId" IS NOT NULL) AS "isMember", m.status::text AS "memberStatus", m."statusReason",
      (m."startedAt" IS NOT NULL) AS "memberStarted",
      coalesce(m."startedAt" IS NOT NULL AND s."sessionTimeLimitSeconds" IS NOT NULL
        AND ${NOW} >= m."startedAt" + make_interval(secs => s."sessionTimeLimitSeconds"), false) AS "sessionOver",
      EXISTS (SELECT 1 FROM "Item" pi WHERE pi."studyId" = s.id AND pi.kind = ${PROBE_KIND} AND pi.tags->>'group' IS NOT NULL
        AND NOT pi.practice AND NOT pi.gold) AS "hasProbes",
      (SELECT count(*) FROM "Item" i WHERE i."studyId" = s.id AND i.practice AND ${reviewExcludedItemFilter("i")})::int AS "practiceTotal",
      (SELECT count(*) FROM "StudyMember" o WHERE o."studyId" = s.id
        AND (o."createdAt" < m."createdAt" OR (o."createdAt" = m."createdAt" AND o."userId" < m."userId")))::int AS "participantIndex",
      ${itemsVersionSql("s")} AS "itemsVersion",
      coalesce((
        SELECT json_agg(json_build_object('id', a.id, 'itemId', a."itemId", 'purpose', a.purpose, 'status', a.status, 'position', a.position,
          'condition', a.condition, 'gold', i.gold, 'balance', coalesce(i.tags ->> s."balanceTag", ''), 'correct', r.correct,
          'renewDue', coalesce(a."leaseExpiresAt" < ${NOW} + make_interval(secs =>
            (CASE WHEN a.status = 'ASSIGNED' THEN least(s."leaseSeconds", s."firstItemLeaseSeconds") ELSE s."leaseSeconds" END) / 2.0), false)))
        FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId" LEFT JOIN "Response" r ON r."assignmentId" = a.id
        WHERE a."studyId" = s.id AND a."userId" = ${userId}
      ), '[]'::json) AS mine
    FROM "Study" s LEFT JOIN "StudyMember" m ON m."studyId" = s.id AND m."userId" = ${userId}
    WHERE s.id = ${studyId}`;
  return rows[0] ?? null;
}

/** One of the participant's assignments, with what the rules need (read with the study's state). */
interface MineRow {
  id: string;
  itemId: string;
  purpose: AssignmentPurpose;
  status: AssignmentStatus;
  position: number;
  condition: string | null;
  gold: boolean;
  /** the item's Study.balanceTag value ("" when absent) */
  balance: string;
  correct: boolean | null;
  /** the lease has less than half its length left (or has passed): serving it renews it */
  renewDue: boolean;
}

// --- participant status -------------------------------------------------------------------------

/** Sets the participant's open assignments RELEASED: their places go back to the pool. */
export async function releaseOpenWork(client: Client, studyId: string, userId: string): Promise<number> {
  return client.$executeRaw`
    UPDATE "Assignment" SET status = 'RELEASED'
    WHERE "studyId" = ${studyId} AND "userId" = ${userId} AND status IN ('ASSIGNED', 'STARTED')`;
}

/**
 * Ends a participant's part by rule (EXCLUDED or TIMED_OUT, with the reason), releases their open
 * work and writes an audit entry (actor: none, the rule). Only an ACTIVE or COMPLETE participant
 * changes (the first rule to fire wins); returns whether this call changed them.
 */
export async function endParticipation(client: Client, studyId: string, userId: string, status: "EXCLUDED" | "TIMED_OUT", reason: string): Promise<boolean> {
  const changed = await client.$executeRaw`
    UPDATE "StudyMember" SET status = ${status}::"ParticipantStatus", "statusReason" = ${reason}, "statusAt" = ${NOW}
    WHERE "studyId" = ${studyId} AND "userId" = ${userId} AND status IN ('ACTIVE', 'COMPLETE')`;
  if (changed === 0) return false;
  const released = await releaseOpenWork(client, studyId, userId);
  await client.auditLog.create({
    data: { actorId: null, action: status === "EXCLUDED" ? "participant.exclude" : "participant.time-out", target: `study:${studyId}`, detail: { userId, reason, released, by: "rule" } },
    select: { id: true },
  });
  return true;
}

const stoppedStatus: Partial<Record<ParticipantStatus, "excluded" | "timed_out" | "returned">> = { EXCLUDED: "excluded", TIMED_OUT: "timed_out", RETURNED: "returned" };

// --- candidates -------------------------------------------------------------------------------

/** The kind whose items form probe families (base cases). */
const PROBE_KIND = "gridwm-judge";

/**
 * SQL for an item's base case key, NULL for items outside probe families: the `env` and `group`
 * tags as a JSON array (an absent env is null), like baseCase() in lib/tasks/gridwm-judge.ts.
 * Gold and practice items are never family members.
 */
function baseCaseSql(alias: string): Prisma.Sql {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`baseCaseSql: "${alias}" is not a plain SQL alias`);
  const i = Prisma.raw(`"${alias}"`);
  return Prisma.sql`(CASE WHEN ${i}."kind" = ${PROBE_KIND} AND ${i}."tags"->>'group' IS NOT NULL AND NOT ${i}.gold AND NOT ${i}.practice
    THEN json_build_array(${i}."tags"->>'env', ${i}."tags"->>'group')::text END)`;
}

/** Base cases and their holders: annotators with a MAIN assignment (not RELEASED) to one of the base case's items. */
function holdersSql(studyId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT ${baseCaseSql("hi")} AS base, ha."userId" AS "userId"
    FROM "Assignment" ha JOIN "Item" hi ON hi."id" = ha."itemId"
    WHERE ha."studyId" = ${studyId} AND ha."purpose" = 'MAIN' AND ha.status <> 'RELEASED'
      AND hi."kind" = ${PROBE_KIND} AND hi."tags"->>'group' IS NOT NULL AND NOT hi.gold AND NOT hi.practice
    GROUP BY 1, 2`;
}

/** The identity of a study's item list (batches: count, items, latest), for per-process caches of it. */
function itemsVersionSql(studyAlias: string): Prisma.Sql {
  const study = Prisma.raw(`"${studyAlias}"`);
  return Prisma.sql`(SELECT count(*) || ':' || coalesce(sum(b."itemCount"), 0) || ':' || coalesce(max(b."createdAt")::text, '') FROM "Batch" b WHERE b."studyId" = ${study}.id)`;
}

/**
 * Places held per (item, condition) of the study's MAIN work: `n` counts the assignments that are
 * not RELEASED and whose lease has not passed; `expired` says whether some open one's lease has
 * passed (a claim releases those first).
 */
function takenSql(studyId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT a."itemId", a.condition,
      count(*) FILTER (WHERE NOT (a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" < ${NOW}))::int AS n,
      bool_or(a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" < ${NOW}) AS expired
    FROM "Assignment" a
    WHERE a."studyId" = ${studyId} AND a.purpose = 'MAIN' AND a.status <> 'RELEASED'
    GROUP BY 1, 2`;
}

/** The study's conditions as rows (cond, idx: 0-based); one (NULL, 0) row when it has none. */
function conditionsSql(conditions: readonly string[]): Prisma.Sql {
  return conditions.length === 0
    ? Prisma.sql`(SELECT NULL::text AS cond, 0 AS idx)`
    : Prisma.sql`(SELECT u.cond, (u.n - 1)::int AS idx FROM unnest(${[...conditions]}::text[]) WITH ORDINALITY AS u(cond, n))`;
}

/**
 * Ordinary items (x condition) the participant could be given now, best first per
 * (condition, balance value) group: fewer than k places held, not had by them, not excluded by
 * review. `available` is the number of distinct items among them (for the progress bar).
 */
export interface Candidate {
  itemId: string;
  condition: string | null;
  balance: string;
  rank: number;
  /** in the participant's Latin-square list for its condition (always, without conditions and for probes) */
  preferred: boolean;
  hash: string;
  expired: boolean;
  base: string | null;
  available: number;
  /** probe candidates: every condition of the item with room (the claim takes the participant's least-used) */
  conditions?: Array<string | null>;
}

/** The full search: every ordinary item of the study, in SQL (the fallback of `fastCandidates`). */
async function ordinaryCandidates(tx: Tx, studyId: string, userId: string, study: StudyState): Promise<Candidate[]> {
  const conditionCount = Math.max(1, study.conditions.length);
  return tx.$queryRaw<Candidate[]>`
    WITH taken AS (${takenSql(studyId)}),
    items AS (
      SELECT i.id, i.tags, i.ord FROM (
        SELECT o.id, o.tags, o."externalId", o."contentHash", (row_number() OVER (ORDER BY o."createdAt", o."externalId") - 1)::int AS ord
        FROM "Item" o WHERE o."studyId" = ${studyId} AND NOT o.practice AND NOT o.gold
      ) i
      WHERE ${reviewExcludedItemFilter("i")}
    ),
    cand AS (
      SELECT it.id AS "itemId", c.cond AS condition, coalesce(it.tags ->> ${study.balanceTag}::text, '') AS balance,
        md5(${userId} || ':' || it.id) AS hash, coalesce(t.expired, false) AS expired,
        (it.ord + ${study.participantIndex}) % ${conditionCount} = c.idx AS preferred
      FROM items it
      CROSS JOIN ${conditionsSql(study.conditions)} AS c
      LEFT JOIN taken t ON t."itemId" = it.id AND t.condition IS NOT DISTINCT FROM c.cond
      WHERE coalesce(t.n, 0) < ${study.overlap}
        AND NOT EXISTS (SELECT 1 FROM "Assignment" m WHERE m."itemId" = it.id AND m."userId" = ${userId})
    ),
    ranked AS (
      SELECT cand.*, row_number() OVER (PARTITION BY condition, balance ORDER BY preferred DESC, hash, "itemId")::int AS rank FROM cand
    )
    SELECT r."itemId", r.condition, r.balance, r.rank, r.preferred, r.hash, r.expired, NULL::text AS base,
      (SELECT count(DISTINCT "itemId") FROM cand)::int AS available
    FROM ranked r WHERE r.rank <= ${CANDIDATES_PER_GROUP}`;
}


// --- the fast candidate search ------------------------------------------------------------------
//
// The full search computes md5(userId:itemId) for every item and counts the places of the whole
// study on every request. The fast search keeps the study's ordinary items (id, import order,
// tags) and each participant's md5 order in memory, walks that order in JavaScript, and asks the
// database only about a small pool: the participant's next few items per (condition, balance
// value) group, one indexed query. It gives exactly the full search's top candidates of every
// group, or says it cannot tell (a group whose pool has too few free items while more items lie
// beyond it), and then the full search runs. The database stays the authority: the pool query
// re-reads the items' flags, review exclusions and places, and claims re-count under the lock.
// The item list is reloaded when the study's batches change and at least every 30 s (item flags
// and tags edited in place).

const ITEMS_TTL_MS = 30_000;
/** Items per group and kind (any / preferred in a condition) in the pool. */
const POOL_PER_GROUP = 6;
const MAX_CACHED_STUDIES = 64;
const MAX_CACHED_ORDERS = 20_000;

interface StudyItems {
  version: string;
  /** the item list's identity (the md5 orders depend on the ids only, not on flags or tags) */
  fingerprint: string;
  loadedAt: number;
  ids: string[];
  tags: Array<Record<string, unknown>>;
}

const cache = globalThis as unknown as { yardstickStudyItems?: Map<string, StudyItems>; yardstickItemOrders?: Map<string, Uint32Array> };
const studyItemsCache = (cache.yardstickStudyItems ??= new Map());
const itemOrderCache = (cache.yardstickItemOrders ??= new Map());

/** Bounded map insert: the oldest entry goes first (Map keeps insertion order). */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): V {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value as string);
  return value;
}

// Read inside the caller's transaction: the embedded database (PGlite) is one session for every
// connection, so a query on another connection while a transaction is open breaks both.
async function studyItems(tx: Tx, studyId: string, version: string): Promise<StudyItems> {
  const cached = studyItemsCache.get(studyId);
  if (cached && cached.version === version && Date.now() - cached.loadedAt < ITEMS_TTL_MS) return cached;
  const rows = await tx.$queryRaw<Array<{ id: string; tags: unknown }>>`
    SELECT i.id, i.tags FROM "Item" i WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold ORDER BY i."createdAt", i."externalId"`;
  const ids = rows.map((row) => row.id);
  const items: StudyItems = {
    version,
    fingerprint: `${version}|${ids.length}|${ids[0] ?? ""}|${ids.at(-1) ?? ""}|${md5Hex(ids.join(","))}`,
    loadedAt: Date.now(),
    ids,
    tags: rows.map((row) => (row.tags && typeof row.tags === "object" && !Array.isArray(row.tags) ? (row.tags as Record<string, unknown>) : {})),
  };
  return remember(studyItemsCache, studyId, items, MAX_CACHED_STUDIES);
}

const md5Hex = (text: string) => createHash("md5").update(text).digest("hex");

/** The participant's order of the items (indexes into `items.ids`): md5(userId:itemId), then id, as in SQL. */
function itemOrder(studyId: string, items: StudyItems, userId: string): Uint32Array {
  const key = `${studyId}|${items.fingerprint}|${userId}`;
  const cached = itemOrderCache.get(key);
  if (cached) return cached;
  const hashes = items.ids.map((id) => md5Hex(`${userId}:${id}`));
  const order = Uint32Array.from(items.ids.keys()).sort((a, b) => (hashes[a] < hashes[b] ? -1 : hashes[a] > hashes[b] ? 1 : items.ids[a] < items.ids[b] ? -1 : items.ids[a] > items.ids[b] ? 1 : 0));
  return remember(itemOrderCache, key, order, MAX_CACHED_ORDERS);
}

/** The balance value of an item as SQL's coalesce(tags ->> tag, '') gives it. */
function balanceValue(tags: Record<string, unknown>, tag: string | null): string {
  if (tag === null) return "";
  const value = tags[tag];
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

interface PoolGroup {
  /** the first unhad items of this balance value, in the participant's order */
  any: number[];
  anyTruncated: boolean;
  /** per allowed condition index: the first unhad items preferred in that condition */
  preferred: Map<number, number[]>;
  preferredTruncated: Set<number>;
}

/**
 * The full search's candidates for the allowed conditions, or null when the pool cannot decide.
 * `allowed`: the conditions the participant may take now (strict balance), null for a study
 * without conditions.
 */
async function fastCandidates(tx: Tx, studyId: string, userId: string, study: StudyState, had: ReadonlySet<string>, allowed: Array<string | null>): Promise<Candidate[] | null> {
  const items = await studyItems(tx, studyId, study.itemsVersion);
  const order = itemOrder(studyId, items, userId);
  const conditionCount = Math.max(1, study.conditions.length);
  const conditionIndex = (condition: string | null) => (condition === null ? 0 : study.conditions.indexOf(condition));
  const allowedIndexes = allowed.map(conditionIndex);
  const isPreferred = (index: number, conditionIdx: number) => (index + study.participantIndex) % conditionCount === conditionIdx;

  const groups = new Map<string, PoolGroup>();
  for (const index of order) {
    if (had.has(items.ids[index])) continue;
    const balance = balanceValue(items.tags[index], study.balanceTag);
    let group = groups.get(balance);
    if (!group) groups.set(balance, (group = { any: [], anyTruncated: false, preferred: new Map(allowedIndexes.map((c) => [c, []])), preferredTruncated: new Set() }));
    if (group.any.length < POOL_PER_GROUP) group.any.push(index);
    else group.anyTruncated = true;
    for (const c of allowedIndexes) {
      if (!isPreferred(index, c)) continue;
      const list = group.preferred.get(c)!;
      if (list.length < POOL_PER_GROUP) list.push(index);
      else group.preferredTruncated.add(c);
    }
  }
  const pool = new Set<number>();
  for (const group of groups.values()) {
    for (const index of group.any) pool.add(index);
    for (const list of group.preferred.values()) for (const index of list) pool.add(index);
  }
  if (pool.size === 0) return [];

  const rows = await tx.$queryRaw<Array<{ itemId: string; condition: string | null; n: number | null; expired: boolean | null; eligible: boolean }>>`
    SELECT i.id AS "itemId", t.condition, t.n, t.expired, (NOT i.practice AND NOT i.gold AND ${reviewExcludedItemFilter("i")}) AS eligible
    FROM "Item" i
    LEFT JOIN LATERAL (
      SELECT a.condition,
        count(*) FILTER (WHERE NOT (a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" < ${NOW}))::int AS n,
        bool_or(a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" < ${NOW}) AS expired
      FROM "Assignment" a
      WHERE a."itemId" = i.id AND a.purpose = 'MAIN' AND a.status <> 'RELEASED'
      GROUP BY a.condition
    ) t ON true
    WHERE i.id = ANY(${[...pool].map((index) => items.ids[index])}::text[]) AND i."studyId" = ${studyId}`;
  const eligible = new Set(rows.filter((row) => row.eligible).map((row) => row.itemId));
  const places = new Map(rows.filter((row) => row.n !== null).map((row) => [`${row.itemId}|${row.condition ?? ""}`, { n: row.n ?? 0, expired: row.expired === true }]));
  const free = (index: number, condition: string | null) => eligible.has(items.ids[index]) && (places.get(`${items.ids[index]}|${condition ?? ""}`)?.n ?? 0) < study.overlap;

  const candidates: Candidate[] = [];
  for (const [balance, group] of groups) {
    for (const condition of allowed) {
      const c = conditionIndex(condition);
      const preferred = group.preferred.get(c)!.filter((index) => free(index, condition));
      const picked = preferred.slice(0, CANDIDATES_PER_GROUP);
      if (picked.length < CANDIDATES_PER_GROUP) {
        // more preferred items may lie beyond the pool: only the full search can tell
        if (group.preferredTruncated.has(c)) return null;
        const others = group.any.filter((index) => !isPreferred(index, c) && free(index, condition));
        picked.push(...others.slice(0, CANDIDATES_PER_GROUP - picked.length));
        if (picked.length < CANDIDATES_PER_GROUP && group.anyTruncated) return null;
      }
      picked.forEach((index, rank) => {
        const itemId = items.ids[index];
        candidates.push({
          itemId,
          condition,
          balance,
          rank: rank + 1,
          preferred: isPreferred(index, c),
          hash: md5Hex(`${userId}:${itemId}`),
          expired: places.get(`${itemId}|${condition ?? ""}`)?.expired ?? false,
          base: null,
          available: -1,
        });
      });
    }
  }
  return candidates;
}

/** May the annotator start a new base case: fewer held than their share, ceil(base cases x holders per base / people). */
async function mayStartBaseCase(tx: Tx, studyId: string, userId: string, holdersPerBase: number): Promise<boolean> {
  const [row] = await tx.$queryRaw<Array<{ bases: bigint; held: bigint; people: bigint }>>`
    SELECT
      (SELECT count(DISTINCT ${baseCaseSql("i")}) FROM "Item" i
        WHERE i."studyId" = ${studyId} AND ${baseCaseSql("i")} IS NOT NULL AND ${reviewExcludedItemFilter("i")}) AS bases,
      (SELECT count(*) FROM (${holdersSql(studyId)}) h WHERE h."userId" = ${userId}) AS held,
      (SELECT count(*) FROM (SELECT m."userId" FROM "StudyMember" m WHERE m."studyId" = ${studyId} AND m.status IN ('ACTIVE', 'COMPLETE') UNION SELECT ${userId}) p) AS people`;
  const bases = Number(row?.bases ?? 0);
  if (bases === 0) return false;
  const people = Math.max(1, Number(row?.people ?? 1));
  return Number(row?.held ?? 0) < Math.ceil((bases * holdersPerBase) / people);
}

/**
 * The annotator's next main items in a study with probe families: not had yet, a free place in
 * some condition, allowed by the probe-family rules (see the top of this file); among those, due
 * family items first, then new base cases, then ordinary items, then family items that are not
 * due yet; lowest md5(userId:itemId) within each tier. One row per (item, condition with room).
 */
async function probeCandidates(tx: Tx, studyId: string, userId: string, study: StudyState, position: number): Promise<Candidate[]> {
  const holdersPerBase = study.overlap * Math.max(1, study.conditions.length);
  const mayStart = await mayStartBaseCase(tx, studyId, userId, holdersPerBase);
  const rows = await tx.$queryRaw<Array<{ itemId: string; base: string | null; conditions: Array<string | null>; balance: string; hash: string; expired: boolean; available: number }>>`
    WITH taken AS (${takenSql(studyId)}),
    slots AS (
      SELECT i.id, ${baseCaseSql("i")} AS base, c.cond, coalesce(i.tags ->> ${study.balanceTag}::text, '') AS balance, coalesce(t.expired, false) AS expired
      FROM "Item" i
      CROSS JOIN ${conditionsSql(study.conditions)} AS c
      LEFT JOIN taken t ON t."itemId" = i.id AND t.condition IS NOT DISTINCT FROM c.cond
      WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold
        AND coalesce(t.n, 0) < ${study.overlap}
        AND NOT EXISTS (SELECT 1 FROM "Assignment" a WHERE a."itemId" = i."id" AND a."userId" = ${userId})
        AND ${reviewExcludedItemFilter("i")}
    ),
    cand AS (
      SELECT s.id, s.base, s.balance, array_agg(s.cond) AS conditions, bool_or(s.expired) AS expired FROM slots s GROUP BY s.id, s.base, s.balance
    ),
    holders AS (
      SELECT h.base, count(*) AS n, bool_or(h."userId" = ${userId}) AS mine FROM (${holdersSql(studyId)}) h GROUP BY h.base
    ),
    lastpos AS (
      SELECT ${baseCaseSql("li")} AS base, max(la."position") AS p
      FROM "Assignment" la JOIN "Item" li ON li."id" = la."itemId"
      WHERE la."studyId" = ${studyId} AND la."userId" = ${userId} AND la.status <> 'RELEASED' AND ${baseCaseSql("li")} IS NOT NULL
      GROUP BY 1
    ),
    eligible AS (
      SELECT c.*, coalesce(h.mine, false) AS mine, coalesce(h.n, 0) AS holders, l.p AS lastp
      FROM cand c LEFT JOIN holders h ON h.base = c.base LEFT JOIN lastpos l ON l.base = c.base
      WHERE c.base IS NULL OR coalesce(h.mine, false) OR (coalesce(h.n, 0) < ${holdersPerBase} AND ${mayStart})
    ),
    counted AS (
      SELECT e.*, count(*) OVER () AS total, count(*) OVER (PARTITION BY e.base) AS mates FROM eligible e
    ),
    ranked AS (
      SELECT k.*, md5(${userId} || ':' || k."id") AS hash,
        CASE
          WHEN k.mine AND (k.lastp IS NULL
            OR ${position} - k.lastp - 1 >= GREATEST(1, LEAST(${study.probeMinGap}, floor((k.total - k.mates + ${position} - k.lastp - 1)::numeric / k.mates)))) THEN 0
          WHEN k.base IS NOT NULL AND NOT k.mine THEN 1
          WHEN k.base IS NULL THEN 2
          ELSE 3
        END AS tier
      FROM counted k
    )
    SELECT r."id" AS "itemId", r.base, r.conditions, r.balance, r.hash, r.expired, (SELECT count(*) FROM eligible)::int AS available
    FROM ranked r
    ORDER BY r.tier, CASE WHEN r.tier = 1 THEN r.holders END, CASE WHEN r.tier = 3 THEN r.lastp END NULLS FIRST, r.hash, r."id"
    LIMIT ${CLAIM_TRIES}`;
  return rows.map((row, index) => ({
    itemId: row.itemId,
    condition: row.conditions[0] ?? null,
    conditions: row.conditions,
    balance: row.balance,
    rank: index + 1,
    preferred: true,
    hash: row.hash,
    expired: row.expired,
    base: row.base,
    available: row.available,
  }));
}

/** Counts of a participant's ordinary MAIN work per key (condition, balance value). */
function countsBy(rows: readonly MineRow[], key: (row: MineRow) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
  return counts;
}

const conditionKey = (condition: string | null) => condition ?? "";

/** The conditions a participant may take now: those they have used least ([null] without conditions). */
function allowedConditions(ordinaryMine: readonly MineRow[], conditions: readonly string[]): Array<string | null> {
  if (conditions.length === 0) return [null];
  const byCondition = countsBy(ordinaryMine, (row) => conditionKey(row.condition));
  const used = (condition: string) => byCondition.get(condition) ?? 0;
  const fewest = Math.min(...conditions.map(used));
  return conditions.filter((condition) => used(condition) === fewest);
}

/**
 * Claim order. Conditions are balanced strictly: a participant only takes a condition they have
 * used least (so their per-condition counts never differ by more than one); candidates in other
 * conditions are dropped. Then the least-used balance value (a preference: the tag's values may
 * have different sizes), then the participant's own Latin-square list before other lists' items,
 * then the candidate's rank in its group (md5 order). Probe candidates keep their SQL order (tiers) and only choose their condition.
 */
function orderCandidates(candidates: Candidate[], ordinaryMine: readonly MineRow[], conditions: readonly string[]): Candidate[] {
  const allowedSet = new Set(allowedConditions(ordinaryMine, conditions));
  const allowed = (condition: string | null) => allowedSet.has(condition);
  const byBalance = countsBy(ordinaryMine, (row) => row.balance);
  const probe = candidates.some((candidate) => candidate.conditions !== undefined);
  if (probe) {
    return candidates.flatMap((candidate) => {
      const options = (candidate.conditions ?? [candidate.condition]).filter(allowed);
      return options.length === 0 ? [] : [{ ...candidate, condition: options.sort((a, b) => conditionKey(a).localeCompare(conditionKey(b)))[0] }];
    });
  }
  return candidates
    .filter((candidate) => allowed(candidate.condition))
    .sort(
      (a, b) =>
        (byBalance.get(a.balance) ?? 0) - (byBalance.get(b.balance) ?? 0) ||
        Number(b.preferred) - Number(a.preferred) ||
        a.rank - b.rank ||
        (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0),
    );
}

// --- claiming ---------------------------------------------------------------------------------

type ClaimResult = { id: string } | { lost: "busy" | "full" };

interface ClaimInput {
  studyId: string;
  userId: string;
  itemId: string;
  condition: string | null;
  base: string | null;
  expired: boolean;
  position: number;
  overlap: number;
  holdersPerBase: number;
  leaseSeconds: number;
}

/**
 * Claims a place of an ordinary item (x condition): item lock (and base-case lock for families),
 * release of expired leases, then an insert that counts the places again in its own statement.
 */
async function claimPlace(tx: Tx, input: ClaimInput): Promise<ClaimResult> {
  if (input.base !== null && !(await tryLock(tx, baseLockKey(input.studyId, input.base)))) return { lost: "busy" };
  if (!(await tryLock(tx, itemLockKey(input.itemId)))) return { lost: "busy" };
  if (input.expired) {
    await tx.$executeRaw`
      UPDATE "Assignment" SET status = 'RELEASED'
      WHERE "itemId" = ${input.itemId} AND purpose = 'MAIN' AND status IN ('ASSIGNED', 'STARTED') AND "leaseExpiresAt" < ${NOW}`;
  }
  const familyCheck =
    input.base === null
      ? Prisma.sql`true`
      : Prisma.sql`(EXISTS (SELECT 1 FROM (${holdersSql(input.studyId)}) h WHERE h.base = ${input.base} AND h."userId" = ${input.userId})
          OR (SELECT count(*) FROM (${holdersSql(input.studyId)}) h WHERE h.base = ${input.base}) < ${input.holdersPerBase})`;
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", status, purpose, position, "createdAt", "leaseExpiresAt", condition)
    SELECT ${newRowId()}, ${input.studyId}, ${input.itemId}, ${input.userId}, 'ASSIGNED', 'MAIN', ${input.position}, ${NOW},
      ${NOW} + make_interval(secs => ${input.leaseSeconds}), ${input.condition}::text
    WHERE (SELECT count(*) FROM "Assignment" a
           WHERE a."itemId" = ${input.itemId} AND a.purpose = 'MAIN' AND a.status <> 'RELEASED' AND a.condition IS NOT DISTINCT FROM ${input.condition}::text) < ${input.overlap}
      AND ${familyCheck}
    ON CONFLICT ("itemId", "userId") DO NOTHING
    RETURNING id`;
  return rows[0] ? { id: rows[0].id } : { lost: "full" };
}

/** The participant's next gold item (md5 order), created in one statement; null when none is left. */
async function claimGold(tx: Tx, studyId: string, userId: string, position: number, condition: string | null): Promise<string | null> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", status, purpose, position, "createdAt", condition)
    SELECT ${newRowId()}, ${studyId}, g.id, ${userId}, 'ASSIGNED', 'MAIN', ${position}, ${NOW}, ${condition}::text
    FROM (
      SELECT i.id FROM "Item" i
      WHERE i."studyId" = ${studyId} AND i.gold AND NOT i.practice
        AND NOT EXISTS (SELECT 1 FROM "Assignment" m WHERE m."itemId" = i.id AND m."userId" = ${userId})
        AND ${reviewExcludedItemFilter("i")}
      ORDER BY md5(${userId} || ':' || i.id), i.id
      LIMIT 1
    ) g
    ON CONFLICT ("itemId", "userId") DO NOTHING
    RETURNING id`;
  return rows[0]?.id ?? null;
}

/** The first practice item the participant has not had (import order: researchers order practice on purpose), created in one statement. */
async function claimPractice(tx: Tx, studyId: string, userId: string, position: number, condition: string | null): Promise<string | null> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", status, purpose, position, "createdAt", condition)
    SELECT ${newRowId()}, ${studyId}, p.id, ${userId}, 'ASSIGNED', 'PRACTICE', ${position}, ${NOW}, ${condition}::text
    FROM (
      SELECT i.id FROM "Item" i
      WHERE i."studyId" = ${studyId} AND i.practice
        AND NOT EXISTS (SELECT 1 FROM "Assignment" m WHERE m."itemId" = i.id AND m."userId" = ${userId})
        AND ${reviewExcludedItemFilter("i")}
      ORDER BY i."createdAt", i."externalId"
      LIMIT 1
    ) p
    ON CONFLICT ("itemId", "userId") DO NOTHING
    RETURNING id`;
  return rows[0]?.id ?? null;
}

/**
 * Serving an open assignment again renews its lease (a never-started one only by the first-item
 * lease, never shortening one it has); false when a claimer released it meanwhile.
 */
async function renewLease(tx: Tx, assignmentId: string, leaseSeconds: number, firstItemLeaseSeconds: number): Promise<boolean> {
  const renewed = await tx.$executeRaw`
    UPDATE "Assignment" SET "leaseExpiresAt" = CASE WHEN status = 'ASSIGNED'
        THEN greatest("leaseExpiresAt", ${NOW} + make_interval(secs => ${Math.min(leaseSeconds, firstItemLeaseSeconds)}))
        ELSE ${NOW} + make_interval(secs => ${leaseSeconds}) END
    WHERE id = ${assignmentId} AND status IN ('ASSIGNED', 'STARTED')`;
  return renewed > 0;
}

/** Whether the participant's next main-queue item should be gold (see rule 6 at the top of this file). */
export function goldDue(userId: string, queueLength: number, goldSoFar: number, goldRate: number): boolean {
  if (!(goldRate > 0)) return false;
  const slot = Math.floor((goldSoFar + unitHash(`${userId}:gold:${goldSoFar}`)) / Math.min(1, goldRate));
  return queueLength >= slot;
}

// --- the next assignment ----------------------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The assignment the participant should work on next, created when needed (rules at the top of
 * this file).
 *
 * `exclude`: assignments the browser holds already (the item on screen, items submitted but not
 * yet acknowledged), so that a prefetch asks for the one after them.
 */
export async function nextAssignment(studyId: string, userId: string, options: { exclude?: readonly string[] } = {}): Promise<NextAssignment> {
  const exclude = new Set(options.exclude ?? []);
  const release = await nextSlots.acquire();
  try {
    return await db.$transaction((tx) => nextInTransaction(tx, studyId, userId, exclude), { maxWait: 5_000, timeout: 15_000 });
  } finally {
    release();
  }
}

/**
 * At most half the pool's connections run next-item transactions at once (per process). A
 * transaction holds its connection between statements, while this process works on other
 * requests; without a cap, a burst of next-item requests takes every connection and event
 * batches and submissions (single statements) queue behind them. Waiting here costs the database
 * nothing; past SLOT_WAIT_MS the request is refused as saturated (503, Retry-After).
 */
const SLOT_WAIT_MS = 10_000;

class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  constructor(size: number) {
    this.free = size;
  }
  async acquire(): Promise<() => void> {
    if (this.free > 0) {
      this.free--;
    } else {
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(wake), 1);
          reject(new DbSaturatedError(`No next-item slot within ${SLOT_WAIT_MS / 1000} s`));
        }, SLOT_WAIT_MS);
        this.waiting.push(wake);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

const nextSlots = new Slots(Math.max(1, Math.floor(databasePoolSize() / 2)));

async function nextInTransaction(tx: Tx, studyId: string, userId: string, exclude: ReadonlySet<string>): Promise<NextAssignment> {
  await lockParticipant(tx, studyId, userId);
  const study = await readStudyState(tx, studyId, userId);
  if (!study) throw new AppError("NOT_FOUND", `No study with id ${studyId}`);
  if (study.status === "PAUSED") return { status: "paused" };
  if (study.status === "CLOSED") return { status: "closed" };
  if (study.status !== "OPEN") return { status: "not_open" };

  const mine = study.mine;
  let open = mine.filter((row) => isOpen(row.status));
  const stopped = study.memberStatus ? stoppedStatus[study.memberStatus] : undefined;
  if (stopped) {
    if (open.length > 0) await releaseOpenWork(tx, studyId, userId);
    return { status: stopped, reason: study.statusReason };
  }
  if (study.sessionOver) {
    const limit = study.sessionTimeLimitSeconds ?? 0;
    const reason = `session time limit of ${limit >= 120 ? `${Math.round(limit / 60)} minutes` : `${limit} seconds`} reached`;
    await endParticipation(tx, studyId, userId, "TIMED_OUT", reason);
    return { status: "timed_out", reason };
  }

  const position = mine.reduce((max, row) => Math.max(max, row.position), -1) + 1;
  const firstEver = mine.length === 0;
  const created = async (assignmentId: string, purpose: AssignmentPurpose): Promise<NextAssignment> => {
    if (firstEver && study.isMember && !study.memberStarted) {
      await tx.$executeRaw`UPDATE "StudyMember" SET "startedAt" = ${NOW} WHERE "studyId" = ${studyId} AND "userId" = ${userId} AND "startedAt" IS NULL`;
    }
    if (study.memberStatus === "COMPLETE") {
      // new work for someone marked complete (items became free again): working again
      await tx.$executeRaw`UPDATE "StudyMember" SET status = 'ACTIVE', "statusReason" = NULL, "statusAt" = ${NOW} WHERE "studyId" = ${studyId} AND "userId" = ${userId} AND status = 'COMPLETE'`;
    }
    return { status: "assigned", assignmentId, purpose, created: true };
  };
  /** Serves the first open assignment that is still open (a claimer may have released an expired one). */
  const serveOpen = async (rows: MineRow[]): Promise<NextAssignment | null> => {
    for (const row of rows) {
      if (row.renewDue && !(await renewLease(tx, row.id, study.leaseSeconds, study.firstItemLeaseSeconds))) {
        open = open.filter((other) => other.id !== row.id);
        continue;
      }
      return { status: "assigned", assignmentId: row.id, purpose: row.purpose, created: false };
    }
    return null;
  };
  const servable = () => open.filter((row) => !exclude.has(row.id)).sort((a, b) => purposeRank[a.purpose] - purposeRank[b.purpose] || a.position - b.position);
  const nothingLeft = (): NextAssignment => (open.some((row) => exclude.has(row.id)) ? { status: "wait" } : { status: "done" });

  // practice first: open practice, then the next practice item
  const openPractice = servable().filter((row) => row.purpose === "PRACTICE");
  if (openPractice.length > 0) {
    const served = await serveOpen(openPractice);
    if (served) return served;
  }
  const tooMany = open.filter((row) => row.purpose !== "AGREEMENT").length >= MAX_OPEN_ASSIGNMENTS;
  const practice = mine.filter((row) => row.purpose === "PRACTICE" && row.status !== "RELEASED");
  if (practice.length < study.practiceTotal) {
    if (tooMany) return { status: "wait" };
    const condition = study.conditions.length > 0 ? study.conditions[practice.length % study.conditions.length] : null;
    const practiceId = await claimPractice(tx, studyId, userId, position, condition);
    if (practiceId) return created(practiceId, "PRACTICE");
  }

  // the practice pass mark
  if (study.practicePassMark !== null && practice.length > 0) {
    if (practice.some((row) => row.status !== "SUBMITTED")) return { status: "wait" };
    const correct = practice.filter((row) => row.correct === true).length;
    const reincluded = study.memberStatus === "ACTIVE" && study.statusReason !== null;
    if (correct / practice.length < study.practicePassMark && study.isMember && !reincluded) {
      const reason = `${PRACTICE_FAIL_REASON} (${correct} of ${practice.length} correct; the pass mark is ${Math.round(study.practicePassMark * 100)} %)`;
      await endParticipation(tx, studyId, userId, "EXCLUDED", reason);
      return { status: "excluded", reason };
    }
  }

  // open work (pre-assigned first), then new work
  const served = await serveOpen(servable());
  if (served) return served;

  const queue = mine.filter((row) => row.purpose === "MAIN" && row.status !== "RELEASED");
  if (study.itemsPerParticipant !== null && queue.length >= study.itemsPerParticipant) {
    return open.some((row) => exclude.has(row.id)) ? { status: "wait" } : { status: "quota" };
  }
  const ordinaryMine = queue.filter((row) => !row.gold);
  const goldMine = queue.filter((row) => row.gold);
  const had = new Set(mine.map((row) => row.itemId));
  const holdersPerBase = study.overlap * Math.max(1, study.conditions.length);

  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    if (round > 0) await sleep(5 * round + Math.random() * 10);
    const found = study.hasProbes
      ? await probeCandidates(tx, studyId, userId, study, position)
      : ((await fastCandidates(tx, studyId, userId, study, had, allowedConditions(ordinaryMine, study.conditions))) ?? (await ordinaryCandidates(tx, studyId, userId, study)));
    const candidates = orderCandidates(found, ordinaryMine, study.conditions);
    if (candidates.length === 0) return nothingLeft();
    if (tooMany) return { status: "wait" };
    if (round === 0 && goldDue(userId, queue.length, goldMine.length, study.goldRate)) {
      const condition = study.conditions.length > 0 ? study.conditions[goldMine.length % study.conditions.length] : null;
      const goldId = await claimGold(tx, studyId, userId, position, condition);
      if (goldId) return created(goldId, "MAIN");
    }
    // A candidate outside the participant's Latin-square list is taken only when no candidate in
    // it was busy: a busy one is being claimed right now and is worth another round, and taking
    // another list's place instead would leave someone of that list without an item at the end.
    let preferredBusy = false;
    for (const candidate of candidates.slice(0, CLAIM_TRIES)) {
      if (preferredBusy && !candidate.preferred) continue;
      const claim = await claimPlace(tx, {
        studyId,
        userId,
        itemId: candidate.itemId,
        condition: candidate.condition,
        base: candidate.base,
        expired: candidate.expired,
        position,
        overlap: study.overlap,
        holdersPerBase,
        // the first-item lease: the first event batch gives it the full lease (lib/events.ts)
        leaseSeconds: Math.min(study.leaseSeconds, study.firstItemLeaseSeconds),
      });
      if ("id" in claim) return created(claim.id, "MAIN");
      if (claim.lost === "busy" && candidate.preferred) preferredBusy = true;
    }
  }
  return { status: "wait" };
}

/**
 * A response arrived for a RELEASED assignment (lib/responses.ts): the assignment becomes
 * SUBMITTED again when that breaks no rule: always for work that holds no place (practice, gold,
 * pre-assigned agreement items), and for a place only while its item (x condition) has fewer than
 * k places, under the item's lock. Probe-family items stay RELEASED (taking a place back could
 * break a family's holder limit). Returns whether it took the place back.
 */
export async function reclaimReleasedPlace(assignmentId: string): Promise<boolean> {
  const [target] = await db.$queryRaw<Array<{ itemId: string }>>`SELECT "itemId" FROM "Assignment" WHERE id = ${assignmentId} AND status = 'RELEASED'`;
  if (!target) return false;
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(${lockKey(itemLockKey(target.itemId))})::text AS locked`;
    const changed = await tx.$executeRaw`
      UPDATE "Assignment" a SET status = 'SUBMITTED', "submittedAt" = ${NOW}
      FROM "Item" i, "Study" s
      WHERE a.id = ${assignmentId} AND a.status = 'RELEASED' AND i.id = a."itemId" AND s.id = a."studyId"
        AND (a.purpose <> 'MAIN' OR i.gold OR (${baseCaseSql("i")} IS NULL AND (
          SELECT count(*) FROM "Assignment" b
          WHERE b."itemId" = a."itemId" AND b.purpose = 'MAIN' AND b.status <> 'RELEASED' AND b.condition IS NOT DISTINCT FROM a.condition) < s.overlap))`;
    return changed > 0;
  });
}

/**
 * Both candidate searches for one participant, as nextAssignment would run them now (the fast
 * one is null when it cannot decide). For lib/assignment-rules.integration.test.ts, which checks
 * that they agree on random study states.
 */
export async function candidateSearchesForTest(studyId: string, userId: string): Promise<{ fast: Candidate[] | null; full: Candidate[] }> {
  return db.$transaction(async (tx) => {
    const study = await readStudyState(tx, studyId, userId);
    if (!study) throw new AppError("NOT_FOUND", `No study with id ${studyId}`);
    const mine = study.mine;
    const ordinaryMine = mine.filter((row) => row.purpose === "MAIN" && row.status !== "RELEASED" && !row.gold);
    const allowed = allowedConditions(ordinaryMine, study.conditions);
    const fast = await fastCandidates(tx, studyId, userId, study, new Set(mine.map((row) => row.itemId)), allowed);
    const full = (await ordinaryCandidates(tx, studyId, userId, study)).filter((candidate) => allowed.includes(candidate.condition));
    return { fast, full };
  });
}

// --- sweeping -------------------------------------------------------------------------------

/**
 * Housekeeping for a whole study (the participant table, a periodic job): open MAIN assignments
 * whose lease has passed become RELEASED, and ACTIVE participants past the session time limit
 * become TIMED_OUT (their open work released). Claims do the first lazily item by item, and
 * next-item does the second for the participant who asks, so this only makes the stored state
 * current for people who never come back. Safe at any time: releasing only frees places.
 */
export async function sweepStudy(studyId: string): Promise<{ released: number; timedOut: number }> {
  const released = await db.$executeRaw`
    UPDATE "Assignment" SET status = 'RELEASED'
    WHERE "studyId" = ${studyId} AND purpose = 'MAIN' AND status IN ('ASSIGNED', 'STARTED') AND "leaseExpiresAt" < ${NOW}`;
  const over = await db.$queryRaw<Array<{ userId: string; limit: number }>>`
    SELECT m."userId", s."sessionTimeLimitSeconds" AS limit FROM "StudyMember" m JOIN "Study" s ON s.id = m."studyId"
    WHERE m."studyId" = ${studyId} AND m.status = 'ACTIVE' AND m."startedAt" IS NOT NULL AND s."sessionTimeLimitSeconds" IS NOT NULL
      AND ${NOW} >= m."startedAt" + make_interval(secs => s."sessionTimeLimitSeconds")`;
  let timedOut = 0;
  for (const row of over) {
    const reason = `session time limit of ${row.limit >= 120 ? `${Math.round(row.limit / 60)} minutes` : `${row.limit} seconds`} reached`;
    if (await db.$transaction((tx) => endParticipation(tx, studyId, row.userId, "TIMED_OUT", reason))) timedOut++;
  }
  return { released, timedOut };
}

// --- pre-assignment ---------------------------------------------------------------------------

/**
 * Pre-assigns items to an annotator (the dashboards' agreement plan uses AGREEMENT); the next-item
 * logic serves them before new MAIN work (after practice). Items the annotator has already are
 * skipped, and so are items that item review excluded. MAIN pre-assignments respect k: an item at
 * k places (in every condition) is refused (CONFLICT) and nothing is written; they get a lease like
 * any place. With conditions, a MAIN pre-assignment takes the condition with the fewest places
 * held, an AGREEMENT one the annotator's next condition in rotation. The annotator becomes a member
 * of the study if not yet one.
 */
export async function assignItemsTo(userId: string, itemIds: readonly string[], purpose: AssignmentPurpose): Promise<{ created: number; skipped: number; assignmentIds: string[] }> {
  const unique = [...new Set(itemIds)];
  if (unique.length === 0) return { created: 0, skipped: 0, assignmentIds: [] };
  const items = await db.item.findMany({ where: { id: { in: unique } }, select: { id: true, studyId: true } });
  const missing = unique.filter((id) => !items.some((item) => item.id === id));
  if (missing.length > 0) throw new AppError("NOT_FOUND", `assignItemsTo: no item with id ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", ..." : ""}`);
  const studyIds = new Set(items.map((item) => item.studyId));
  if (studyIds.size !== 1) throw new AppError("INVALID", `assignItemsTo needs items of one study; got items of ${studyIds.size} studies`);
  const [studyId] = studyIds;
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true } });
  if (!user) throw new AppError("NOT_FOUND", `assignItemsTo: no user with id ${userId}`);
  await assertNoReviewersOf(studyId, [userId]);

  return db.$transaction(
    async (tx) => {
      await lockParticipant(tx, studyId, userId);
      // item locks in a fixed order (blocking: a claimer holds an item lock for milliseconds and never waits while holding it)
      for (const itemId of [...unique].sort()) await tx.$queryRaw`SELECT pg_advisory_xact_lock(${lockKey(itemLockKey(itemId))})::text AS locked`;
      const study = await tx.study.findUniqueOrThrow({ where: { id: studyId }, select: { overlap: true, conditions: true, leaseSeconds: true } });
      const had = await tx.assignment.findMany({ where: { userId, itemId: { in: unique } }, select: { itemId: true } });
      const hadSet = new Set(had.map((a) => a.itemId));
      const excludedRows = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT i.id FROM "Item" i WHERE i.id IN (${Prisma.join(unique)}) AND NOT ${reviewExcludedItemFilter("i")}`;
      const excluded = new Set(excludedRows.map((row) => row.id));
      const fresh = unique.filter((id) => !hadSet.has(id) && !excluded.has(id));
      const conditions: Array<string | null> = study.conditions.length > 0 ? study.conditions : [null];
      const conditionOf = new Map<string, string | null>();
      if (purpose === "MAIN" && fresh.length > 0) {
        await tx.$executeRaw`
          UPDATE "Assignment" SET status = 'RELEASED'
          WHERE "itemId" IN (${Prisma.join(fresh)}) AND purpose = 'MAIN' AND status IN ('ASSIGNED', 'STARTED') AND "leaseExpiresAt" < ${NOW}`;
        const held = await tx.assignment.groupBy({ by: ["itemId", "condition"], where: { itemId: { in: fresh }, purpose: "MAIN", status: { not: "RELEASED" } }, _count: { _all: true } });
        const full: string[] = [];
        for (const itemId of fresh) {
          const places = (condition: string | null) => held.find((row) => row.itemId === itemId && row.condition === condition)?._count._all ?? 0;
          const best = [...conditions].sort((a, b) => places(a) - places(b))[0];
          if (places(best) >= study.overlap) full.push(itemId);
          else conditionOf.set(itemId, best);
        }
        if (full.length > 0) throw new AppError("CONFLICT", `assignItemsTo: item(s) ${full.slice(0, 5).join(", ")} already have ${study.overlap} annotator(s) (the study's overlap)`);
      }
      await tx.studyMember.createMany({ data: [{ studyId, userId }], skipDuplicates: true });
      const last = await tx.assignment.aggregate({ where: { studyId, userId }, _max: { position: true } });
      let position = (last._max.position ?? -1) + 1;
      const rotation = await tx.assignment.count({ where: { studyId, userId, purpose: "AGREEMENT" } });
      const assignmentIds: string[] = [];
      for (const [index, itemId] of fresh.entries()) {
        const condition = purpose === "MAIN" ? (conditionOf.get(itemId) ?? null) : study.conditions.length > 0 ? study.conditions[(rotation + index) % study.conditions.length] : null;
        const leaseExpiresAt = purpose === "MAIN" ? new Date(Date.now() + study.leaseSeconds * 1000) : null;
        const created = await tx.assignment.create({ data: { studyId, userId, itemId, purpose, position: position++, condition, leaseExpiresAt }, select: { id: true } });
        assignmentIds.push(created.id);
      }
      return { created: fresh.length, skipped: unique.length - fresh.length, assignmentIds };
    },
    { maxWait: 20_000, timeout: 60_000 },
  );
}

// --- progress -------------------------------------------------------------------------------

export interface Progress {
  practice: { done: number; total: number };
  /** non-practice work: done, and the most this annotator can still reach (done + open + available now, within the quota) */
  main: { done: number; total: number };
  /** assignments created and not submitted (nor released) */
  open: number;
  /** nothing open and nothing left to hand out (quota reached, or no item available) */
  finished: boolean;
  /** the participant's standing (null: not a member) */
  participantStatus: ParticipantStatus | null;
}

/**
 * Ordinary items the participant could be given now: a free place in some condition (lease-expired
 * places count as free), not theirs yet, not excluded by review, and for probe families not held
 * by as many others as a base case may have. At most `cap` are counted.
 */
async function availableCount(studyId: string, userId: string, study: { overlap: number; conditions: string[]; hasProbes: boolean }, cap: number): Promise<number> {
  if (cap <= 0) return 0;
  const holdersPerBase = study.overlap * Math.max(1, study.conditions.length);
  const familyRule = study.hasProbes
    ? Prisma.sql`AND (${baseCaseSql("i")} IS NULL OR (
          SELECT count(*) FILTER (WHERE h."userId" <> ${userId}) < ${holdersPerBase} OR bool_or(h."userId" = ${userId}) IS TRUE
          FROM (${holdersSql(studyId)}) h WHERE h.base = ${baseCaseSql("i")}))`
    : Prisma.empty;
  const [row] = await db.$queryRaw<Array<{ n: number }>>`
    WITH taken AS (${takenSql(studyId)})
    SELECT count(*)::int AS n FROM (
      SELECT DISTINCT i.id FROM "Item" i
      CROSS JOIN ${conditionsSql(study.conditions)} AS c
      LEFT JOIN taken t ON t."itemId" = i.id AND t.condition IS NOT DISTINCT FROM c.cond
      WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold
        AND coalesce(t.n, 0) < ${study.overlap}
        AND NOT EXISTS (SELECT 1 FROM "Assignment" m WHERE m."itemId" = i.id AND m."userId" = ${userId})
        AND ${reviewExcludedItemFilter("i")}
        ${familyRule}
      LIMIT ${Math.min(cap, 2_147_483_647)}
    ) x`;
  return row?.n ?? 0;
}

/**
 * Items of a study with a free place (any condition), not excluded by review: the study-wide part
 * of availableCount, kept per process for FREE_ITEMS_TTL_MS. next-item asks for the progress on
 * every call, and the exact count is a pass over every item of the study per request (about a third
 * of next-item's time in bench/load); this set is computed once a second per process instead.
 */
interface FreeItems {
  key: string;
  loadedAt: number;
  ids: Set<string>;
}
const FREE_ITEMS_TTL_MS = 1_000;
/** below this many, the exact count is made (the end of a study, small studies): `finished` and the last items stay exact */
export const APPROXIMATE_AVAILABLE_ABOVE = 200;
const freeItemsCache = ((globalThis as unknown as { yardstickFreeItems?: Map<string, FreeItems> }).yardstickFreeItems ??= new Map());

async function freeItems(studyId: string, study: { overlap: number; conditions: string[]; itemsVersion: string }): Promise<Set<string>> {
  const key = `${study.overlap}|${study.conditions.join("\u0000")}|${study.itemsVersion}`;
  const cached = freeItemsCache.get(studyId);
  if (cached && cached.key === key && Date.now() - cached.loadedAt < FREE_ITEMS_TTL_MS) return cached.ids;
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    WITH taken AS (${takenSql(studyId)})
    SELECT DISTINCT i.id FROM "Item" i
    CROSS JOIN ${conditionsSql(study.conditions)} AS c
    LEFT JOIN taken t ON t."itemId" = i.id AND t.condition IS NOT DISTINCT FROM c.cond
    WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold
      AND coalesce(t.n, 0) < ${study.overlap}
      AND ${reviewExcludedItemFilter("i")}`;
  const ids = new Set(rows.map((row) => row.id));
  remember(freeItemsCache, studyId, { key, loadedAt: Date.now(), ids }, MAX_CACHED_STUDIES);
  return ids;
}

/** Forget the per-process free-item sets (tests that look at the approximate path). */
export function forgetFreeItemsForTest(): void {
  freeItemsCache.clear();
}

/**
 * availableCount, from the per-process free-item set when that leaves more than
 * APPROXIMATE_AVAILABLE_ABOVE items (then it may lag the truth by the places taken in the last
 * second, which a progress bar's total can bear); the exact count otherwise, and always for
 * studies with probe families (their rule depends on the participant).
 */
async function availableForProgress(
  studyId: string,
  userId: string,
  study: { overlap: number; conditions: string[]; hasProbes: boolean; itemsVersion: string; had: string[] },
  cap: number,
): Promise<number> {
  if (cap <= 0) return 0;
  if (!study.hasProbes) {
    const free = await freeItems(studyId, study);
    let available = free.size;
    for (const itemId of study.had) if (free.has(itemId)) available--;
    if (available > APPROXIMATE_AVAILABLE_ABOVE) return Math.min(cap, available);
  }
  return availableCount(studyId, userId, study, cap);
}

/**
 * The annotator's progress ("12 of 40"). The total is what this annotator can still reach: their
 * submitted and open items plus the items they could be given now (within the quota); it shrinks
 * as other annotators take the last places of items. Gold items count once given; the base-case
 * share (balance rule) is not counted here.
 */
export async function progressFor(studyId: string, userId: string): Promise<Progress> {
  const [row] = await db.$queryRaw<
    Array<{
      overlap: number;
      conditions: string[];
      itemsPerParticipant: number | null;
      participantStatus: ParticipantStatus | null;
      practiceTotal: number;
      practiceAssigned: number;
      practiceDone: number;
      mainAssigned: number;
      mainDone: number;
      queue: number;
      open: number;
      hasProbes: boolean;
      itemsVersion: string;
      had: string[];
    }>
  >`
    SELECT s.overlap, s.conditions, s."itemsPerParticipant", m.status::text AS "participantStatus",
      ${itemsVersionSql("s")} AS "itemsVersion",
      coalesce(array_agg(DISTINCT a."itemId") FILTER (WHERE a.id IS NOT NULL), '{}') AS had,
      EXISTS (SELECT 1 FROM "Item" pi WHERE pi."studyId" = s.id AND pi.kind = ${PROBE_KIND} AND pi.tags->>'group' IS NOT NULL
        AND NOT pi.practice AND NOT pi.gold) AS "hasProbes",
      (SELECT count(*) FROM "Item" i WHERE i."studyId" = s.id AND i.practice)::int AS "practiceTotal",
      count(a.id) FILTER (WHERE a.purpose = 'PRACTICE' AND a.status <> 'RELEASED')::int AS "practiceAssigned",
      count(a.id) FILTER (WHERE a.purpose = 'PRACTICE' AND a.status = 'SUBMITTED')::int AS "practiceDone",
      count(a.id) FILTER (WHERE a.purpose <> 'PRACTICE' AND a.status <> 'RELEASED')::int AS "mainAssigned",
      count(a.id) FILTER (WHERE a.purpose <> 'PRACTICE' AND a.status = 'SUBMITTED')::int AS "mainDone",
      count(a.id) FILTER (WHERE a.purpose = 'MAIN' AND a.status <> 'RELEASED')::int AS queue,
      count(a.id) FILTER (WHERE a.status IN ('ASSIGNED', 'STARTED'))::int AS open
    FROM "Study" s
    LEFT JOIN "StudyMember" m ON m."studyId" = s.id AND m."userId" = ${userId}
    LEFT JOIN "Assignment" a ON a."studyId" = s.id AND a."userId" = ${userId}
    WHERE s.id = ${studyId}
    GROUP BY s.id, m.status`;
  if (!row) throw new AppError("NOT_FOUND", `No study with id ${studyId}`);
  const quotaLeft = row.itemsPerParticipant === null ? Number.POSITIVE_INFINITY : Math.max(0, row.itemsPerParticipant - row.queue);
  const stopped = row.participantStatus === "EXCLUDED" || row.participantStatus === "TIMED_OUT" || row.participantStatus === "RETURNED";
  const available = stopped ? 0 : await availableForProgress(studyId, userId, row, Number.isFinite(quotaLeft) ? quotaLeft : 2_147_483_647);
  const practiceLeft = stopped ? 0 : Math.max(0, row.practiceTotal - row.practiceAssigned);
  return {
    practice: { done: row.practiceDone, total: Math.max(row.practiceTotal, row.practiceAssigned) },
    main: { done: row.mainDone, total: row.mainAssigned + available },
    open: row.open,
    finished: !stopped && row.open === 0 && available === 0 && practiceLeft === 0,
    participantStatus: row.participantStatus,
  };
}
