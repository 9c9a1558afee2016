import { z } from "zod";
import { parseFlags } from "@/lib/cli/flags";
import type { AlphaLevel } from "@/lib/stats/alpha-coincidences";
import { krippendorffAlpha, reliabilityMatrixToUnits } from "@/lib/stats/krippendorff-alpha";
import { krippendorffAlphaBootstrap } from "@/lib/stats/krippendorff-alpha-bootstrap";
import { mulberry32 } from "@/lib/stats/rng";

const USAGE = "usage: yardstick alpha --level <nominal|ordinal|interval|ratio> [--bootstrap N] [--seed S] < data.json";

const cellSchema = z.union([z.number(), z.string(), z.null()], {
  error: "expected a number, a string or null",
});

const inputSchema = z.strictObject(
  {
    data: z
      .array(z.array(cellSchema, { error: "expected an array of values (one coder's row)" }), {
        error: "expected an array of coder rows",
      })
      .min(2, { error: "expected at least 2 coder rows" }),
  },
  { error: 'expected a JSON object like {"data": [[...], ...]}' },
);

const optionsSchema = z.object({
  level: z.enum(["nominal", "ordinal", "interval", "ratio"], {
    error: "--level is required and must be one of nominal, ordinal, interval, ratio",
  }),
  bootstrap: z
    .number({ error: "--bootstrap must be a whole number from 1 to 1000000" })
    .int({ error: "--bootstrap must be a whole number from 1 to 1000000" })
    .min(1, { error: "--bootstrap must be a whole number from 1 to 1000000" })
    .max(1_000_000, { error: "--bootstrap must be a whole number from 1 to 1000000" })
    .optional(),
  seed: z.number({ error: "--seed must be a whole number" }).int({ error: "--seed must be a whole number" }).optional(),
});

function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return "input";
  let s = "";
  for (const part of path) s += typeof part === "number" ? `[${part}]` : s === "" ? String(part) : `.${String(part)}`;
  return s;
}

function formatIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") {
    return `input: unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")} (expected only "data")`;
  }
  return `${fieldPath(issue.path)}: ${issue.message}`;
}

function parseAlphaArgs(args: string[]): { level?: string; bootstrap?: number; seed?: number } {
  const { flags } = parseFlags(args, ["level", "bootstrap", "seed"], USAGE, "strict");
  const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : /^-?\d+$/.test(s) ? Number(s) : NaN);
  return { level: flags.level, bootstrap: num(flags.bootstrap), seed: num(flags.seed) };
}

/**
 * `yardstick alpha`: reads `{"data": [[...], ...]}` (one row per coder, one column per unit,
 * null = missing; numbers or strings) and returns one JSON line (no trailing newline)
 * `{"alpha": a, "units": u, "pairable": n}`, with `"ci": [lo, hi]` (95% percentile bootstrap over
 * units, --bootstrap resamples, --seed default 1) when --bootstrap is given, and `"reason"` when
 * alpha is undefined (then alpha is null and ci, if asked for, is null).
 * Source: Krippendorff 2011 (alpha); unit-resampling percentile bootstrap (Efron & Tibshirani 1993).
 * O(R + V^2) plus O(N (U + V^2)) for N resamples.
 * @throws {Error} with a message naming the argument or the input field at fault
 * @example
 * runAlphaCommand(["--level", "nominal"], '{"data": [[1, 2], [1, 2]]}'); // '{"alpha":1,"units":2,"pairable":4}'
 */
export function runAlphaCommand(args: string[], stdinText: string): string {
  const parsedArgs = optionsSchema.safeParse(parseAlphaArgs(args));
  if (!parsedArgs.success) throw new Error(`${parsedArgs.error.issues[0].message} (${USAGE})`);
  const { level, bootstrap, seed } = parsedArgs.data;

  let json: unknown;
  try {
    json = JSON.parse(stdinText);
  } catch (e) {
    throw new Error(`input: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = inputSchema.safeParse(json);
  if (!parsed.success) throw new Error(parsed.error.issues.slice(0, 3).map(formatIssue).join("; "));
  const data = parsed.data.data;
  for (let r = 1; r < data.length; r++) {
    if (data[r].length !== data[0].length) {
      throw new Error(`data[${r}]: expected ${data[0].length} units like data[0], got ${data[r].length}`);
    }
  }

  const lvl = level as AlphaLevel;
  try {
    if (bootstrap === undefined) {
      const result = krippendorffAlpha(data, lvl);
      return JSON.stringify({
        alpha: result.alpha,
        units: result.units,
        pairable: result.n,
        ...(result.reason !== undefined ? { reason: result.reason } : {}),
      });
    }
    const units = reliabilityMatrixToUnits(data, "yardstick alpha");
    const boot = krippendorffAlphaBootstrap(units, lvl, mulberry32(seed ?? 1), { resamples: bootstrap });
    const est = boot.estimate;
    return JSON.stringify({
      alpha: est.alpha,
      units: est.units,
      pairable: est.n,
      ci: boot.ci,
      ...(est.reason !== undefined ? { reason: est.reason } : boot.reason !== undefined ? { reason: boot.reason } : {}),
    });
  } catch (e) {
    throw new Error(`data: ${e instanceof Error ? e.message : String(e)}`);
  }
}
