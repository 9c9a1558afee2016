/** Pure helpers shared by the snapshot loader and the computations. */

export type Tags = Record<string, string | number | boolean>;

/** The value of tag `key` on an item as text ("3"), or null when the item has no such tag. */
export function tagValue(tags: Tags, key: string | null): string | null {
  if (!key) return null;
  const value = tags[key];
  return value === undefined || value === null ? null : String(value);
}

/** Tag values in display order: numbers numerically, then text. */
export function compareTagValues(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  const xn = a.trim() !== "" && Number.isFinite(x);
  const yn = b.trim() !== "" && Number.isFinite(y);
  if (xn && yn) return x - y;
  if (xn) return -1;
  if (yn) return 1;
  return a.localeCompare(b);
}

/** Deep-freezes a parsed JSON value: the snapshot shares one value between the rows that stored the same text. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The snapshot's annotators sorted by name (then id), and each answer's annotator as an index into
 * that order. `annotatorOf`: each answer's index into `userIds`; `nameOf`: the names (a user missing
 * from it was deleted meanwhile).
 */
export function annotatorsByName(
  userIds: readonly string[],
  annotatorOf: ArrayLike<number>,
  nameOf: Map<string, string>,
): { annotators: Array<{ id: string; name: string }>; annotator: Int32Array } {
  const order = userIds
    .map((id, i) => ({ id, i, name: nameOf.get(id) ?? "(deleted user)" }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const remap = new Int32Array(userIds.length);
  order.forEach((entry, sorted) => (remap[entry.i] = sorted));
  const annotator = new Int32Array(annotatorOf.length);
  for (let r = 0; r < annotator.length; r++) annotator[r] = remap[annotatorOf[r]];
  return { annotators: order.map(({ id, name }) => ({ id, name })), annotator };
}

/** SnapshotResponses.correct of an answer with no correctness: figures about correctness leave it out and count it. */
export const CORRECTNESS_UNKNOWN = 2;

/** An answer's correctness from SnapshotResponses.correct: true, false, or null (none). */
export function correctnessAt(correct: Uint8Array, r: number): boolean | null {
  const value = correct[r];
  return value === CORRECTNESS_UNKNOWN ? null : value === 1;
}

/** SnapshotResponses.condition of an answer whose assignment has no condition (a study without conditions). */
export const NO_CONDITION = -1;

/** The study condition an answer was given under (its assignment's), or null. */
export function conditionAt(snapshot: { conditions: readonly string[]; responses: { condition: Int32Array } }, r: number): string | null {
  const index = snapshot.responses.condition[r];
  return index === NO_CONDITION ? null : snapshot.conditions[index];
}
