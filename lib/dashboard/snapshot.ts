import "server-only";
import { LRUCache } from "lru-cache";
import pLimit from "p-limit";
import { STREAM_BATCH_SIZE } from "@/lib/dashboard/constants";
import { annotatorsByName, CORRECTNESS_UNKNOWN, deepFreeze, NO_CONDITION, type Tags } from "@/lib/dashboard/snapshot-utils";
import type { SnapshotItems, SnapshotResponses, StudySnapshot } from "@/lib/dashboard/types";
import { kindsNeedingKeys } from "@/lib/dashboard/agreement";
import { isTaskKind } from "@/lib/tasks";
import { COPY_NULL, unescapeCopy } from "@/lib/db/copy";
import {
  countResponsesOutsidePractice,
  findItemKinds,
  findSnapshotItemsPage,
  findSnapshotResponsesPage,
  findSnapshotVersion,
  findUserNamesForSnapshot,
  readSnapshotByCopy,
  readStoredSnapshotRows,
  snapshotCopySupported,
} from "@/lib/repos/dashboard-snapshot";
import { readStoredSnapshot, snapshotStoreMinAnswers, storeSnapshot } from "@/lib/dashboard/snapshot-store";

/**
 * What every dashboard computation reads, loaded in one streaming pass: the study's non-practice
 * items (kind, tags) and their submitted responses, as compact columns. Only the columns the
 * computations use are selected; responses arrive ordered by (item, annotator), so the responses
 * of one item are contiguous. JSON values (tags, keys, scores, answers) are frozen and shared
 * between rows that stored the same text: never mutate them. Events are never loaded: event
 * figures are SQL GROUP BYs (progress.ts, annotators.ts).
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
  return (await findSnapshotVersion(studyId)) ?? "0";
}

/** Submitted answers of the study now (outside practice): what a stale snapshot is behind. */
export async function currentResponseCount(studyId: string): Promise<number> {
  return Number(await countResponsesOutsidePractice(studyId));
}

/** Distinct JSON texts a column keeps parsed during one load (emptied when full). */
const JSON_MEMO_SIZE = 8192;

/**
 * JSON.parse of a column's texts, each distinct text parsed once per load and its (frozen) value
 * shared by every row that holds it: a kind's scores take few shapes, and many answers and tags are
 * equal. Keyed by the text as it arrives (`decode` turns it into the JSON text, e.g. unescapeCopy).
 */
function jsonMemo(decode: (raw: string) => string = (raw) => raw): (raw: string) => unknown {
  const parsed = new Map<string, unknown>();
  return (raw) => {
    let value = parsed.get(raw);
    if (value === undefined) {
      value = deepFreeze(JSON.parse(decode(raw)) as unknown);
      if (parsed.size >= JSON_MEMO_SIZE) parsed.clear();
      parsed.set(raw, value);
    }
    return value;
  };
}

const NO_TAGS: Tags = Object.freeze({});

class Growable {
  size = 0;
  constructor(public data: Float64Array = new Float64Array(1024)) {}
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

/** The columns of a snapshot, filled item by item and then answer by answer, whichever way they are read. */
class SnapshotBuilder {
  readonly items: SnapshotItems = { keys: [], ids: [], externalIds: [], kinds: [], tags: [], index: new Map() };
  private readonly userIndex = new Map<string, number>();
  readonly userIds: string[] = [];
  private readonly conditionIndex = new Map<string, number>();
  private readonly conditions: string[] = [];
  private readonly columns = {
    item: new Growable(),
    annotator: new Growable(),
    agreement: new Growable(),
    condition: new Growable(),
    correct: new Growable(),
    confidence: new Growable(),
    wallMs: new Growable(),
    activeMs: new Growable(),
    createdAt: new Growable(),
  };
  private readonly score: unknown[] = [];
  private readonly answer: unknown[] = [];

  addItem(id: string, externalId: string, kind: string, tags: unknown, key: unknown) {
    const items = this.items;
    items.keys.push(key ?? undefined);
    items.index.set(id, items.ids.length);
    items.ids.push(id);
    items.externalIds.push(externalId);
    items.kinds.push(kind);
    items.tags.push(tags && typeof tags === "object" ? (tags as Tags) : NO_TAGS);
  }

