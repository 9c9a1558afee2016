import "server-only";
import { hash } from "node:crypto";
import type { Candidate, StudyState } from "@/lib/assignment/types";
import type { Tx } from "@/lib/db/client-types";
import { CANDIDATES_PER_GROUP } from "@/lib/assignment/limits";
import { processCache } from "@/lib/assignment/process-cache";
import { sqlNow } from "@/lib/db/sql";
import { reviewExcludedItemFilter } from "@/lib/review/exclusion";

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
/** An order is 4 bytes an item (400 kB at 100,000 items): the orders of a process share this many bytes. */
const MAX_ORDER_BYTES = 256 * 1024 * 1024;
/** md5s computed between two yields to the event loop while a participant's order is made ahead of its transaction */
const HASHES_PER_SLICE = 4096;

interface StudyItems {
  version: string;
  /** the item list's identity (the md5 orders depend on the ids only, not on flags or tags) */
  fingerprint: string;
  ids: string[];
  tags: Array<Record<string, unknown>>;
}

const studyItemsCache = processCache<StudyItems>("study-items", { max: MAX_CACHED_STUDIES, ttl: ITEMS_TTL_MS });
const itemOrderCache = processCache<Uint32Array>("item-orders", { max: MAX_CACHED_ORDERS, maxSize: MAX_ORDER_BYTES, sizeCalculation: (order) => Math.max(1, order.byteLength) });

// Read inside the caller's transaction: the embedded database (PGlite) is one session for every
// connection, so a query on another connection while a transaction is open breaks both.
async function studyItems(tx: Tx, studyId: string, version: string): Promise<StudyItems> {
  const cached = studyItemsCache.get(studyId);
  if (cached && cached.version === version) return cached;
  const rows = await tx.$queryRaw<Array<{ id: string; tags: unknown }>>`
    SELECT i.id, i.tags FROM "Item" i WHERE i."studyId" = ${studyId} AND NOT i.practice AND NOT i.gold ORDER BY i."createdAt", i."externalId"`;
  const ids = rows.map((row) => row.id);
  const items: StudyItems = {
    version,
    fingerprint: `${version}|${ids.length}|${ids[0] ?? ""}|${ids.at(-1) ?? ""}|${md5Hex(ids.join(","))}`,
    ids,
    tags: rows.map((row) => (row.tags && typeof row.tags === "object" && !Array.isArray(row.tags) ? (row.tags as Record<string, unknown>) : {})),
  };
  studyItemsCache.set(studyId, items);
  return items;
}

// crypto.hash: one call per text, about a third of createHash().update().digest()'s time (100,000 items: 80 ms against 240 ms)
const md5Hex = (text: string) => hash("md5", text, "hex");

/** The items sorted by their hashes, then id: md5(userId:itemId) order, as in SQL. */
function sortedByHash(items: StudyItems, hashes: readonly string[]): Uint32Array {
  // the first 12 hex digits as a number decide almost every comparison; equal ones fall back to the whole hash, then the id
  const leading = Float64Array.from(hashes, (text) => parseInt(text.slice(0, 12), 16));
  return Uint32Array.from(items.ids.keys()).sort(
    (a, b) => leading[a] - leading[b] || (hashes[a] < hashes[b] ? -1 : hashes[a] > hashes[b] ? 1 : items.ids[a] < items.ids[b] ? -1 : items.ids[a] > items.ids[b] ? 1 : 0),
  );
}

const orderKey = (studyId: string, items: StudyItems, userId: string) => `${studyId}|${items.fingerprint}|${userId}`;

/** The participant's order of the items (indexes into `items.ids`): md5(userId:itemId), then id, as in SQL. */
function itemOrder(studyId: string, items: StudyItems, userId: string): Uint32Array {
  const key = orderKey(studyId, items, userId);
  const cached = itemOrderCache.get(key);
  if (cached) return cached;
  const order = sortedByHash(items, items.ids.map((id) => md5Hex(`${userId}:${id}`)));
  itemOrderCache.set(key, order);
  return order;
}

/**
 * Makes the participant's order of a study's items ahead of their next-item transaction, from the
 * item list this process has (nothing when it has none yet), yielding to the event loop between
 * slices of hashes: a large study's first order (100,000 items: about 100 ms of md5s) then holds
 * neither a database connection nor the process. The transaction finds it in the cache, or makes
 * it itself when the item list changed meanwhile.
 */
export async function prepareItemOrder(studyId: string, userId: string): Promise<void> {
  const items = studyItemsCache.get(studyId);
  if (!items || items.ids.length <= HASHES_PER_SLICE || itemOrderCache.has(orderKey(studyId, items, userId))) return;
  const hashes: string[] = new Array(items.ids.length);
  for (let start = 0; start < items.ids.length; start += HASHES_PER_SLICE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const end = Math.min(items.ids.length, start + HASHES_PER_SLICE);
    for (let i = start; i < end; i++) hashes[i] = md5Hex(`${userId}:${items.ids[i]}`);
  }
  itemOrderCache.set(orderKey(studyId, items, userId), sortedByHash(items, hashes));
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
export async function fastCandidates(tx: Tx, studyId: string, userId: string, study: StudyState, had: ReadonlySet<string>, allowed: Array<string | null>): Promise<Candidate[] | null> {
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
        count(*) FILTER (WHERE NOT (a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" < ${sqlNow}))::int AS n,
        bool_or(a.status IN ('ASSIGNED', 'STARTED') AND a."leaseExpiresAt" < ${sqlNow}) AS expired
      FROM "Assignment" a
      WHERE a."itemId" = i.id AND a.purpose = 'MAIN' AND a.status <> 'RELEASED' AND NOT a.agent
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
