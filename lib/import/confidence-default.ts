import type { Tx } from "@/lib/db/client-types";
import { setConfidenceScaleIfDefault } from "@/lib/repos/studies";
import { getTaskModule, isTaskKind } from "@/lib/tasks";

/**
 * Inside an import's transaction: when the study had no items before this import and the batch
 * holds items of a kind with a `defaultConfidenceScale` (ESI-Bench), set the study's confidence
 * scale to it. Returns the note for the import's message, or null when nothing changed.
 */
export async function defaultConfidenceScaleForKinds(tx: Tx, studyId: string, kinds: readonly string[], hadItems: boolean): Promise<string | null> {
  if (hadItems) return null;
  const wanted = kinds
    .filter(isTaskKind)
    .map((kind) => getTaskModule(kind).defaultConfidenceScale)
    .find((scale) => scale !== undefined);
  if (!wanted) return null;
  return (await setConfidenceScaleIfDefault(tx, studyId, wanted.scale))
    ? `${wanted.reason}: this study's confidence scale is now 0–100% (it was 1–5; the study's settings can change it)`
    : null;
}
