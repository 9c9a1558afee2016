/**
 * `yardstick alpha` as a user runs it, against a numpy process doing the same computation:
 *
 *   npx tsx bench/cli-alpha.ts [--runs 7]
 *
 * Times whole processes, start to exit, on a two-rating input and on 1,000,000 ratings (200,000
 * units x 5 coders, values 1..10, nominal): the built CLI (dist/cli/yardstick.mjs, what the
 * `yardstick` bin runs; built first when stale), the same through `npx yardstick`, the CLI as it
 * ran before it was built (transpiled by tsx at every call), and `python3 bench/cli-alpha-numpy.py`
 * (Debian's python3-numpy). Each figure is the median of --runs runs after one warm-up run, in
 * one run of this script, so the ratios to numpy hold on a loaded machine too; the alphas are
 * checked to agree.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { mulberry32, randomInt } from "@/lib/stats/rng";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 7;

spawnSync(process.execPath, [path.join(root, "scripts", "build-cli.mjs"), "--if-stale"], { cwd: root, stdio: "inherit" });

const dir = mkdtempSync(path.join(tmpdir(), "yardstick-cli-alpha-"));
const small = path.join(dir, "two.json");
writeFileSync(small, JSON.stringify({ data: [[1], [2]] }));
const large = path.join(dir, "million.json");
const rng = mulberry32(20240601);
const UNITS = 200_000;
const CODERS = 5;
const rows = Array.from({ length: CODERS }, () => new Array<number>(UNITS));
for (let u = 0; u < UNITS; u++) {
  const truth = 1 + randomInt(rng, 10);
  for (let c = 0; c < CODERS; c++) rows[c][u] = rng() < 0.8 ? truth : 1 + randomInt(rng, 10);
}
writeFileSync(large, JSON.stringify({ data: rows }));

interface Contender {
  label: string;
  command: string;
  argv: string[];
}
const alphaArgs = ["alpha", "--level", "nominal"];
const contenders: Contender[] = [
  { label: "yardstick alpha (built, the bin)", command: process.execPath, argv: [path.join(root, "dist", "cli", "yardstick.mjs"), ...alphaArgs] },
  { label: "npx yardstick alpha (built)", command: "npx", argv: ["--no-install", "yardstick", ...alphaArgs] },
  {
    label: "before: tsx cli/yardstick.ts",
    command: process.execPath,
    argv: ["--conditions=react-server", "--import", "tsx", path.join(root, "cli", "yardstick.ts"), ...alphaArgs],
  },
  { label: "numpy process", command: "python3", argv: [path.join(root, "bench", "cli-alpha-numpy.py")] },
];

function timeOnce(contender: Contender, input: string): { seconds: number; stdout: string } {
  const stdin = readFileSync(input);
  const started = performance.now();
  const result = spawnSync(contender.command, contender.argv, { cwd: root, input: stdin, encoding: "utf8", maxBuffer: 1 << 20 });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${contender.label} failed (${result.status}): ${result.stderr}`);
  return { seconds, stdout: result.stdout };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = new Map<string, { small: number; large: number; alpha: number | null }>();
for (const contender of contenders) {
  timeOnce(contender, small);
  const smallTimes: number[] = [];
  const largeTimes: number[] = [];
  let alpha: number | null = null;
  // interleave the two inputs so both see the same load
  for (let r = 0; r < RUNS; r++) {
    smallTimes.push(timeOnce(contender, small).seconds);
    const big = timeOnce(contender, large);
    largeTimes.push(big.seconds);
    alpha = (JSON.parse(big.stdout) as { alpha: number | null }).alpha;
  }
  results.set(contender.label, { small: median(smallTimes), large: median(largeTimes), alpha });
}
rmSync(dir, { recursive: true, force: true });

const numpy = results.get("numpy process")!;
const fmt = (s: number) => `${s.toFixed(3)} s`;
console.log(`median of ${RUNS} runs; ratio = time / the numpy process's time on the same input\n`);
console.log(`${"command".padEnd(36)}${"2 ratings".padStart(12)}${"ratio".padStart(8)}${"1,000,000 ratings".padStart(20)}${"ratio".padStart(8)}`);
for (const [label, r] of results) {
  console.log(
    `${label.padEnd(36)}${fmt(r.small).padStart(12)}${(r.small / numpy.small).toFixed(2).padStart(8)}${fmt(r.large).padStart(20)}${(r.large / numpy.large).toFixed(2).padStart(8)}`,
  );
}
const alphas = [...results.values()].map((r) => r.alpha);
const agree = alphas.every((a) => a !== null && Math.abs(a - alphas[0]!) < 1e-9);
console.log(`\nalpha on 1,000,000 ratings: ${alphas[0]} (${agree ? "all agree" : `DISAGREE: ${alphas.join(", ")}`})`);
if (!agree) process.exitCode = 1;
