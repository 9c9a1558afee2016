import type { StudySnapshot } from "@/lib/dashboard/types";
import { seedFromString } from "@/lib/stats/seed-from-string";

/**
 * The snapshot without the answers to the given items (items that failed review, lib/review):
 * their responses stay stored and exported, but the dashboard can leave them out. Pure; the
 * version changes with the set, so memoised figures are keyed apart.
 */
export function snapshotWithoutItems(snapshot: StudySnapshot, excludedItemIds: ReadonlySet<string>): StudySnapshot {
  if (excludedItemIds.size === 0) return snapshot;
  const { responses, items } = snapshot;
  const keep: number[] = [];
  for (let r = 0; r < responses.count; r++) if (!excludedItemIds.has(items.ids[responses.item[r]])) keep.push(r);
  if (keep.length === responses.count) return snapshot;
  return {
    ...snapshot,
    version: `${snapshot.version}|without-${seedFromString([...excludedItemIds].sort().join(","))}`,
    responses: responsesAt(responses, keep),
  };
}

/** The response rows at the indices `keep`, in that order (every column). */
export function responsesAt(responses: StudySnapshot["responses"], keep: readonly number[]): StudySnapshot["responses"] {
  const pick = <T extends Int32Array | Uint8Array | Float64Array>(column: T): T => {
    const out = new (column.constructor as new (length: number) => T)(keep.length);
    keep.forEach((r, i) => (out[i] = column[r]));
    return out;
  };
  return {
    count: keep.length,
    item: pick(responses.item),
    annotator: pick(responses.annotator),
    agreement: pick(responses.agreement),
    condition: pick(responses.condition),
    correct: pick(responses.correct),
    confidence: pick(responses.confidence),
    wallMs: pick(responses.wallMs),
    activeMs: pick(responses.activeMs),
    createdAt: pick(responses.createdAt),
    score: keep.map((r) => responses.score[r]),
    answer: keep.map((r) => responses.answer[r]),
  };
}
