/**
 * Coverage of the two-way intervals by simulation, the figures docs/intervals.md quotes: run with
 * `npx tsx bench/crossed-coverage.ts`. The same studies (regimes, sizes, seeds) as
 * lib/stats/two-way-coverage.test.ts, which asserts 93-97%; this prints every figure, the
 * items-only setting's too, and the planner's predicted half-width beside the simulated median.
 */
import { COVERAGE_REGIMES, crossedCoverage, regimeSpec, simulateCrossedStudy, type CoverageIntervals } from "@/lib/stats/crossed-simulation";
import { pairedDifference } from "@/lib/stats/paired-difference";
import { mulberry32 } from "@/lib/stats/rng";
import { peopleForHalfWidth, predictedHalfWidth } from "@/lib/stats/study-planner";
import { twoWayMeanInterval, twoWayProportionInterval } from "@/lib/stats/two-way-cluster-variance";
import { varianceComponents } from "@/lib/stats/variance-components";

const intervals: CoverageIntervals = {
  proportion: (answers, over) => twoWayProportionInterval(answers, over).ci,
  mean: (answers, over) => twoWayMeanInterval(answers, over).ci,
  difference: (answers, model, over) => pairedDifference(answers, model, over).ci,
};
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const regimes = Object.keys(COVERAGE_REGIMES) as Array<keyof typeof COVERAGE_REGIMES>;

console.log("| figure | regime (sd person, sd item) | two-way: people's figure | items only | two-way: difference | items only |");
console.log("|---|---|---|---|---|---|");
for (const outcome of ["logistic", "gaussian"] as const) {
  for (const regime of regimes) {
    const r = crossedCoverage(regimeSpec(regime, outcome), 1000, 20_240_933, intervals);
    const { sPerson, sItem } = COVERAGE_REGIMES[regime];
    console.log(
      `| ${outcome === "logistic" ? "proportion" : "mean"} | ${regime} (${sPerson}, ${sItem}) | ${pct(r.humans.twoWay)} | ${pct(r.humans.itemsOnly)} | ${pct(r.difference.twoWay)} | ${pct(r.difference.itemsOnly)} |`,
    );
  }
}

console.log(
  "\n| regime | pilot components (items, people, residual) | people for h <= 0.08 (20 of 40 items each) | predicted half-width | simulated median (300 studies) |",
);
console.log("|---|---|---|---|---|");
for (const regime of regimes) {
  const pilot = simulateCrossedStudy(regimeSpec(regime, "logistic", { people: 30, items: 40 }), mulberry32(5));
  const c = varianceComponents(pilot.answers);
  const components = { items: c.items!, people: c.people!, residual: c.residual! };
  const plan = peopleForHalfWidth(components, 40, 20, 0.08);
  const predicted = predictedHalfWidth(components, { items: 40, people: plan.people!, itemsPerPerson: 20 });
  const simulated = crossedCoverage(
    regimeSpec(regime, "logistic", { people: plan.people!, items: 40, itemsPerPerson: 20 }),
    300,
    77,
    intervals,
  ).medianHalfWidth;
  console.log(
    `| ${regime} | ${[components.items, components.people, components.residual].map((v) => v.toFixed(4)).join(", ")} | ${plan.people} | ${predicted.toFixed(4)} | ${simulated.toFixed(4)} |`,
  );
}
