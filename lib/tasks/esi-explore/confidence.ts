/**
 * ESI-Bench's confidence is a probability: the terminal action answer(ŷ, c) takes c in [0, 1]
 * (esi-bench.txt, App. E). A study asking on the percent scale gives c = value / 100 directly;
 * one asking on the 1-5 scale gives c only through a stated mapping, the one the server stores
 * (lib/responses/responses.ts normaliseConfidence): c = (v - 1) / 4, i.e. 1 -> 0, 2 -> 0.25, 3 -> 0.5,
 * 4 -> 0.75, 5 -> 1. The dashboard shows that mapping beside every ESI confidence figure.
 *
 * ESI studies default to the percent scale: a study's first import holding ESI-Bench items (the
 * study has no items yet, so no answers) sets it to PERCENT, and the import's message says so
 * (the kind's `defaultConfidenceScale`, lib/import/confidence-default.ts).
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
    return {
      scale,
      points: null,
      statement: "Confidence is asked on a 0–100% scale and read as c = value / 100, the probability c in [0, 1] of ESI-Bench's answer(ŷ, c) (App. E).",
    };
  }
  const points = [1, 2, 3, 4, 5].map((value) => ({ value, c: confidenceToProbability(value, scale)! }));
  return {
    scale,
    points,
    statement: `This study asks for confidence on a 1–5 scale; ESI-Bench's c is a probability in [0, 1] (App. E), so every figure here reads the scale through this mapping: ${points.map((p) => `${p.value} → ${p.c}`).join(", ")} (c = (v − 1) / 4). The percent scale needs no mapping.`,
  };
}
