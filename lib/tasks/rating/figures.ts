import { krippendorffAlphaPigeonhole, pigeonholeAlphaMethod } from "@/lib/stats/krippendorff-alpha-pigeonhole";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";
import { krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import type { RatingAnswer, RatingScore, RubricEntry } from "@/lib/tasks/rating";

/**
 * The rating section's figures (pure): mean points per rubric entry and per dimension (people
 * pooled, and per value of the items' `model` tag when they have one: WorldModelBench compares
 * generators), the same for each imported model run (a VLM judge), and Krippendorff's alpha per
 * dimension over people (units: one per item and rubric entry of the dimension; ordinal for
 * Likert dimensions, nominal for checks) with a 95 % percentile pigeonhole bootstrap interval that
 * draws items and people independently (lib/stats/krippendorff-alpha-pigeonhole.ts, as the
 * agreement section does), or items alone when the study takes its people as the population.
 */

export interface RatingRow {
  itemId: string;
  annotator: string;
  answer: RatingAnswer;
  score: RatingScore;
  /** the item's `model` tag (the generator rated), null without one */
  model: string | null;
}

export interface MeanCell {
  mean: number | null;
  n: number;
}

export interface DimensionInfo {
  id: string;
  type: "likert" | "check";
  /** the most points an answer can get in it (the entries' max summed, or the checks counted), over the study's items */
  maxPoints: number;
}

export interface DimensionAlpha {
  dimension: string;
  level: "ordinal" | "nominal";
  alpha: number | null;
  ci: [number, number] | null;
  reason?: string;
  /** pairable units (item x rubric entry with two or more ratings) and items holding them */
  units: number;
  items: number;
  /** people with a rating in the pairable units */
  people?: number;
  description: string;
}

export interface RatingFigures {
  answers: number;
  people: number;
  dimensions: DimensionInfo[];
  entries: Array<{ id: string; label: string; dimension: string; type: "likert" | "check"; scale: string; people: MeanCell }>;
  /** mean points per dimension, and total, over people's answers */
  pooled: Record<string, MeanCell>;
  /** the same per generator (items' `model` tag) */
  byGenerator: Array<{ model: string; cells: Record<string, MeanCell> }>;
  /** the same per imported model run (a judge) */
  judges: Array<{ id: string; name: string; cells: Record<string, MeanCell> }>;
  alpha: DimensionAlpha[];
  /** the alpha intervals' method in words (the study's "generalise over") */
  alphaMethod: string;
}

function cellsOf(scores: readonly RatingScore[], dimensions: readonly DimensionInfo[]): Record<string, MeanCell> {
  const cells: Record<string, MeanCell> = {};
  for (const dimension of [...dimensions.map((d) => d.id), "total"]) {
    const values = scores.flatMap((score) =>
      dimension === "total" ? [score.total] : score.dimensions[dimension] === undefined ? [] : [score.dimensions[dimension]],
    );
    cells[dimension] = { mean: values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null, n: values.length };
  }
  return cells;
}

export function ratingFigures(
  rubricByItem: ReadonlyMap<string, readonly RubricEntry[]>,
  rows: readonly RatingRow[],
  judgeRows: ReadonlyArray<{ runId: string; score: RatingScore }>,
  runs: ReadonlyArray<{ id: string; name: string }>,
  seed: string,
  resamples: number,
  over: GeneraliseOver = "people+items",
): RatingFigures {
  // the rubric entries and dimensions, in first-seen order over the items
  const entryInfo = new Map<string, { entry: RubricEntry; points: number[] }>();
  const dimensionInfo = new Map<string, DimensionInfo>();
  for (const rubric of rubricByItem.values()) {
    const maxByDimension = new Map<string, number>();
    for (const entry of rubric) {
      if (!entryInfo.has(entry.id)) entryInfo.set(entry.id, { entry, points: [] });
      maxByDimension.set(entry.dimension, (maxByDimension.get(entry.dimension) ?? 0) + (entry.type === "likert" ? entry.max : 1));
      if (!dimensionInfo.has(entry.dimension)) dimensionInfo.set(entry.dimension, { id: entry.dimension, type: entry.type, maxPoints: 0 });
    }
    for (const [dimension, max] of maxByDimension) dimensionInfo.get(dimension)!.maxPoints = Math.max(dimensionInfo.get(dimension)!.maxPoints, max);
  }
  const dimensions = [...dimensionInfo.values()];
  for (const row of rows) for (const [id, points] of Object.entries(row.score.items)) if (points !== null) entryInfo.get(id)?.points.push(points);

  const generators = new Map<string, RatingScore[]>();
  for (const row of rows) if (row.model !== null) (generators.get(row.model) ?? generators.set(row.model, []).get(row.model)!).push(row.score);

  // alpha per dimension: units (item, rubric id), one value per person
  const coderIds = new Map<string, number>();
  const coderIndex = (annotator: string) => {
    let c = coderIds.get(annotator);
    if (c === undefined) coderIds.set(annotator, (c = coderIds.size));
    return c;
  };
  const alpha: DimensionAlpha[] = dimensions.map((dimension) => {
    const unitIndex = new Map<string, number>();
    const units: Array<Array<number | string>> = [];
    const coders: number[][] = [];
    const clusterOf: number[] = [];
    const itemIndex = new Map<string, number>();
    for (const row of rows) {
      const rubric = rubricByItem.get(row.itemId) ?? [];
      for (const entry of rubric) {
        if (entry.dimension !== dimension.id) continue;
        const value = row.answer.ratings[entry.id];
        if (value === undefined) continue;
        const key = `${row.itemId}|${entry.id}`;
        let u = unitIndex.get(key);
        if (u === undefined) {
          unitIndex.set(key, (u = units.length));
          units.push([]);
          coders.push([]);
          if (!itemIndex.has(row.itemId)) itemIndex.set(row.itemId, itemIndex.size);
          clusterOf.push(itemIndex.get(row.itemId)!);
        }
        units[u].push(value);
        coders[u].push(coderIndex(row.annotator));
      }
    }
    const level = dimension.type === "likert" ? ("ordinal" as const) : ("nominal" as const);
    const pairable = units.filter((values) => values.length >= 2);
    if (pairable.length === 0)
      return { dimension: dimension.id, level, alpha: null, ci: null, reason: "no item rated by two people", units: 0, items: 0, description: "" };
    const result = krippendorffAlphaPigeonhole(
      { metric: level, units },
      coders,
      clusterOf,
      () => 0,
      1,
      [[0]],
      mulberry32(seedFromString(`${seed}|rating-alpha|${dimension.id}`)),
      { resamples, over },
    ).groups[0];
    const estimate = krippendorffAlphaFromUnits(units, level);
    return {
      dimension: dimension.id,
      level,
      alpha: estimate.alpha,
      ci: estimate.alpha === null ? null : result.ci,
      ...(estimate.alpha === null ? { reason: estimate.reason } : result.ci === null ? { reason: result.reason } : {}),
      units: estimate.units,
      items: result.clusters,
      people: result.people,
      description: `${pigeonholeAlphaMethod(over, resamples)} of ${result.clusters} items${result.undefinedResamples > 0 ? `; ${result.undefinedResamples} resamples without two people rating one unit left out` : ""}`,
    };
  });

  const judgeScores = new Map<string, RatingScore[]>();
  for (const row of judgeRows) (judgeScores.get(row.runId) ?? judgeScores.set(row.runId, []).get(row.runId)!).push(row.score);

  return {
    answers: rows.length,
    people: new Set(rows.map((row) => row.annotator)).size,
    dimensions,
    entries: [...entryInfo.values()].map(({ entry, points }) => ({
      id: entry.id,
      label: entry.label,
      dimension: entry.dimension,
      type: entry.type,
      scale: entry.type === "likert" ? `${entry.min}-${entry.max}` : `pass = ${entry.pass}`,
      people: { mean: points.length ? points.reduce((sum, value) => sum + value, 0) / points.length : null, n: points.length },
    })),
    pooled: cellsOf(
      rows.map((row) => row.score),
      dimensions,
    ),
    byGenerator: [...generators.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([model, scores]) => ({ model, cells: cellsOf(scores, dimensions) })),
    judges: runs.filter((run) => judgeScores.has(run.id)).map((run) => ({ id: run.id, name: run.name, cells: cellsOf(judgeScores.get(run.id)!, dimensions) })),
    alpha,
    alphaMethod: pigeonholeAlphaMethod(over, resamples),
  };
}
