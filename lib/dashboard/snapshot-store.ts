import "server-only";
import os from "node:os";
import zlib from "node:zlib";
import { writeStoredSnapshot, type StoredSnapshotReads } from "@/lib/repos/dashboard-snapshot";
import { tunableFromEnv } from "@/lib/dashboard/constants";
import { annotatorsByName, deepFreeze, type Tags } from "@/lib/dashboard/snapshot-utils";
import type { StudySnapshot } from "@/lib/dashboard/types";

/**
 * A large study's snapshot kept in PostgreSQL in compact form (DashboardSnapshot), for the data
 * version it was read at: a process that holds nothing (another instance, the job worker, a
 * restarted server) reads these few megabytes instead of joining and parsing every answer again.
 * The row is only ever read at its exact version: a study whose data moved on reads its answers
 * anew (and stores that snapshot in turn). Annotators' names are read fresh, never stored.
 *
 * Layout, compressed by brotli (quality 3: a fifth of a second to write 20 MB, a tenth to read, and
 * two fifths of the bytes to move): a u32 (little-endian) header length, the header as JSON (items,
 * JSON texts, annotator ids, column layouts), then each response column packed (see packColumn).
 * The row is split in parts of PART_BYTES: pg reads one very large value slowly.
 */

/** The layout of DashboardSnapshot.data; a row in another layout is read as no row. */
export const SNAPSHOT_STORE_FORMAT = 3;
const PART_BYTES = 1 << 20;

/** Answers from which a study's snapshot is stored (YARDSTICK_SNAPSHOT_STORE_MIN_ANSWERS): below, reading it anew is as quick. */
export function snapshotStoreMinAnswers(): number {
  return tunableFromEnv("YARDSTICK_SNAPSHOT_STORE_MIN_ANSWERS", 5000, { integer: true });
}

type ColumnLayout = { as: "uint"; width: 1 | 2 | 4; delta: boolean } | { as: "dict"; size: number; width: 1 | 2 } | { as: "f64" };

interface Header {
  format: number;
  endianness: string;
  studyId: string;
  version: string;
  /** the kinds whose keys were read (a change of code that reads other keys reads anew) */
  keyKinds: string[];
  count: number;
  /** annotator ids in the stored column's order */
  userIds: string[];
  /** the study conditions the condition column indexes (stored as index + 1, 0 for none) */
  conditions: string[];
  kinds: string[];
  items: { ids: string[]; externalIds: string[]; kind: number[]; tags: number[]; key: number[] };
  /** every distinct JSON value (tags, keys, scores, answers), as the text it round-trips through */
  texts: string[];
  columns: Record<ResponseColumn, ColumnLayout>;
}

const RESPONSE_COLUMNS = [
  "item",
  "annotator",
  "agreement",
  "condition",
  "correct",
  "confidence",
  "wallMs",
  "activeMs",
  "createdAt",
  "score",
  "answer",
] as const;
type ResponseColumn = (typeof RESPONSE_COLUMNS)[number];

const widthFor = (max: number): 1 | 2 | 4 => (max < 0x100 ? 1 : max < 0x10000 ? 2 : 4);

/** The smallest exact layout of a column: unsigned integers (as deltas when sorted), a dictionary of few values, or doubles. */
function layoutOf(values: ArrayLike<number>, sorted: boolean): ColumnLayout {
  let integers = true;
  let max = 0;
  let maxDelta = 0;
  let ascending = sorted;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!(Number.isInteger(v) && v >= 0 && v <= 0xffffffff) || Object.is(v, -0)) {
      integers = false;
      break;
    }
    if (v > max) max = v;
    if (ascending && i > 0) {
      if (v < values[i - 1]) ascending = false;
      else if (v - values[i - 1] > maxDelta) maxDelta = v - values[i - 1];
    }
  }
  if (integers)
    return ascending && values.length > 0 && widthFor(maxDelta) < widthFor(max)
      ? { as: "uint", width: widthFor(maxDelta), delta: true }
      : { as: "uint", width: widthFor(max), delta: false };
  // a Map would count -0 as 0: doubles' bit patterns are the keys
  const bits = new BigUint64Array(new Float64Array(values).buffer);
  const distinct = new Set<bigint>();
  for (const b of bits) {
    distinct.add(b);
    if (distinct.size > 0x10000) return { as: "f64" };
  }
  return { as: "dict", size: distinct.size, width: distinct.size <= 0x100 ? 1 : 2 };
}