  /** `item`: the index of the answer's item in `items` */
  addResponse(
    item: number,
    userId: string,
    agreement: boolean,
    condition: string | null,
    correct: boolean | null,
    confidence: number,
    wallMs: number,
    activeMs: number,
    createdAt: number,
    score: unknown,
    answer: unknown,
  ) {
    let user = this.userIndex.get(userId);
    if (user === undefined) {
      user = this.userIds.length;
      this.userIndex.set(userId, user);
      this.userIds.push(userId);
    }
    let conditionAt = NO_CONDITION;
    if (condition !== null) {
      const known = this.conditionIndex.get(condition);
      if (known !== undefined) conditionAt = known;
      else {
        conditionAt = this.conditions.length;
        this.conditionIndex.set(condition, conditionAt);
        this.conditions.push(condition);
      }
    }
    const columns = this.columns;
    columns.item.push(item);
    columns.annotator.push(user);
    columns.agreement.push(agreement ? 1 : 0);
    columns.condition.push(conditionAt);
    columns.correct.push(correct === null ? CORRECTNESS_UNKNOWN : correct ? 1 : 0);
    columns.confidence.push(confidence);
    columns.wallMs.push(wallMs);
    columns.activeMs.push(activeMs);
    columns.createdAt.push(createdAt);
    this.score.push(score);
    this.answer.push(answer);
  }

