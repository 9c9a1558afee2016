import { bradleyTerry, type PairwiseComparison } from "@/lib/stats/bradley-terry";
import { percentileInterval } from "@/lib/stats/bootstrap-ci";
import { pearsonCorrelation } from "@/lib/stats/pearson-correlation";
import { spearmanCorrelation } from "@/lib/stats/spearman-correlation";
import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import { forEachWeightedResample, multinomialWeights } from "@/lib/stats/weighted-bootstrap";
import type { PairwiseAnswer, PairwisePublic } from "@/lib/tasks/pairwise";

/**
 * The pairwise section's figures (pure). Per dimension, over people's answers to items that name
 * their models: each model's comparisons, win rate (ties half) and Bradley-Terry strength (MM,
 * lib/stats/bradley-terry.ts; normalised to sum 1), each with a 95 % percentile bootstrap interval
 * that resamples items (all answers to an item together; lib/stats/weighted-bootstrap.ts); the
 * share of non-tie choices that went to the side shown first (position bias); and, when items
 * carry an automatic metric, its mean per model beside the human strength, with Pearson and
 * Spearman correlations across models (per dimension).
 */

export interface PairwiseRow {
  itemId: string;
  answer: PairwiseAnswer;
  /** the side shown first (left / top) to this person, from media_sides; null when unknown */
  left: "a" | "b" | null;
}

export interface ModelFigure {
  model: string;
  comparisons: number;
  winRate: number | null;
  winRateCi: [number, number] | null;
  strength: number | null;
  strengthCi: [number, number] | null;
  /** the automatic metric's mean over the model's sides of the items (null without one) */
  metric: number | null;
}

export interface DimensionFigures {
  id: string;
  label: string;
  answers: number;
  ties: number;
  models: ModelFigure[];
  /** why Bradley-Terry strengths are missing (e.g. a model never loses) */
  strengthReason?: string;
  /**
   * The bootstrap's resamples with a Bradley-Terry fit (their strengths make the intervals) and
   * without one (a model that never wins or never loses in the resample: no MLE, left out of the
   * intervals); null when no bootstrap ran.
   */
  strengthResamples: { fitted: number; unfitted: number } | null;
  /** non-tie choices of the side shown first, of non-tie choices with a known side order */
  firstShown: { chosen: number; of: number };
  /** human strength vs automatic metric across models */
  correlation: { n: number; pearson: number | null; spearman: number | null } | null;
}

export interface PairwiseFigures {
  answers: number;
  items: number;
  metricName: string | null;
  dimensions: DimensionFigures[];
  resamples: number;
}

type ItemInfo = Pick<PairwisePublic, "dimensions" | "models" | "metric">;