function packColumn(values: ArrayLike<number>, layout: ColumnLayout): Uint8Array {
  if (layout.as === "f64") return new Uint8Array(Float64Array.from(values).buffer);
  if (layout.as === "uint") {
    const packed = layout.width === 1 ? new Uint8Array(values.length) : layout.width === 2 ? new Uint16Array(values.length) : new Uint32Array(values.length);
    for (let i = 0; i < values.length; i++) packed[i] = layout.delta && i > 0 ? values[i] - values[i - 1] : values[i];
    return new Uint8Array(packed.buffer);
  }
  const doubles = Float64Array.from(values);
  const bits = new BigUint64Array(doubles.buffer);
  const index = new Map<bigint, number>();
  const dictionary: number[] = [];
  const packed = layout.width === 1 ? new Uint8Array(values.length) : new Uint16Array(values.length);
  for (let i = 0; i < bits.length; i++) {
    let at = index.get(bits[i]);
    if (at === undefined) {
      at = dictionary.length;
      index.set(bits[i], at);
      dictionary.push(doubles[i]);
    }
    packed[i] = at;
  }
  const out = new Uint8Array(dictionary.length * 8 + packed.byteLength);
  out.set(new Uint8Array(Float64Array.from(dictionary).buffer), 0);
  out.set(new Uint8Array(packed.buffer), dictionary.length * 8);
  return out;
}

/** Bytes of a packed column of `count` values. */
function packedBytes(layout: ColumnLayout, count: number): number {
  if (layout.as === "f64") return count * 8;
  if (layout.as === "uint") return count * layout.width;
  return layout.size * 8 + count * layout.width;
}

/** Copies bytes into a fresh typed array (the stored bytes need not be aligned). */
function copyOut<T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(make: (length: number) => T, bytes: Uint8Array, length: number): T {
  const out = make(length);
  new Uint8Array(out.buffer).set(bytes.subarray(0, out.byteLength));
  return out;
}

/** A packed column's values into `out` (of its length: a Float64Array, or an integer array for a column of integers). */
function unpackColumn<T extends Float64Array | Int32Array | Uint8Array>(bytes: Uint8Array, layout: ColumnLayout, out: T): T {
  const count = out.length;
  if (layout.as === "f64") {
    const doubles = copyOut((n) => new Float64Array(n), bytes, count);
    if (out instanceof Float64Array) return doubles as T;
    out.set(doubles);
    return out;
  }
  if (layout.as === "uint") {
    const packed =
      layout.width === 1
        ? bytes.subarray(0, count)
        : layout.width === 2
          ? copyOut((n) => new Uint16Array(n), bytes, count)
          : copyOut((n) => new Uint32Array(n), bytes, count);
    if (layout.delta) for (let i = 0, sum = 0; i < count; i++) out[i] = sum += packed[i];
    else out.set(packed);
    return out;
  }
  const dictionary = copyOut((n) => new Float64Array(n), bytes, layout.size);
  const rest = bytes.subarray(layout.size * 8);
  const packed = layout.width === 1 ? rest.subarray(0, count) : copyOut((n) => new Uint16Array(n), rest, count);
  for (let i = 0; i < count; i++) out[i] = dictionary[packed[i]];
  return out;
}

/** The text a JSON value is stored as, or null when it does not round-trip (a number JSON cannot hold: ±Infinity, NaN). */
function exactText(value: unknown): string | null {
  let exact = true;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "number" && !Number.isFinite(v)) exact = false;
    return v;
  });
  return exact && text !== undefined ? text : null;
}

