import { krippendorffAlphaFromUnits, type AlphaResult } from "@/lib/stats/krippendorff-alpha";
import type { ExploreScoreFigures } from "@/lib/tasks/shared/explore/scorer";

/**
 * EXPLORE-Bench's results table in the paper's shape (pure): per participant (humans pooled, each
 * annotator, each model run) the means of S_obj, S_att, S_rel and S_uni by subset (Short, Medium,
 * Long, Full), and for abnormal-outcome items (keys with key states, reported apart as in the
 * paper) S_key and S_abn too; agreement over annotators as Krippendorff's alpha on S_uni
 * (interval) and on per-object presence (nominal). One table per scorer; lib/dashboard/explore.ts
 * loads the scores.
 */

export const EXPLORE_SUBSET_COLUMNS = ["Short", "Medium", "Long", "Full"] as const;
export type ExploreSubsetColumn = (typeof EXPLORE_SUBSET_COLUMNS)[number];
export const EXPLORE_TABLE_METRICS = ["S_obj", "S_att", "S_rel", "S_uni"] as const;
export const EXPLORE_ABNORMAL_METRICS = ["S_obj", "S_att", "S_rel", "S_uni", "S_key", "S_abn"] as const;

/** What every EXPLORE scorer's per-answer score carries (structured and LLM alike). */
export type ExploreScoreLike = Pick<ExploreScoreFigures, "S_obj" | "S_uni" | "S_key" | "S_abn"> & {
  /** null only in scores stored before parts were never null (LLM scores of older prompt versions) */
  S_att: number | null;
  S_rel: number | null;
};

export function isExploreScoreLike(value: unknown): value is ExploreScoreLike {
  if (value === null || typeof value !== "object") return false;
  const score = value as Record<string, unknown>;
  return typeof score.S_obj === "number" && typeof score.S_uni === "number";
}

export interface ExploreMeans {
  /** answers averaged */
  n: number;
  S_obj: number | null;
  S_att: number | null;
  S_rel: number | null;
  S_uni: number | null;
  S_key: number | null;
  S_abn: number | null;
}

export interface ExploreParticipant {
  id: string;
  label: string;
  group: "pooled" | "annotator" | "model";
}

export interface ExploreEntry {
  /** the item's `subset` tag (Short, Medium, Long), null when untagged */
  subset: string | null;
  score: ExploreScoreLike;
  /** the item has key states (an abnormal case): reported apart, never in Full; when absent, read from the score (S_key) */
  abnormal?: boolean;
}

export interface ExploreTableRow {
  participant: ExploreParticipant;
  cells: Record<ExploreSubsetColumn, ExploreMeans>;
  /** abnormal-outcome items (key states), null when the participant answered none */
  abnormal: ExploreMeans | null;
}

function mean(values: Array<number | null | undefined>): number | null {
  const present = values.filter((value): value is number => typeof value === "number" && Number.isFinite(value));
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length;
}

/** Means of each metric over the scores; a null part (nothing to compare) is left out of its own mean only. */
export function exploreMeans(scores: readonly ExploreScoreLike[]): ExploreMeans {
  return {
    n: scores.length,
    S_obj: mean(scores.map((s) => s.S_obj)),
    S_att: mean(scores.map((s) => s.S_att)),
    S_rel: mean(scores.map((s) => s.S_rel)),
    S_uni: mean(scores.map((s) => s.S_uni)),
    S_key: mean(scores.map((s) => s.S_key)),
    S_abn: mean(scores.map((s) => s.S_abn)),
  };
}

const isAbnormal = (entry: ExploreEntry) => entry.abnormal ?? typeof entry.score.S_key === "number";

