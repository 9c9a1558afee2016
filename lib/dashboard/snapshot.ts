import "server-only";
import { LRUCache } from "lru-cache";
import { readDb } from "@/lib/db/read";
import { STREAM_BATCH_SIZE } from "@/lib/dashboard/constants";
import type { Tags } from "@/lib/dashboard/snapshot-utils";
import type { SnapshotItems, SnapshotResponses, StudySnapshot } from "@/lib/dashboard/types";
import { kindsNeedingKeys } from "@/lib/dashboard/agreement";
import { isTaskKind } from "@/lib/tasks";

/**
 * What every dashboard computation reads, loaded in one streaming pass: the study's non-practice
 * items (kind, tags) and their submitted responses, as compact columns. Only the columns the
 * computations use are selected; responses arrive in batches ordered by (item, annotator) through
 * the (studyId, itemId) index, so the responses of one item are contiguous. Events are never
 * loaded: event figures are SQL GROUP BYs (progress.ts, annotators.ts).
 */

export type { SnapshotItems, SnapshotResponses, StudySnapshot, Tags };
export { compareTagValues, tagValue } from "@/lib/dashboard/snapshot-utils";

/**
 * The study's data version: changes with every write that can change a figure (answers added,
 * re-scored or removed, items added or edited, assignments moved), kept by PostgreSQL triggers in
 * the same statement (StudyDataVersion, migration 20261127200500_study_data_version); one row read,
 * whatever the study's size. The time keeps versions apart across a restored or emptied database.
 */
export async function snapshotVersion(studyId: string): Promise<string> {
  const [row] = await readDb.$queryRaw<Array<{ version: bigint; changedAt: Date }>>`
    SELECT version, "changedAt" FROM "StudyDataVersion" WHERE "studyId" = ${studyId}`;
  return row ? `${row.version}:${row.changedAt.getTime()}` : "0";
}

/** Submitted answers of the study now (outside practice): what a stale snapshot is behind. */
export async function currentResponseCount(studyId: string): Promise<number> {
  const [row] = await readDb.$queryRaw<Array<{ responses: bigint }>>`
    SELECT count(*) AS responses FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."studyId" = ${studyId} AND a.purpose <> 'PRACTICE'`;
  return Number(row.responses);
}

async function loadItems(studyId: string): Promise<SnapshotItems> {
  const items: SnapshotItems = { keys: [], ids: [], externalIds: [], kinds: [], tags: [], index: new Map() };
  const kindRows = await readDb.$queryRaw<Array<{ kind: string }>>`SELECT DISTINCT kind FROM "Item" WHERE "studyId" = ${studyId}`;
  const keyKinds = kindsNeedingKeys(kindRows.map((r) => r.kind).filter(isTaskKind));
  let after = "";
  for (;;) {
    const batch = await readDb.$queryRaw<Array<{ id: string; externalId: string; kind: string; tags: Tags | null; key: unknown }>>`
      SELECT id, "externalId", kind, tags, CASE WHEN kind = ANY(${keyKinds}) THEN key END AS key FROM "Item"
      WHERE "studyId" = ${studyId} AND NOT practice AND id > ${after}
      ORDER BY id LIMIT ${STREAM_BATCH_SIZE}`;
    for (const row of batch) {
      items.keys.push(row.key ?? undefined);
      items.index.set(row.id, items.ids.length);
      items.ids.push(row.id);
      items.externalIds.push(row.externalId);
      items.kinds.push(row.kind);
      items.tags.push(row.tags && typeof row.tags === "object" ? row.tags : {});
    }
    if (batch.length < STREAM_BATCH_SIZE) break;
    after = batch[batch.length - 1].id;
  }
  return items;
}

class Growable {
  size = 0;
  constructor(
    public data: Float64Array = new Float64Array(1024),
  ) {}
  push(value: number) {
    if (this.size === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.size++] = value;
  }
  done(): Float64Array {
    return this.data.slice(0, this.size);
  }
}

interface ResponseRow {
  itemId: string;
  userId: string;
  agreement: boolean;
  correct: boolean;
  confidence: number;
  wallMs: number;
  activeMs: number;
  createdAt: number;
  score: string;
  answer: string;
}

/** Responses per query of the snapshot pass (larger than exports' batches: few columns, one reader). */
const SNAPSHOT_BATCH_SIZE = 10_000;