/** The snapshot in stored form, or null when a value would not come back the same. */
export function encodeSnapshot(snapshot: StudySnapshot, keyKinds: string[]): Uint8Array | null {
  const texts: string[] = [];
  const textIndex = new Map<unknown, number>();
  let exact = true;
  const textOf = (value: unknown): number => {
    if (value === undefined) return -1;
    let at = textIndex.get(value);
    if (at === undefined) {
      const text = exactText(value);
      if (text === null) exact = false;
      at = texts.length;
      texts.push(text ?? "null");
      textIndex.set(value, at);
    }
    return at;
  };
  const { items, responses } = snapshot;
  const kinds = [...new Set(items.kinds)];
  const kindIndex = new Map(kinds.map((kind, i) => [kind, i]));
  const header: Omit<Header, "columns"> = {
    format: SNAPSHOT_STORE_FORMAT,
    endianness: os.endianness(),
    studyId: snapshot.studyId,
    version: snapshot.version,
    keyKinds,
    count: responses.count,
    userIds: snapshot.annotators.map((a) => a.id),
    conditions: snapshot.conditions,
    kinds,
    items: {
      ids: items.ids,
      externalIds: items.externalIds,
      kind: items.kinds.map((kind) => kindIndex.get(kind)!),
      tags: items.tags.map(textOf),
      key: items.keys.map(textOf),
    },
    texts,
  };
  const score = Float64Array.from(responses.score, textOf);
  const answer = Float64Array.from(responses.answer, textOf);
  if (!exact) return null;
  // conditions as unsigned integers: none (-1) is 0
  const condition = Float64Array.from(responses.condition, (index) => index + 1);
  const sources: Record<ResponseColumn, ArrayLike<number>> = { ...responses, condition, score, answer };
  const columns = {} as Record<ResponseColumn, ColumnLayout>;
  for (const name of RESPONSE_COLUMNS) columns[name] = layoutOf(sources[name], name === "item");
  const head = Buffer.from(JSON.stringify({ ...header, columns } satisfies Header), "utf8");
  const packed = RESPONSE_COLUMNS.map((name) => packColumn(sources[name], columns[name]));
  const out = new Uint8Array(4 + head.byteLength + packed.reduce((sum, p) => sum + p.byteLength, 0));
  new DataView(out.buffer).setUint32(0, head.byteLength, true);
  out.set(head, 4);
  let at = 4 + head.byteLength;
  for (const p of packed) {
    out.set(p, at);
    at += p.byteLength;
  }
  return zlib.brotliCompressSync(out, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: out.byteLength } });
}

/**
 * The snapshot back from its stored form: null when it is of another layout, study, version or
 * set of key kinds. `nameOf`: the annotators' names now (a user missing from it was deleted).
 */