/** One row: normal items by subset (Full = all normal items, tagged or not), abnormal items apart. */
export function exploreTableRow(participant: ExploreParticipant, entries: readonly ExploreEntry[]): ExploreTableRow {
  const normal = entries.filter((entry) => !isAbnormal(entry));
  const abnormal = entries.filter((entry) => isAbnormal(entry));
  const of = (subset: string) => normal.filter((entry) => entry.subset === subset).map((entry) => entry.score);
  return {
    participant,
    cells: {
      Short: exploreMeans(of("Short")),
      Medium: exploreMeans(of("Medium")),
      Long: exploreMeans(of("Long")),
      Full: exploreMeans(normal.map((entry) => entry.score)),
    },
    abnormal: abnormal.length > 0 ? exploreMeans(abnormal.map((entry) => entry.score)) : null,
  };
}

/**
 * Krippendorff's alpha on S_uni, interval level: each item a unit, each annotator's S_uni a value
 * (items with one answer are not pairable and drop out).
 * Source: Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", interval metric.
 */
export function sUniAlpha(items: ReadonlyArray<ReadonlyArray<number>>): AlphaResult | null {
  const units = items.filter((values) => values.length >= 2);
  return units.length === 0 ? null : krippendorffAlphaFromUnits(units, "interval");
}

/**
 * Krippendorff's alpha on per-object presence, nominal level: each (item, annotated category) a
 * unit, each annotator's "present"/"absent" (the category matched by their answer or not) a value.
 * Source: Krippendorff 2011, nominal metric.
 */
export function presenceAlpha(units: ReadonlyArray<ReadonlyArray<string>>): AlphaResult | null {
  const pairable = units.filter((values) => values.length >= 2);
  return pairable.length === 0 ? null : krippendorffAlphaFromUnits(pairable, "nominal");
}

/** Every remaining difference from the paper's protocol (Sec. 3.3, Sec. 6), shown on the dashboard; docs/task-kinds.md lists the same. */
export const EXPLORE_PAPER_DIFFERENCES = [
  "Structured scorer: objects are matched by lemmas and WordNet (most frequent sense), not Sentence-BERT embeddings; attributes, relations and key states are scored by content-word recall, not by an LLM's 0-5 judgement.",
  "LLM scorer: the paper's prompts (Listings 8-11) and Qwen3-8B-style 0-5 scores; objects are matched by lemmas and WordNet unless SCORER_EMBED_URL serves all-MiniLM-L6-v2 (then the table says so).",
  "Candidate objects of free text are wink-nlp's noun phrases, not spaCy's nouns.",
  "S_att, S_rel and S_key average over every annotated object with something to compare, an unmatched one counting 0 (the paper: over matched objects), so adding a correct object never lowers a score.",
  "A part with nothing to compare (a key without descriptions, or without relations) counts S_obj / 20; the paper does not say.",
  "Mutual maxima: ties keep the first candidate, and annotated categories tied for one candidate's maximum both keep it (the paper publishes no code for this step).",
  "The share with S_uni >= 60 is Yardstick's calibration threshold, not the paper's.",
] as const;

/** The paper's human baseline (explore.md, "Human baseline"), scored with the paper's own scorer. */
export const EXPLORE_PAPER_HUMANS = {
  label: "Paper: humans (tiny subset)",
  scorer: "the paper's scorer: Sentence-BERT object matching + Qwen3-8B judge",
  cells: {
    Short: { S_obj: 72.81, S_att: 2.64, S_rel: 3.11, S_uni: 61.56 },
    Medium: { S_obj: 70.43, S_att: 2.46, S_rel: 2.88, S_uni: 57.87 },
    Long: { S_obj: 67.86, S_att: 2.11, S_rel: 2.47, S_uni: 51.5 },
    Full: { S_obj: 71.38, S_att: 2.51, S_rel: 2.95, S_uni: 59.08 },
  } satisfies Record<ExploreSubsetColumn, Record<(typeof EXPLORE_TABLE_METRICS)[number], number>>,
  abnormal: { S_obj: 95.19, S_att: 3.64, S_rel: 3.88, S_uni: 80.32, S_key: 4.65, S_abn: 91.64 },
  bestModelFullSUni: 51.16,
} as const;
