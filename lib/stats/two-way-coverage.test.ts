import { describe, expect, it } from "vitest";
import { COVERAGE_REGIMES, crossedCoverage, regimeSpec, simulateCrossedStudy, type CoverageIntervals } from "@/lib/stats/crossed-simulation";
import { pairedDifference } from "@/lib/stats/paired-difference";
import { mulberry32 } from "@/lib/stats/rng";
import { peopleForHalfWidth, predictedHalfWidth } from "@/lib/stats/study-planner";
import { twoWayMeanInterval, twoWayProportionInterval } from "@/lib/stats/two-way-cluster-variance";
import { varianceComponents } from "@/lib/stats/variance-components";

/**
 * Coverage by simulation: crossed studies (20 people x 40 items) drawn from known person, item and
 * residual components; each 95% interval should hold the population value (over both the person
 * and the item populations, by numerical integration: populationValues) in 93-97% of 1,000
 * studies (the Monte Carlo standard error of a share near 0.95 is 0.7 points).
 */

const intervals: CoverageIntervals = {
  proportion: (answers, over) => twoWayProportionInterval(answers, over).ci,
  mean: (answers, over) => twoWayMeanInterval(answers, over).ci,
  difference: (answers, model, over) => pairedDifference(answers, model, over).ci,
};

const regimes = Object.keys(COVERAGE_REGIMES) as Array<keyof typeof COVERAGE_REGIMES>;
const STUDIES = 1000;

describe("two-way intervals cover the population value (1,000 seeded studies a regime)", () => {
  for (const outcome of ["logistic", "gaussian"] as const) {
    for (const regime of regimes) {
      it(`${outcome === "logistic" ? "a proportion" : "a mean"}, ${regime}-dominated: people's figure and the difference from the model`, () => {
        const result = crossedCoverage(regimeSpec(regime, outcome), STUDIES, 20_240_933, intervals);
        expect(result.humans.twoWay).toBeGreaterThanOrEqual(0.93);
        expect(result.humans.twoWay).toBeLessThanOrEqual(0.97);
        expect(result.difference.twoWay).toBeGreaterThanOrEqual(0.93);
        expect(result.difference.twoWay).toBeLessThanOrEqual(0.97);
        if (regime === "people") {
          // these people taken as the population: far too narrow when people differ most
          expect(result.humans.itemsOnly).toBeLessThan(0.8);
          expect(result.difference.itemsOnly).toBeLessThan(result.difference.twoWay - 0.03);
        }
      }, 30_000);
    }
  }
});

describe("the planner's predicted half-width at its recommended size", () => {
  for (const regime of regimes) {
    it(`${regime}-dominated proportion, 40 items, 20 items a person: within 20% of the simulated median`, () => {
      // a pilot of 30 people x 40 items gives the components
      const pilot = simulateCrossedStudy(regimeSpec(regime, "logistic", { people: 30, items: 40 }), mulberry32(5));
      const c = varianceComponents(pilot.answers);
      const components = { items: c.items!, people: c.people!, residual: c.residual! };
      const plan = peopleForHalfWidth(components, 40, 20, 0.08);
      expect(plan.people).not.toBeNull();
      const predicted = predictedHalfWidth(components, { items: 40, people: plan.people!, itemsPerPerson: 20 });
      expect(predicted).toBeLessThanOrEqual(0.08);
      const simulated = crossedCoverage(
        regimeSpec(regime, "logistic", { people: plan.people!, items: 40, itemsPerPerson: 20 }),
        300,
        77,
        intervals,
      ).medianHalfWidth;
      expect(Math.abs(predicted - simulated) / simulated).toBeLessThan(0.2);
    }, 30_000);
  }
});