export function pairwiseFigures(itemsById: ReadonlyMap<string, ItemInfo>, rows: readonly PairwiseRow[], seed: string, resamples: number): PairwiseFigures {
  const dimensionOrder = new Map<string, string>();
  let metricName: string | null = null;
  const metricByModel = new Map<string, number[]>();
  for (const item of itemsById.values()) {
    for (const dimension of item.dimensions) if (!dimensionOrder.has(dimension.id)) dimensionOrder.set(dimension.id, dimension.label);
    if (item.metric && item.models) {
      metricName ??= item.metric.name;
      (metricByModel.get(item.models.a) ?? metricByModel.set(item.models.a, []).get(item.models.a)!).push(item.metric.a);
      (metricByModel.get(item.models.b) ?? metricByModel.set(item.models.b, []).get(item.models.b)!).push(item.metric.b);
    }
  }
  const usable = rows.filter((row) => itemsById.get(row.itemId)?.models);
  const models = [...new Set(usable.flatMap((row) => [itemsById.get(row.itemId)!.models!.a, itemsById.get(row.itemId)!.models!.b]))].sort();
  const modelIndex = new Map(models.map((model, index) => [model, index]));
  const itemIds = [...new Set(usable.map((row) => row.itemId))];
  const itemIndex = new Map(itemIds.map((id, index) => [id, index]));
  const metricMean = (model: string) => {
    const values = metricByModel.get(model);
    return values?.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null;
  };

  const dimensions: DimensionFigures[] = [...dimensionOrder.entries()].map(([id, label]) => {
    // one comparison per answer of this dimension, with its item (the bootstrap's cluster)
    const comparisons: Array<PairwiseComparison & { item: number }> = [];
    let ties = 0;
    let firstChosen = 0;
    let firstOf = 0;
    for (const row of usable) {
      const value = row.answer.prefs[id];
      if (value === undefined) continue;
      const pair = itemsById.get(row.itemId)!.models!;
      comparisons.push({ i: modelIndex.get(pair.a)!, j: modelIndex.get(pair.b)!, outcome: value === "a" ? 1 : value === "b" ? 0 : 0.5, item: itemIndex.get(row.itemId)! });
      if (value === "tie") ties++;
      else if (row.left) {
        firstOf++;
        if (value === row.left) firstChosen++;
      }
    }
    const k = models.length;
    const winRates = (weights: ArrayLike<number> | null): Array<number | null> => {
      const wins = new Array<number>(k).fill(0);
      const games = new Array<number>(k).fill(0);
      for (const c of comparisons) {
        const w = weights ? weights[c.item] : 1;
        wins[c.i] += w * c.outcome;
        wins[c.j] += w * (1 - c.outcome);
        games[c.i] += w;
        games[c.j] += w;
      }
      return wins.map((won, index) => (games[index] > 0 ? won / games[index] : null));
    };
    const full = k > 0 ? bradleyTerry(k, comparisons) : null;
    const rates = winRates(null);
    const rateReplicates: number[][] = Array.from({ length: k }, () => []);
    const strengthReplicates: number[][] = Array.from({ length: k }, () => []);
    let strengthResamples: DimensionFigures["strengthResamples"] = null;
    if (k > 1 && itemIds.length > 1 && comparisons.length > 0) {
      const rng = mulberry32(seedFromString(`${seed}|pairwise|${id}`));
      const tally = { fitted: 0, unfitted: 0 };
      if (full?.strengths) strengthResamples = tally;
      forEachWeightedResample(itemIds.length, multinomialWeights(itemIds.length), rng, resamples, (weights) => {
        winRates(weights).forEach((rate, index) => rate !== null && rateReplicates[index].push(rate));
        if (full?.strengths) {
          const boot = bradleyTerry(
            k,
            comparisons.map((c) => ({ ...c, weight: weights[c.item] })),
            { tolerance: 1e-9, maxIterations: 2_000 },
          );
          if (boot.strengths) {
            tally.fitted++;
            boot.strengths.forEach((strength, index) => strengthReplicates[index].push(strength));
          } else tally.unfitted++;
        }
      });
    }
    const ci = (replicates: number[]): [number, number] | null => (replicates.length >= 2 ? percentileInterval(Float64Array.from(replicates).sort(), 0.95) : null);
    const figures: ModelFigure[] = models.map((model, index) => ({
      model,
      comparisons: full?.comparisons[index] ?? 0,
      winRate: rates[index],
      winRateCi: ci(rateReplicates[index]),
      strength: full?.strengths?.[index] ?? null,
      strengthCi: ci(strengthReplicates[index]),
      metric: metricMean(model),
    }));
    const paired = figures.filter((figure) => figure.strength !== null && figure.metric !== null);
    const correlation =
      metricName === null
        ? null
        : {
            n: paired.length,
            pearson: paired.length >= 3 ? pearsonCorrelation(paired.map((f) => Math.log(f.strength!)), paired.map((f) => f.metric!)) : null,
            spearman: paired.length >= 3 ? spearmanCorrelation(paired.map((f) => f.strength!), paired.map((f) => f.metric!)) : null,
          };
    return { id, label, answers: comparisons.length, ties, models: figures, ...(full && !full.strengths ? { strengthReason: full.reason } : {}), strengthResamples, firstShown: { chosen: firstChosen, of: firstOf }, correlation };
  });
  return { answers: usable.length, items: itemIds.length, metricName, dimensions, resamples };
}
