import "server-only";
import { hash } from "node:crypto";
import { nextForAgent } from "@/lib/assignment/agents";
import { fastCandidates, ordinaryCandidates } from "@/lib/assignment/candidate-pool";
import { CLAIM_ROUNDS, CLAIM_TRIES, MAX_OPEN_ASSIGNMENTS, PRACTICE_FAIL_REASON } from "@/lib/assignment/limits";
import { probeCandidates } from "@/lib/assignment/probe-families";
import { createSlotLimiter } from "@/lib/assignment/slots";
import type { Candidate, MineRow } from "@/lib/assignment/types";
import type { Tx } from "@/lib/db/client-types";
import { AppError } from "@/lib/errors";
import type { AssignmentPurpose, AssignmentStatus, ParticipantStatus } from "@/lib/generated/prisma/enums";
import {
  claimGold,
  claimPlace,
  claimPractice,
  endParticipation,
  lockParticipant,
  markMemberStarted,
  reactivateCompletedMember,
  readStudyState,
  releaseOpenWork,
  renewLease,
} from "@/lib/repos/assignments";
import { connectionPoolSize, inTransaction } from "@/lib/repos/transactions";

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

const OPEN_STATUSES: readonly AssignmentStatus[] = ["ASSIGNED", "STARTED"];
const stoppedStatus: Partial<Record<ParticipantStatus, "excluded" | "timed_out" | "returned">> = {
  EXCLUDED: "excluded",
  TIMED_OUT: "timed_out",
  RETURNED: "returned",
};
const isOpen = (status: AssignmentStatus) => OPEN_STATUSES.includes(status);

/** A number in [0, 1) from md5(text), stable across processes. */
function unitHash(text: string): number {
  return hash("md5", text, "buffer").readUInt32BE(0) / 2 ** 32;
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

/** Whether the participant's next main-queue item should be gold (rule 6 in the doc comment of lib/assignment/index.ts). */
export function goldDue(userId: string, queueLength: number, goldSoFar: number, goldRate: number): boolean {
  if (!(goldRate > 0)) return false;
  const slot = Math.floor((goldSoFar + unitHash(`${userId}:gold:${goldSoFar}`)) / Math.min(1, goldRate));
  return queueLength >= slot;
}

// --- the next assignment ----------------------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The assignment the participant should work on next, created when needed (rules in the doc
 * comment of lib/assignment/index.ts).
 *
 * `exclude`: assignments the browser holds already (the item on screen, items submitted but not
 * yet acknowledged), so that a prefetch asks for the one after them.
 */
export async function nextAssignment(studyId: string, userId: string, options: { exclude?: readonly string[] } = {}): Promise<NextAssignment> {
  const exclude = new Set(options.exclude ?? []);
  return inNextSlot(() => inTransaction((tx) => nextInTransaction(tx, studyId, userId, exclude), { maxWait: 5_000, timeout: 15_000 }));
}

/**
 * At most half the pool's connections run next-item transactions at once (per process). A
 * transaction holds its connection between statements, while this process works on other
 * requests; without a cap, a burst of next-item requests takes every connection and event
 * batches and submissions (single statements) queue behind them. Waiting here costs the database
 * nothing; past SLOT_WAIT_MS the request is refused as saturated (503, Retry-After).
 */
const SLOT_WAIT_MS = 10_000;

const inNextSlot = createSlotLimiter(Math.max(1, Math.floor(connectionPoolSize() / 2)), SLOT_WAIT_MS, "next-item");

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
  if (study.isAgent) return nextForAgent(tx, studyId, userId, study, exclude);
  if (study.sessionOver) {
    const limit = study.sessionTimeLimitSeconds ?? 0;
    const reason = `session time limit of ${limit >= 120 ? `${Math.round(limit / 60)} minutes` : `${limit} seconds`} reached`;
    await endParticipation(tx, studyId, userId, "TIMED_OUT", reason);
    return { status: "timed_out", reason };
  }

  const position = mine.reduce((max, row) => Math.max(max, row.position), -1) + 1;
  const firstEver = mine.length === 0;
  const created = async (assignmentId: string, purpose: AssignmentPurpose): Promise<NextAssignment> => {
    if (firstEver && study.isMember && !study.memberStarted) await markMemberStarted(tx, studyId, userId);
    // new work for someone marked complete (items became free again): working again
    if (study.memberStatus === "COMPLETE") await reactivateCompletedMember(tx, studyId, userId);
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
      : ((await fastCandidates(tx, studyId, userId, study, had, allowedConditions(ordinaryMine, study.conditions))) ??
        (await ordinaryCandidates(tx, studyId, userId, study)));
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
        // the first-item lease: the first event batch gives it the full lease (lib/responses/events.ts)
        leaseSeconds: Math.min(study.leaseSeconds, study.firstItemLeaseSeconds),
      });
      if ("id" in claim) return created(claim.id, "MAIN");
      if (claim.lost === "busy" && candidate.preferred) preferredBusy = true;
    }
  }
  return { status: "wait" };
}

/**
 * Both candidate searches for one participant, as nextAssignment would run them now (the fast
 * one is null when it cannot decide). For lib/assignment/rules.integration.test.ts, which checks
 * that they agree on random study states.
 */
export async function candidateSearchesForTest(studyId: string, userId: string): Promise<{ fast: Candidate[] | null; full: Candidate[] }> {
  return inTransaction(async (tx) => {
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
