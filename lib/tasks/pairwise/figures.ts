import { bradleyTerry, type PairwiseComparison } from "@/lib/stats/bradley-terry";
import { percentileInterval } from "@/lib/stats/bootstrap-ci";
import { pearsonCorrelation } from "@/lib/stats/pearson-correlation";
import { spearmanCorrelation } from "@/lib/stats/spearman-correlation";
import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import { crossedMean, crossedMethod } from "@/lib/stats/crossed-interval";
import { crossedIndexes, forEachPigeonholeResample } from "@/lib/stats/pigeonhole-bootstrap";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";
import type { PairwiseAnswer, PairwisePublic } from "@/lib/tasks/pairwise";

/**
 * The pairwise section's figures (pure). Per dimension, over people's answers to items that name
 * their models: each model's comparisons, win rate (ties half) and Bradley-Terry strength (MM,
 * lib/stats/bradley-terry.ts; normalised to sum 1), with 95 % intervals over people and items (or
 * items only, the study's "generalise over"): the win rate, a mean of 1 / 0.5 / 0 per comparison,
 * estimate +- t sqrt(V) with V the two-way cluster-robust variance (lib/stats/crossed-interval.ts);
 * the strength, a non-linear fit, the percentile pigeonhole bootstrap (items and people drawn
 * independently, each answer weighted by the product of its draws; lib/stats/pigeonhole-bootstrap.ts),
 * "one item" / "one person" in words where one says nothing; the
 * share of non-tie choices that went to the side shown first (position bias); and, when items
 * carry an automatic metric, its mean per model beside the human strength, with Pearson and
 * Spearman correlations across models (per dimension).
 */

export interface PairwiseRow {
  itemId: string;
  /** who answered; absent: one anonymous judge */
  person?: string | null;
  answer: PairwiseAnswer;
  /** the side shown first (left / top) to this person, from media_sides; null when unknown */
  left: "a" | "b" | null;
}

export interface ModelFigure {
  model: string;
  comparisons: number;
  winRate: number | null;
  winRateCi: [number, number] | null;
  /** why the win rate has no interval ("one item", "one person", "no spread") */
  winRateReason?: string;
  strength: number | null;
  strengthCi: [number, number] | null;
  /** why the strength has no interval ("one item", "one person") */
  strengthCiReason?: string;
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
  /** what the intervals generalise over (the study setting), and the methods in words */
  over: GeneraliseOver;
  method: { winRate: string; strength: string };
  answers: number;
  items: number;
  /** people behind the answers */
  people: number;
  metricName: string | null;
  dimensions: DimensionFigures[];
  resamples: number;
}

type ItemInfo = Pick<PairwisePublic, "dimensions" | "models" | "metric">;