export function decodeSnapshot(
  stored: Uint8Array,
  expect: { studyId: string; version: string; keyKindsOf: (kinds: string[]) => string[] },
  nameOf: (userIds: string[]) => Promise<Map<string, string>>,
): Promise<StudySnapshot | null> | null {
  const bytes = zlib.brotliDecompressSync(stored);
  const headLength = bytes.readUInt32LE(0);
  const header = JSON.parse(bytes.toString("utf8", 4, 4 + headLength)) as Header;
  if (
    header.format !== SNAPSHOT_STORE_FORMAT ||
    header.endianness !== os.endianness() ||
    header.studyId !== expect.studyId ||
    header.version !== expect.version
  )
    return null;
  if (JSON.stringify(expect.keyKindsOf(header.kinds)) !== JSON.stringify(header.keyKinds)) return null;
  const { count } = header;
  const values = header.texts.map((text) => deepFreeze(JSON.parse(text) as unknown));
  // each column as the snapshot holds it (the integer columns checked to hold integers: a value
  // another layout would change is a corrupt row)
  const integerColumn: Partial<Record<ResponseColumn, (n: number) => Int32Array | Uint8Array>> = {
    item: (n) => new Int32Array(n),
    annotator: (n) => new Int32Array(n),
    agreement: (n) => new Uint8Array(n),
    condition: (n) => new Int32Array(n),
    correct: (n) => new Uint8Array(n),
    score: (n) => new Int32Array(n),
    answer: (n) => new Int32Array(n),
  };
  const columns = {} as Record<ResponseColumn, Float64Array | Int32Array | Uint8Array>;
  let at = 4 + headLength;
  for (const name of RESPONSE_COLUMNS) {
    const layout = header.columns[name];
    const make = integerColumn[name];
    if (make && layout.as !== "uint") throw new Error(`stored snapshot of study ${header.studyId}: column ${name} is not of integers`);
    columns[name] = unpackColumn(bytes.subarray(at), layout, make ? make(count) : new Float64Array(count));
    at += packedBytes(layout, count);
  }
  if (at !== bytes.byteLength) throw new Error(`stored snapshot of study ${header.studyId}: ${bytes.byteLength} bytes where its layout takes ${at}`);
  const valuesOf = (indices: ArrayLike<number>): unknown[] => {
    const out = new Array<unknown>(indices.length);
    for (let i = 0; i < indices.length; i++) out[i] = values[indices[i]];
    return out;
  };
  const { ids, externalIds } = header.items;
  const items = {
    keys: header.items.key.map((k) => (k < 0 ? undefined : values[k])),
    ids,
    externalIds,
    kinds: header.items.kind.map((k) => header.kinds[k]),
    tags: header.items.tags.map((t) => values[t] as Tags),
    index: new Map(ids.map((id, i) => [id, i])),
  };
  return nameOf(header.userIds).then((names) => {
    const { annotators, annotator } = annotatorsByName(header.userIds, columns.annotator, names);
    return {
      studyId: header.studyId,
      version: header.version,
      loadedAt: Date.now(),
      items,
      annotators,
      conditions: header.conditions,
      responses: {
        count,
        item: columns.item as Int32Array,
        annotator,
        agreement: columns.agreement as Uint8Array,
        condition: (columns.condition as Int32Array).map((stored) => stored - 1),
        correct: columns.correct as Uint8Array,
        confidence: columns.confidence as Float64Array,
        wallMs: columns.wallMs as Float64Array,
        activeMs: columns.activeMs as Float64Array,
        createdAt: columns.createdAt as Float64Array,
        score: valuesOf(columns.score),
        answer: valuesOf(columns.answer),
      },
    };
  });
}

/** Keeps the snapshot for its version (one row per study: the newest stored replaces the one before). */
export async function storeSnapshot(snapshot: StudySnapshot, keyKinds: string[]): Promise<boolean> {
  const data = encodeSnapshot(snapshot, keyKinds);
  if (!data) return false;
  const parts: Uint8Array[] = [];
  for (let at = 0; at < data.byteLength; at += PART_BYTES) parts.push(data.subarray(at, at + PART_BYTES));
  await writeStoredSnapshot(snapshot.studyId, snapshot.version, SNAPSHOT_STORE_FORMAT, parts);
  return true;
}

/** The stored snapshot of the study at this version, or null (none, another version or layout). */
export async function readStoredSnapshot(
  reads: StoredSnapshotReads,
  studyId: string,
  version: string,
  keyKindsOf: (kinds: string[]) => string[],
  nameOf: (userIds: string[]) => Promise<Map<string, string>>,
): Promise<StudySnapshot | null> {
  const rows = await reads.parts(version, SNAPSHOT_STORE_FORMAT);
  if (rows.length === 0) return null;
  const bytes = rows.length === 1 ? rows[0] : Buffer.concat(rows);
  return decodeSnapshot(bytes, { studyId, version, keyKindsOf }, nameOf);
}
