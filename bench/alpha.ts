/**
 * Benchmark for lib/stats alpha: run with `npx tsx bench/alpha.ts`.
 * Times Krippendorff's alpha on 1,000,000 ratings (200,000 units x 5 coders, 10 values) for the
 * interval, nominal and ordinal levels, the unit-resampling bootstrap (1,000 resamples) on
 * 10,000 units x 5 coders, and, as a reference in the same run, a plain pass that only sums the
 * 1,000,000 values, so the figures can be read as ratios. Each figure is the median of 5 runs
 * (21 for the reference pass) after one warm-up run.
 */
import { kendallTauAlphaMetric, permutationKey } from "@/lib/stats/kendall-tau-distance";
import { krippendorffAlpha, krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaBootstrap } from "@/lib/stats/krippendorff-alpha-bootstrap";
import { mulberry32, randomInt, type Rng } from "@/lib/stats/rng";

const RUNS = 5;

function medianTime(fn: () => unknown, runs = RUNS): { seconds: number; result: unknown } {
  let result = fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = fn();
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return { seconds: times[Math.floor(runs / 2)], result };
}

/** units x coders ratings on 1..10: a latent value per unit, each coder right 70% of the time. */
function makeUnits(rng: Rng, units: number, coders: number): number[][] {
  const out: number[][] = new Array(units);
  for (let u = 0; u < units; u++) {
    const t = 1 + randomInt(rng, 10);
    const row: number[] = new Array(coders);
    for (let c = 0; c < coders; c++) {
      const r = rng();
      row[c] = r < 0.7 ? t : r < 0.85 ? Math.min(10, Math.max(1, t + (rng() < 0.5 ? -1 : 1))) : 1 + randomInt(rng, 10);
    }
    out[u] = row;
  }
  return out;
}

function fmt(x: number, digits = 3): string {
  return x.toFixed(digits);
}

/** ratings = ratings processed (for a bootstrap: ratings x resamples, i.e. the work a naive recomputation would do). */
function line(label: string, seconds: number, ratings: number, extra = ""): void {
  const perSecond = ratings / seconds;
  console.log(
    `${label.padEnd(46)} ${fmt(seconds, 4).padStart(8)} s ${(perSecond / 1e6).toFixed(1).padStart(8)} M ratings/s ${(seconds / ref).toFixed(1).padStart(7)} x ref${extra}`,
  );
}

const rng = mulberry32(20240601);
const big = makeUnits(rng, 200_000, 5);
const ratings = 1_000_000;

const sumPass = medianTime(() => {
  let s = 0;
  for (let u = 0; u < big.length; u++) {
    const row = big[u];
    for (let c = 0; c < row.length; c++) s += row[c];
  }
  return s;
}, 21);
const ref = sumPass.seconds;

console.log(`node ${process.version}; median of ${RUNS} runs after a warm-up\n`);
console.log("1,000,000 ratings (200,000 units x 5 coders, values 1..10)");
line("ref: plain sum of the 1,000,000 values", ref, ratings, `  (sum ${String(sumPass.result)})`);
for (const level of ["interval", "nominal", "ordinal", "ratio"] as const) {
  const t = medianTime(() => krippendorffAlphaFromUnits(big, level));
  const a = (t.result as { alpha: number }).alpha;
  line(`alpha ${level} (units form)`, t.seconds, ratings, `  alpha = ${fmt(a, 4)}`);
}
const matrix = Array.from({ length: 5 }, (_, c) => big.map((unit) => unit[c]));
{
  const t = medianTime(() => krippendorffAlpha(matrix, "interval"));
  line("alpha interval (coders x units matrix form)", t.seconds, ratings);
}

console.log("\nbootstrap, 1,000 resamples of 10,000 units x 5 coders (50,000 ratings)");
const small = makeUnits(mulberry32(7), 10_000, 5);
for (const level of ["interval", "nominal", "ordinal"] as const) {
  const t = medianTime(() => krippendorffAlphaBootstrap(small, level, mulberry32(1), { resamples: 1000 }));
  const r = t.result as { ci: [number, number] };
  line(`unit bootstrap ${level}`, t.seconds, 50_000 * 1000, `  ci = [${fmt(r.ci[0], 4)}, ${fmt(r.ci[1], 4)}]`);
}
{
  const t = medianTime(() => krippendorffAlphaBootstrap(small, "interval", mulberry32(1), { resamples: 1000, method: "kalpha" }));
  const r = t.result as { ci: [number, number]; draws: number };
  line(`KALPHA bootstrap interval (M = ${r.draws})`, t.seconds, 50_000 * 1000, `  ci = [${fmt(r.ci[0], 4)}, ${fmt(r.ci[1], 4)}]`);
}

console.log("\ncustom metric: Kendall tau on permutations of length 6 (5,000 units x 3 coders)");
{
  const prng = mulberry32(3);
  const perm = (): number[] => {
    const p = [0, 1, 2, 3, 4, 5];
    for (let i = 5; i > 0; i--) {
      const j = randomInt(prng, i + 1);
      [p[i], p[j]] = [p[j], p[i]];
    }
    return p;
  };
  const units = Array.from({ length: 5000 }, () => {
    const truth = perm();
    return Array.from({ length: 3 }, () => {
      if (prng() < 0.75) return permutationKey(truth);
      const p = truth.slice();
      const i = randomInt(prng, 5);
      [p[i], p[i + 1]] = [p[i + 1], p[i]];
      return permutationKey(prng() < 0.8 ? p : perm());
    });
  });
  const metric = kendallTauAlphaMetric();
  const t = medianTime(() => krippendorffAlphaFromUnits(units, metric));
  const values = new Set(units.flat()).size;
  line(`alpha kendall-tau (V = ${values})`, t.seconds, 15_000, `  alpha = ${fmt((t.result as { alpha: number }).alpha, 4)}`);
  const b = medianTime(() => krippendorffAlphaBootstrap(units, metric, mulberry32(1), { resamples: 1000 }));
  const r = b.result as { ci: [number, number] };
  line("unit bootstrap kendall-tau, 1,000 resamples", b.seconds, 15_000 * 1000, `  ci = [${fmt(r.ci[0], 4)}, ${fmt(r.ci[1], 4)}]`);
}
console.log('\n"x ref": time divided by the time of the plain sum over the 1,000,000 values; bootstrap "ratings/s" counts ratings x resamples');