/** Loads a snapshot (use getSnapshot for the cached one). */
export async function loadSnapshot(studyId: string, version?: string): Promise<StudySnapshot> {
  const resolvedVersion = version ?? (await snapshotVersion(studyId));
  const items = await loadItems(studyId);
  const userIndex = new Map<string, number>();
  const userIds: string[] = [];
  const columns = { item: new Growable(), annotator: new Growable(), agreement: new Growable(), correct: new Growable(), confidence: new Growable(), wallMs: new Growable(), activeMs: new Growable(), createdAt: new Growable() };
  const score: unknown[] = [];
  const answer: unknown[] = [];
  let afterItem = "";
  let afterUser = "";
  for (;;) {
    // jsonb as text and times as epoch numbers: parsing them here is cheaper than the driver's
    // conversions; practice items are not in `items`, so their answers are skipped below
    const batch = await readDb.$queryRaw<ResponseRow[]>`
      SELECT a."itemId", a."userId", (a.purpose = 'AGREEMENT') AS agreement, r.correct, r.confidence, r."wallMs", r."activeMs",
             (extract(epoch FROM r."createdAt") * 1000)::float8 AS "createdAt", r.score::text AS score, r.answer::text AS answer
      FROM "Assignment" a
      JOIN "Response" r ON r."assignmentId" = a.id
      WHERE a."studyId" = ${studyId} AND a.purpose <> 'PRACTICE'
        AND (a."itemId", a."userId") > (${afterItem}, ${afterUser})
      ORDER BY a."itemId", a."userId"
      LIMIT ${SNAPSHOT_BATCH_SIZE}`;
    for (const row of batch) {
      const itemIndex = items.index.get(row.itemId);
      if (itemIndex === undefined) continue; // a practice item, or one added after the item pass
      let user = userIndex.get(row.userId);
      if (user === undefined) {
        user = userIds.length;
        userIndex.set(row.userId, user);
        userIds.push(row.userId);
      }
      columns.item.push(itemIndex);
      columns.annotator.push(user);
      columns.agreement.push(row.agreement ? 1 : 0);
      columns.correct.push(row.correct ? 1 : 0);
      columns.confidence.push(row.confidence);
      columns.wallMs.push(row.wallMs);
      columns.activeMs.push(row.activeMs);
      columns.createdAt.push(row.createdAt);
      score.push(JSON.parse(row.score));
      answer.push(JSON.parse(row.answer));
    }
    if (batch.length < SNAPSHOT_BATCH_SIZE) break;
    afterItem = batch[batch.length - 1].itemId;
    afterUser = batch[batch.length - 1].userId;
  }
  const users = userIds.length
    ? await readDb.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } })
    : [];
  const nameOf = new Map(users.map((u) => [u.id, u.name]));
  // annotators sorted by name; remap the response column to the sorted order
  const order = userIds.map((id, i) => ({ id, i, name: nameOf.get(id) ?? "(deleted user)" })).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const remap = new Int32Array(userIds.length);
  order.forEach((entry, sorted) => (remap[entry.i] = sorted));
  const annotatorColumn = Int32Array.from(columns.annotator.done(), (i) => remap[i]);
  return {
    studyId,
    version: resolvedVersion,
    loadedAt: Date.now(),
    items,
    annotators: order.map(({ id, name }) => ({ id, name })),
    responses: {
      count: score.length,
      item: Int32Array.from(columns.item.done()),
      annotator: annotatorColumn,
      agreement: Uint8Array.from(columns.agreement.done()),
      correct: Uint8Array.from(columns.correct.done()),
      confidence: columns.confidence.done(),
      wallMs: columns.wallMs.done(),
      activeMs: columns.activeMs.done(),
      createdAt: columns.createdAt.done(),
      score,
      answer,
    },
  };
}

const SNAPSHOT_CACHE_SIZE = 4;
const snapshotCache = new LRUCache<string, Promise<StudySnapshot>>({ max: SNAPSHOT_CACHE_SIZE });

/**
 * Large studies: from this many answers on, a snapshot may be served for up to
 * STALE_MAX_MS after newer answers arrived, so that a study in full swing (an answer every few
 * seconds) does not recompute every figure on every view. Small studies are always fresh.
 */
export const STALE_OK_RESPONSES = 5000;
export const STALE_MAX_MS = 60_000;

export interface SnapshotView {
  snapshot: StudySnapshot;
  /** the snapshot predates the data (large study, within STALE_MAX_MS) */
  stale: boolean;
  /** answers in the data now (stale snapshots hold fewer) */
  currentResponses: number;
}

const latest = new Map<string, StudySnapshot>();

/**
 * The study's snapshot, loaded once per data version and kept for the next request (a small
 * per-process cache: dashboards are read far more often than responses arrive in bulk). For large
 * studies a recent snapshot is served while newer answers arrive (see STALE_OK_RESPONSES).
 */
export async function getSnapshotView(studyId: string): Promise<SnapshotView> {
  const version = await snapshotVersion(studyId);
  const key = `${studyId}@${version}`;
  const previous = latest.get(studyId);
  if (previous && previous.version !== version && previous.responses.count >= STALE_OK_RESPONSES && Date.now() - previous.loadedAt < STALE_MAX_MS) {
    return { snapshot: previous, stale: true, currentResponses: await currentResponseCount(studyId) };
  }
  let pending = snapshotCache.get(key);
  if (!pending) {
    for (const existing of [...snapshotCache.keys()]) if (existing.startsWith(`${studyId}@`)) snapshotCache.delete(existing);
    pending = loadSnapshot(studyId, version);
    snapshotCache.set(key, pending);
    pending.then(
      (snapshot) => latest.set(studyId, snapshot),
      () => snapshotCache.delete(key),
    );
  }
  const snapshot = await pending;
  return { snapshot, stale: false, currentResponses: snapshot.responses.count };
}

/** The study's current snapshot (never stale). */
export async function getSnapshot(studyId: string): Promise<StudySnapshot> {
  const version = await snapshotVersion(studyId);
  const key = `${studyId}@${version}`;
  let pending = snapshotCache.get(key);
  if (!pending) {
    pending = loadSnapshot(studyId, version);
    snapshotCache.set(key, pending);
    pending.then(
      (snapshot) => latest.set(studyId, snapshot),
      () => snapshotCache.delete(key),
    );
  }
  return pending;
}

/** A memo of computed results per snapshot version and parameters (bounded). */
const RESULT_CACHE_SIZE = 64;
/** values boxed: lru-cache keeps no null or undefined, and a result may be either */
const resultCache = new LRUCache<string, { value: unknown }>({ max: RESULT_CACHE_SIZE });

export function memoize<T>(key: string, compute: () => T): T {
  const hit = resultCache.get(key);
  if (hit) return hit.value as T;
  const value = compute();
  resultCache.set(key, { value });
  return value;
}

/** Empties both caches (tests, the bench). */
export function clearDashboardCaches(): void {
  snapshotCache.clear();
  latest.clear();
  resultCache.clear();
}
