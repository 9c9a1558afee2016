import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * ESI-Bench's confidence is a probability: the terminal action answer(ŷ, c) takes c in [0, 1]
 * (esi-bench.txt, App. E). A study asking on the percent scale gives c = value / 100 directly;
 * one asking on the 1-5 scale gives c only through a stated mapping, the one the server stores
 * (lib/responses.ts normaliseConfidence): c = (v - 1) / 4, i.e. 1 -> 0, 2 -> 0.25, 3 -> 0.5,
 * 4 -> 0.75, 5 -> 1. The dashboard shows that mapping beside every ESI confidence figure.
 *
 * ESI studies default to the percent scale: a study's first import holding esi-explore items (the
 * study has no items yet, so no answers) sets it to PERCENT, and the import's message says so.
 */

export type ConfidenceScaleName = "LIKERT_5" | "PERCENT";

export interface EsiConfidenceMapping {
  scale: ConfidenceScaleName;
  /** the 1-5 scale's points and the probability each is read as; null for the percent scale */
  points: Array<{ value: number; c: number }> | null;
  /** one sentence for the dashboard */
  statement: string;
}

/** The probability c in [0, 1] a stated confidence is read as, or null when it is off the scale. */
export function confidenceToProbability(value: unknown, scale: ConfidenceScaleName): number | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  const c = scale === "LIKERT_5" ? (value - 1) / 4 : value / 100;
  return c >= 0 && c <= 1 ? c : null;
}

export function esiConfidenceMapping(scale: ConfidenceScaleName): EsiConfidenceMapping {
  if (scale === "PERCENT") {
    return { scale, points: null, statement: "Confidence is asked on a 0–100% scale and read as c = value / 100, the probability c in [0, 1] of ESI-Bench's answer(ŷ, c) (App. E)." };
  }
  const points = [1, 2, 3, 4, 5].map((value) => ({ value, c: confidenceToProbability(value, scale)! }));
  return {
    scale,
    points,
    statement: `This study asks for confidence on a 1–5 scale; ESI-Bench's c is a probability in [0, 1] (App. E), so every figure here reads the scale through this mapping: ${points.map((p) => `${p.value} → ${p.c}`).join(", ")} (c = (v − 1) / 4). The percent scale needs no mapping.`,
  };
}

/**
 * Inside an import's transaction: when the study had no items before this import and the batch
 * holds esi-explore items, set the study's confidence scale to PERCENT. Returns the note for the
 * import's message, or null when nothing changed.
 */
export async function defaultEsiConfidenceScale(tx: Prisma.TransactionClient, studyId: string, kinds: readonly string[], hadItems: boolean): Promise<string | null> {
  if (hadItems || !kinds.includes("esi-explore")) return null;
  const changed = await tx.study.updateMany({ where: { id: studyId, confidenceScale: "LIKERT_5" }, data: { confidenceScale: "PERCENT" } });
  return changed.count > 0 ? "ESI-Bench asks for confidence c in [0, 1] (App. E): this study's confidence scale is now 0–100% (it was 1–5; the study's settings can change it)" : null;
}
