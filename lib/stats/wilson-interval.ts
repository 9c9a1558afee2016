export interface WilsonInterval {
  /** The observed proportion successes / trials. */
  estimate: number;
  lower: number;
  upper: number;
}

/**
 * Wilson score interval: confidence interval for a binomial proportion, centre
 * (p + z^2/(2n)) / (1 + z^2/n) and half-width z / (1 + z^2/n) sqrt(p(1-p)/n + z^2/(4n^2)); z = 1.96
 * gives 95%. Unlike the Wald interval it stays inside [0, 1] and behaves at p = 0 or 1.
 * Source: Wilson 1927, "Probable inference, the law of succession, and statistical inference",
 * JASA 22(158); equals R's prop.test(x, n, correct = FALSE)$conf.int.
 * O(1).
 * @throws {Error} "wilsonInterval requires at least 1 trial", or successes outside 0..trials
 * @example
 * wilsonInterval(5, 10); // { estimate: 0.5, lower: 0.2365931..., upper: 0.7634068... }
 */
export function wilsonInterval(successes: number, trials: number, z = 1.96): WilsonInterval {
  if (!Number.isInteger(trials) || trials < 1) throw new Error("wilsonInterval requires at least 1 trial");
  if (!Number.isInteger(successes) || successes < 0 || successes > trials) {
    throw new Error(`wilsonInterval requires successes to be an integer from 0 to trials (got ${successes})`);
  }
  if (!(z > 0 && Number.isFinite(z))) throw new Error("wilsonInterval requires a positive z");
  const n = trials;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    estimate: p,
    lower: successes === 0 ? 0 : Math.max(0, centre - half),
    upper: successes === n ? 1 : Math.min(1, centre + half),
  };
}