  /** `nameOf`: the annotators' names (a user missing from it was deleted meanwhile) */
  done(studyId: string, version: string, nameOf: Map<string, string>): StudySnapshot {
    const { columns, userIds } = this;
    const { annotators, annotator: annotatorColumn } = annotatorsByName(userIds, columns.annotator.done(), nameOf);
    return {
      studyId,
      version,
      loadedAt: Date.now(),
      items: this.items,
      annotators,
      conditions: this.conditions,
      responses: {
        count: this.score.length,
        item: Int32Array.from(columns.item.done()),
        annotator: annotatorColumn,
        agreement: Uint8Array.from(columns.agreement.done()),
        condition: Int32Array.from(columns.condition.done()),
        correct: Uint8Array.from(columns.correct.done()),
        confidence: columns.confidence.done(),
        wallMs: columns.wallMs.done(),
        activeMs: columns.activeMs.done(),
        createdAt: columns.createdAt.done(),
        score: this.score,
        answer: this.answer,
      },
    };
  }
}

/** The kinds whose answer keys the snapshot loads (their agreement encodings need them). */
function keyKindsOf(kinds: string[]): string[] {
  return kindsNeedingKeys(kinds.filter(isTaskKind));
}

/** Responses per query of the keyset pass (larger than exports' batches: few columns, one reader). */
const SNAPSHOT_BATCH_SIZE = 10_000;

/**
 * The snapshot read in keyset-paged queries through Prisma: PGlite's path (it answers a statement
 * whole, so one COPY would be held in memory), and the reference the COPY pass is tested against.
 */
async function loadByKeyset(studyId: string, version: string): Promise<StudySnapshot> {
  const snapshot = new SnapshotBuilder();
  const tagsOf = jsonMemo();
  const keyOf = jsonMemo();
  const scoreOf = jsonMemo();
  const answerOf = jsonMemo();
  const keyKinds = keyKindsOf(await findItemKinds(studyId));
  let after = "";
  for (;;) {
    const batch = await findSnapshotItemsPage(studyId, keyKinds, after, STREAM_BATCH_SIZE);
    for (const row of batch) snapshot.addItem(row.id, row.externalId, row.kind, tagsOf(row.tags), row.key === null ? undefined : keyOf(row.key));
    if (batch.length < STREAM_BATCH_SIZE) break;
    after = batch[batch.length - 1].id;
  }
  const itemIndex = snapshot.items.index;
  let afterItem = "";
  let afterUser = "";
  for (;;) {
    // practice items are not in `items`, so their answers are skipped below
    const batch = await findSnapshotResponsesPage(studyId, afterItem, afterUser, SNAPSHOT_BATCH_SIZE);
    for (const row of batch) {
      const item = itemIndex.get(row.itemId);
      if (item === undefined) continue; // a practice item, or one added after the item pass
      snapshot.addResponse(
        item,
        row.userId,
        row.agreement,
        row.condition,
        row.correct,
        row.confidence,
        row.wallMs,
        row.activeMs,
        row.createdAt,
        scoreOf(row.score),
        answerOf(row.answer),
      );
    }
    if (batch.length < SNAPSHOT_BATCH_SIZE) break;
    afterItem = batch[batch.length - 1].itemId;
    afterUser = batch[batch.length - 1].userId;
  }
  const userIds = snapshot.userIds;
  const users = userIds.length ? await findUserNamesForSnapshot(userIds) : [];
  return snapshot.done(studyId, version, new Map(users.map((u) => [u.id, u.name])));
}

/** A text field of COPY's text format, or null (\\N). */
function copyText(field: string): string | null {
  return field === COPY_NULL ? null : unescapeCopy(field);
}

/** A boolean field of COPY's text format: "t", "f", or null (\\N). */
function copyBoolean(field: string): boolean | null {
  return field === COPY_NULL ? null : field === "t";
}

/** The fields of a line of COPY's text format, read left to right (cheaper than splitting 500,000 lines). */
class CopyFields {
  private line = "";
  private at = 0;
  constructor(private readonly count: number) {}
  of(line: string): this {
    this.line = line;
    this.at = 0;
    return this;
  }
  next(): string {
    const end = this.line.indexOf("\t", this.at);
    if (end < 0) throw new Error(`COPY row with fewer than ${this.count} fields`);
    const field = this.line.slice(this.at, end);
    this.at = end + 1;
    return field;
  }
  last(): string {
    if (this.line.indexOf("\t", this.at) >= 0) throw new Error(`COPY row with more than ${this.count} fields`);
    return this.line.slice(this.at);
  }
}

/**
 * The snapshot read by two `COPY (SELECT ...) TO STDOUT` (items, then answers in (item, annotator)
 * order) parsed here from PostgreSQL's text format, in one read-only REPEATABLE READ transaction, so
 * that items, answers and names are of one moment. One query per table, where keyset pages left
 * this process idle while the server joined, sorted and limited each page: the server sorts once
 * and streams the rows while they are parsed here. Numbers arrive as the shortest round-trip
 * digits (readPool's extra_float_digits).
 */
async function loadByCopy(studyId: string, version: string): Promise<{ snapshot: StudySnapshot; ofVersion: boolean }> {
  const snapshot = new SnapshotBuilder();
  const tagsOf = jsonMemo(unescapeCopy);
  const keyOf = jsonMemo(unescapeCopy);
  const scoreOf = jsonMemo(unescapeCopy);
  const answerOf = jsonMemo(unescapeCopy);
  return readSnapshotByCopy(studyId, async (reads) => {
    // the data read is of `version` only when the version read in this transaction is it (a write may have come between)
    const ofVersion = ((await reads.version()) ?? "0") === version;
    const keyKinds = keyKindsOf(await reads.itemKinds());
    const item = new CopyFields(5);
    await reads.copyItems(keyKinds, (line) => {
      const fields = item.of(line);
      const [id, externalId, kind, tags, keyText] = [fields.next(), fields.next(), fields.next(), fields.next(), fields.last()];
      snapshot.addItem(unescapeCopy(id), unescapeCopy(externalId), unescapeCopy(kind), tagsOf(tags), keyText === COPY_NULL ? undefined : keyOf(keyText));
    });
    const itemIndex = snapshot.items.index;
    // an item's answers are contiguous: its id is looked up once
    const response = new CopyFields(11);
    let lastItemRaw: string | null = null;
    let lastItem: number | undefined;
    await reads.copyResponses((line) => {
      const fields = response.of(line);
      const itemId = fields.next();
      if (itemId !== lastItemRaw) {
        lastItemRaw = itemId;
        lastItem = itemIndex.get(unescapeCopy(itemId));
      }
      if (lastItem === undefined) return; // a practice item
      // (arguments are evaluated left to right: the fields in their order)
      snapshot.addResponse(
        lastItem,
        unescapeCopy(fields.next()),
        fields.next() === "t",
        copyText(fields.next()),
        copyBoolean(fields.next()),
        Number(fields.next()),
        Number(fields.next()),
        Number(fields.next()),
        Number(fields.next()),
        scoreOf(fields.next()),
        answerOf(fields.last()),
      );
    });
    const users = await reads.userNames(snapshot.userIds);
    return { snapshot: snapshot.done(studyId, version, new Map(users.map((u) => [u.id, u.name]))), ofVersion };
  });
}

/** The kinds, of those of the snapshot's items, whose keys a snapshot holds: a stored one whose differ (other code) is read anew. */
function storedKeyKinds(itemKinds: string[]): string[] {
  return [...new Set(keyKindsOf([...new Set(itemKinds)]))].sort();
}

/** The study's snapshot as stored for this version (snapshot-store.ts), or null; annotators' names are read now (names are never stored: a renamed annotator shows the new name). */
async function loadStored(studyId: string, version: string): Promise<StudySnapshot | null> {
  try {
    return await readStoredSnapshotRows(studyId, (reads) =>
      readStoredSnapshot(reads, studyId, version, storedKeyKinds, async (userIds) => new Map((await reads.userNames(userIds)).map((u) => [u.id, u.name]))),
    );
  } catch (error) {
    console.error(
      `dashboard snapshot of study ${studyId}: the stored snapshot could not be read, reading the answers:`,
      error instanceof Error ? error.message : error,
    );
    return null;
  }
}

/**
 * Background stores, one at a time per process (each holds a connection for its transaction, and
 * several large studies read at once must not take the pool), each after the request that read it.
 */
const storeQueue = pLimit(1);

/** Stores made in the background and not finished yet (the bench and tests wait for them). */
const pendingStores = new Set<Promise<unknown>>();

/** Waits for the snapshots being stored in the background. */
export async function snapshotStoresSettled(): Promise<void> {
  while (pendingStores.size) await Promise.allSettled([...pendingStores]);
}

/** Stores a snapshot for its version (false when a value would not come back the same). */
export function storeLoadedSnapshot(snapshot: StudySnapshot): Promise<boolean> {
  return storeSnapshot(snapshot, storedKeyKinds(snapshot.items.kinds));
}

/** Stores a large study's snapshot read from its answers, after the request that read it (its figures do not wait). */
function storeInBackground(snapshot: StudySnapshot): void {
  if (snapshot.responses.count < snapshotStoreMinAnswers() || snapshot.version === "0") return;
  const pending = storeQueue(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return storeLoadedSnapshot(snapshot);
  })
    .catch((error: unknown) => console.error(`dashboard snapshot of study ${snapshot.studyId}: not stored:`, error instanceof Error ? error.message : error))
    .finally(() => pendingStores.delete(pending));
  pendingStores.add(pending);
}

/**
 * Loads a snapshot (use getSnapshot for the cached one). On PostgreSQL: the one stored for this
 * version when there is one (snapshot-store.ts), else by COPY, storing a large study's in the
 * background; on PGlite (which answers a statement whole) in keyset pages. `via` chooses (tests).
 */
export async function loadSnapshot(studyId: string, version?: string, via?: "copy" | "keyset" | "stored"): Promise<StudySnapshot> {
  const resolvedVersion = version ?? (await snapshotVersion(studyId));
  const copy = via ? via !== "keyset" : await snapshotCopySupported();
  if (!copy) return loadByKeyset(studyId, resolvedVersion);
  if (via !== "copy") {
    const stored = await loadStored(studyId, resolvedVersion);
    if (stored || via === "stored") {
      if (!stored) throw new Error(`no snapshot of study ${studyId} is stored for version ${resolvedVersion}`);
      return stored;
    }
  }
  const { snapshot, ofVersion } = await loadByCopy(studyId, resolvedVersion);
  if (via === undefined && ofVersion) storeInBackground(snapshot);
  return snapshot;
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
