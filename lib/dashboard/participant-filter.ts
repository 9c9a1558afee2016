import type { StudySnapshot } from "@/lib/dashboard/types";
import { responsesAt } from "@/lib/dashboard/review-filter";
import { seedFromString } from "@/lib/stats/seed-from-string";

/**
 * The snapshot without the answers of the given people (a study's EXCLUDED participants, who
 * failed its gold rule): their responses stay stored and exported, but dashboards leave them out
 * unless asked. They leave the annotator list too (indices are remapped), so per-annotator figures
 * and the number of coders in agreement count only the people kept. Pure; the version changes
 * with the set, so memoised figures are keyed apart.
 */
export function snapshotWithoutAnnotators(snapshot: StudySnapshot, excludedUserIds: ReadonlySet<string>): StudySnapshot {
  if (excludedUserIds.size === 0) return snapshot;
  const dropped = snapshot.annotators.map((a) => excludedUserIds.has(a.id));
  if (!dropped.some(Boolean)) return snapshot;
  const remap = new Int32Array(snapshot.annotators.length).fill(-1);
  const annotators: StudySnapshot["annotators"] = [];
  snapshot.annotators.forEach((a, i) => {
    if (dropped[i]) return;
    remap[i] = annotators.length;
    annotators.push(a);
  });
  const { responses } = snapshot;
  const keep: number[] = [];
  for (let r = 0; r < responses.count; r++) if (!dropped[responses.annotator[r]]) keep.push(r);
  return {
    ...snapshot,
    version: `${snapshot.version}|people-without-${seedFromString([...excludedUserIds].sort().join(","))}`,
    annotators,
    responses: { ...responsesAt(responses, keep), annotator: Int32Array.from(keep, (r) => remap[responses.annotator[r]]) },
  };
}
