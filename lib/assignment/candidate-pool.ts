import "server-only";
import { hash } from "node:crypto";
import type { Candidate, StudyState } from "@/lib/assignment/types";
import type { Tx } from "@/lib/db/client-types";
import { CANDIDATES_PER_GROUP } from "@/lib/assignment/limits";
import { orderKeyText, participantPermutation, rankOrder, walkParticipantOrder, type ParticipantPermutation } from "@/lib/assignment/participant-order";
import { processCache } from "@/lib/assignment/process-cache";
import { findOrdinaryCandidates, listOrdinaryItems, readPoolPlaces } from "@/lib/repos/assignments";

// --- the fast candidate search ------------------------------------------------------------------
//
// The full search ranks every item by the participant's order key (participant-order.ts) and
// counts the places of the whole study on every request. The fast search keeps the study's
// ordinary items (id, import order, tags) and their shared rank order in memory, walks the
// participant's order in JavaScript (no hash per item), and asks the database only about a small
// pool: the participant's next few items per (condition, balance value) group, one indexed query.
// It gives exactly the full search's top candidates of every group, or says it cannot tell (a
// group whose pool has too few free items while more items lie beyond it), and then the full
// search runs. The database stays the authority: the pool query re-reads the items' flags,
// review exclusions and places, and claims re-count under the lock. The item list is reloaded
// when the study's batches change and at least every 30 s (item flags and tags edited in place).

const ITEMS_TTL_MS = 30_000;
/** Items per group and kind (any / preferred in a condition) in the pool. */
const POOL_PER_GROUP = 6;
const MAX_CACHED_STUDIES = 64;
interface StudyItems {
  version: string;
  /** the item list's identity */
  fingerprint: string;
  /** md5 of the ids in import order: the rank order depends on the ids only, not on flags, tags or the batches' times */
  idsHash: string;
  ids: string[];
  /** per balance tag, the number of distinct values among the items (filled on first use) */
  balanceCounts: Map<string | null, number>;
  tags: Array<Record<string, unknown>>;
}

const studyItemsCache = processCache<StudyItems>("study-items", { max: MAX_CACHED_STUDIES, ttl: ITEMS_TTL_MS });
/** a study's items by rank (participant-order.ts), per item list: 4 bytes an item */
const rankOrderCache = processCache<Uint32Array>("item-rank-orders", { max: MAX_CACHED_STUDIES });

// Read inside the caller's transaction (lib/repos/assignments.ts listOrdinaryItems says why).
async function studyItems(tx: Tx, studyId: string, version: string): Promise<StudyItems> {
  const cached = studyItemsCache.get(studyId);
  if (cached && cached.version === version) return cached;
  const rows = await listOrdinaryItems(tx, studyId);
  const ids = rows.map((row) => row.id);
  const idsHash = md5Hex(ids.join(","));
  const items: StudyItems = {
    version,
    fingerprint: `${version}|${ids.length}|${ids[0] ?? ""}|${ids.at(-1) ?? ""}|${idsHash}`,
    idsHash,
    ids,
    balanceCounts: new Map(),
    tags: rows.map((row) => (row.tags && typeof row.tags === "object" && !Array.isArray(row.tags) ? (row.tags as Record<string, unknown>) : {})),
  };
  studyItemsCache.set(studyId, items);
  return items;
}

// crypto.hash: one call per text, about a third of createHash().update().digest()'s time (100,000 items: 80 ms against 240 ms)
const md5Hex = (text: string) => hash("md5", text, "hex");

const rankKey = (studyId: string, items: StudyItems) => `${studyId}|${items.idsHash}`;

/**
 * The study's items in rank order (participant-order.ts), made once per list of item ids and
 * process (100,000 items: about 100 ms of md5s, on the first request after an import; reloads of
 * the same ids reuse it).
 */
function itemsByRank(studyId: string, items: StudyItems): Uint32Array {
  const key = rankKey(studyId, items);
  const cached = rankOrderCache.get(key);
  if (cached) return cached;
  const order = rankOrder(items.ids);
  rankOrderCache.set(key, order);
  return order;
}

