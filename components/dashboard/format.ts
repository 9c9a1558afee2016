/** Number formats of the research views (pure; server and client components use them). */
import { INTERVAL_COMPUTING } from "@/lib/dashboard/constants";

/** 0.90384 -> "90.38" (percent, two decimals like the ENACT paper's tables) */
export function pct(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : (value * 100).toFixed(digits);
}

/** pct with its unit, "42.0%", for cells whose column does not say "%" ("–" when missing). */
export function pctWithUnit(value: number | null | undefined, digits = 1): string {
  const text = pct(value, digits);
  return text === "–" ? text : `${text}%`;
}

/**
 * What stands for a missing interval: "n/a (<reason>)", or "" without a reason. A zero-width
 * interval is never written as one ([0.4343, 0.4343] says nothing): the figures name why (one
 * item: "n/a (one item)"); without a reason it is "n/a (no spread)".
 */
function missingInterval(ci: [number, number] | null | undefined, reason: string | undefined): string | null {
  if (ci && ci[0] !== ci[1]) return null;
  if (!ci && reason === INTERVAL_COMPUTING) return "computing…";
  if (ci) return `n/a (${reason ?? "no spread"})`;
  return reason ? `n/a (${reason})` : "";
}

/** A metric's value as its kind shows it: a fraction in percent ("90.38"), points as they are (S_att 3.75 -> "3.75"). */
export function metricValue(value: number | null | undefined, scale: "fraction" | "points" = "fraction", digits = 2): string {
  if (scale === "fraction") return pct(value, digits);
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits);
}

/** A metric's interval as its kind shows it (see metricValue); none (with its reason) -> "n/a (one item)" */
export function metricInterval(ci: [number, number] | null | undefined, scale: "fraction" | "points" = "fraction", digits = 1, reason?: string): string {
  return missingInterval(ci, reason) ?? `[${metricValue(ci![0], scale, digits)}, ${metricValue(ci![1], scale, digits)}]`;
}

/** [0.85, 0.94] -> "[85.1, 94.0]"; none (with its reason) -> "n/a (one item)" */
export function pctInterval(ci: [number, number] | null | undefined, digits = 1, reason?: string): string {
  return metricInterval(ci, "fraction", digits, reason);
}

/** alpha -> "0.8320"; null -> "–" */
export function fixed(value: number | null | undefined, digits = 4): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits);
}

/** [0.78791, 0.86824] -> "[0.7879, 0.8682]"; none (with its reason) -> "n/a (one item)" */
export function interval(ci: [number, number] | null | undefined, digits = 4, reason?: string): string {
  return missingInterval(ci, reason) ?? `[${ci![0].toFixed(digits)}, ${ci![1].toFixed(digits)}]`;
}

/** A bootstrap p-value: "p=0.042"; "p<0.001" when it is only known to lie below 1/B (never "p=0"). */
export function pValueText(pValue: number, below: boolean): string {
  if (below) return `p<${Number(pValue.toPrecision(3))}`;
  return pValue < 0.001 ? "p<0.001" : `p=${pValue.toFixed(3)}`;
}

/** 12345 ms -> "12.3 s"; 95000 -> "1 min 35 s" */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - 60 * m)} s`;
}

export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** "184 of 240 items (76.67%)" */
export function share(agreeing: number, total: number, noun: string): string {
  return `${count(agreeing)} of ${count(total)} ${noun}${total === 1 ? "" : "s"}${total > 0 ? ` (${pct(agreeing / total)}%)` : ""}`;
}