export function pairwiseFigures(
  itemsById: ReadonlyMap<string, ItemInfo>,
  rows: readonly PairwiseRow[],
  seed: string,
  resamples: number,
  over: GeneraliseOver = "people+items",
): PairwiseFigures {
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
  const people = new Set(usable.map((row) => row.person ?? "")).size;
  const metricMean = (model: string) => {
    const values = metricByModel.get(model);
    return values?.length ? values.reduce((sum, value) => sum + value, 0) / values.length : null;
  };

  const dimensions: DimensionFigures[] = [...dimensionOrder.entries()].map(([id, label]) => {
    // one comparison per answer of this dimension, with its item and person (the clusters)
    const comparisons: Array<PairwiseComparison & { item: string; person: string }> = [];
    let ties = 0;
    let firstChosen = 0;
    let firstOf = 0;
    for (const row of usable) {
      const value = row.answer.prefs[id];
      if (value === undefined) continue;
      const pair = itemsById.get(row.itemId)!.models!;
      comparisons.push({
        i: modelIndex.get(pair.a)!,
        j: modelIndex.get(pair.b)!,
        outcome: value === "a" ? 1 : value === "b" ? 0 : 0.5,
        item: row.itemId,
        person: row.person ?? "",
      });
      if (value === "tie") ties++;
      else if (row.left) {
        firstOf++;
        if (value === row.left) firstChosen++;
      }
    }
    const k = models.length;
    // win rate: each comparison the model took part in scores it 1, 0.5 (a tie) or 0
    const rates = models.map((_, index) =>
      crossedMean(
        comparisons.flatMap((c) =>
          c.i === index ? [{ item: c.item, person: c.person, num: c.outcome }] : c.j === index ? [{ item: c.item, person: c.person, num: 1 - c.outcome }] : [],
        ),
        over,
      ),
    );
    const full = k > 0 ? bradleyTerry(k, comparisons) : null;
    const strengthReplicates: number[][] = Array.from({ length: k }, () => []);
    let strengthResamples: DimensionFigures["strengthResamples"] = null;
    const input = crossedIndexes(
      comparisons,
      (c) => c.item,
      (c) => c.person,
    );
    const strengthNoInterval = input.items < 2 ? "one item" : over === "people+items" && input.people < 2 ? "one person" : null;
    if (k > 1 && comparisons.length > 0 && strengthNoInterval === null && full?.strengths) {
      const rng = mulberry32(seedFromString(`${seed}|pairwise|${id}`));
      const tally = { fitted: 0, unfitted: 0 };
      strengthResamples = tally;
      forEachPigeonholeResample(input, rng, resamples, over, (weights) => {
        const boot = bradleyTerry(
          k,
          comparisons.map((c, a) => ({ ...c, weight: weights[a] })),
          { tolerance: 1e-9, maxIterations: 2_000 },
        );
        if (boot.strengths) {
          tally.fitted++;
          boot.strengths.forEach((strength, index) => strengthReplicates[index].push(strength));
        } else tally.unfitted++;
      });
    }
    const ci = (replicates: number[]): [number, number] | null => {
      if (replicates.length < 2) return null;
      const interval = percentileInterval(Float64Array.from(replicates).sort(), 0.95);
      return interval[0] === interval[1] ? null : interval;
    };
    const figures: ModelFigure[] = models.map((model, index) => {
      const rate = rates[index];
      const strengthCi = ci(strengthReplicates[index]);
      return {
        model,
        comparisons: full?.comparisons[index] ?? 0,
        winRate: rate.estimate,
        winRateCi: rate.ci,
        ...(rate.ci === null && rate.estimate !== null ? { winRateReason: rate.reason } : {}),
        strength: full?.strengths?.[index] ?? null,
        strengthCi,
        ...(strengthCi === null && full?.strengths ? { strengthCiReason: strengthNoInterval ?? "no spread" } : {}),
        metric: metricMean(model),
      };
    });
    const paired = figures.filter((figure) => figure.strength !== null && figure.metric !== null);
    const correlation =
      metricName === null
        ? null
        : {
            n: paired.length,
            pearson:
              paired.length >= 3
                ? pearsonCorrelation(
                    paired.map((f) => Math.log(f.strength!)),
                    paired.map((f) => f.metric!),
                  )
                : null,
            spearman:
              paired.length >= 3
                ? spearmanCorrelation(
                    paired.map((f) => f.strength!),
                    paired.map((f) => f.metric!),
                  )
                : null,
          };
    return {
      id,
      label,
      answers: comparisons.length,
      ties,
      models: figures,
      ...(full && !full.strengths ? { strengthReason: full.reason } : {}),
      strengthResamples,
      firstShown: { chosen: firstChosen, of: firstOf },
      correlation,
    };
  });
  return {
    over,
    method: {
      winRate: crossedMethod(over, "mean"),
      strength:
        over === "people+items"
          ? "95% percentile pigeonhole bootstrap (Owen 2007): items and people drawn independently"
          : "95% percentile bootstrap over items (these people taken as the population)",
    },
    answers: usable.length,
    items: itemIds.length,
    people,
    metricName,
    dimensions,
    resamples,
  };
}