/** The participant's permutation of a study's item list (participant-order.ts). */
async function participantOrderOf(tx: Tx, studyId: string, userId: string, itemsVersion: string): Promise<ParticipantPermutation> {
  const items = await studyItems(tx, studyId, itemsVersion);
  return participantPermutation(userId, items.ids.length);
}

/** The full search: every ordinary item of the study, in SQL (the fallback of `fastCandidates`), in the participant's order as the fast search walks it. */
export async function ordinaryCandidates(tx: Tx, studyId: string, userId: string, study: StudyState): Promise<Candidate[]> {
  return findOrdinaryCandidates(tx, studyId, userId, study, await participantOrderOf(tx, studyId, userId, study.itemsVersion));
}

/** How many balance values the study's items have for the tag (1 without a tag), counted once per item list and tag. */
function balanceValueCount(items: StudyItems, tag: string | null): number {
  const known = items.balanceCounts.get(tag);
  if (known !== undefined) return known;
  const count = tag === null ? 1 : new Set(items.tags.map((tags) => balanceValue(tags, tag))).size;
  items.balanceCounts.set(tag, count);
  return count;
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
export async function fastCandidates(
  tx: Tx,
  studyId: string,
  userId: string,
  study: StudyState,
  had: ReadonlySet<string>,
  allowed: Array<string | null>,
): Promise<Candidate[] | null> {
  const items = await studyItems(tx, studyId, study.itemsVersion);
  const byRank = itemsByRank(studyId, items);
  const permutation = participantPermutation(userId, items.ids.length);
  const keyOf = new Map<number, number>();
  const conditionCount = Math.max(1, study.conditions.length);
  const conditionIndex = (condition: string | null) => (condition === null ? 0 : study.conditions.indexOf(condition));
  const allowedIndexes = allowed.map(conditionIndex);
  const isPreferred = (index: number, conditionIdx: number) => (index + study.participantIndex) % conditionCount === conditionIdx;

  const groups = new Map<string, PoolGroup>();
  // the walk ends once every balance value's group is full and known to go on past its pool
  const groupCount = balanceValueCount(items, study.balanceTag);
  let saturated = 0;
  const isSaturated = (group: PoolGroup) => group.anyTruncated && group.preferredTruncated.size === allowedIndexes.length;
  walkParticipantOrder(byRank, permutation, (index, key) => {
    if (had.has(items.ids[index])) return;
    const balance = balanceValue(items.tags[index], study.balanceTag);
    let group = groups.get(balance);
    if (!group)
      groups.set(balance, (group = { any: [], anyTruncated: false, preferred: new Map(allowedIndexes.map((c) => [c, []])), preferredTruncated: new Set() }));
    else if (isSaturated(group)) return;
    if (group.any.length < POOL_PER_GROUP) {
      group.any.push(index);
      keyOf.set(index, key);
    } else group.anyTruncated = true;
    for (const c of allowedIndexes) {
      if (!isPreferred(index, c)) continue;
      const list = group.preferred.get(c)!;
      if (list.length < POOL_PER_GROUP) {
        list.push(index);
        keyOf.set(index, key);
      } else group.preferredTruncated.add(c);
    }
    if (isSaturated(group) && ++saturated === groupCount) return false;
  });
  const pool = new Set<number>();
  for (const group of groups.values()) {
    for (const index of group.any) pool.add(index);
    for (const list of group.preferred.values()) for (const index of list) pool.add(index);
  }
  if (pool.size === 0) return [];

  const rows = await readPoolPlaces(
    tx,
    studyId,
    [...pool].map((index) => items.ids[index]),
  );
  const eligible = new Set(rows.filter((row) => row.eligible).map((row) => row.itemId));
  const places = new Map(
    rows.filter((row) => row.n !== null).map((row) => [`${row.itemId}|${row.condition ?? ""}`, { n: row.n ?? 0, expired: row.expired === true }]),
  );
  const free = (index: number, condition: string | null) =>
    eligible.has(items.ids[index]) && (places.get(`${items.ids[index]}|${condition ?? ""}`)?.n ?? 0) < study.overlap;

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
          hash: orderKeyText(keyOf.get(index)!),
          expired: places.get(`${itemId}|${condition ?? ""}`)?.expired ?? false,
          base: null,
          available: -1,
        });
      });
    }
  }
  return candidates;
}
