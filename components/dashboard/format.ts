/** Number formats of the research views (pure; server and client components use them). */

/** 0.90384 -> "90.38" (percent, two decimals like the ENACT paper's tables) */
export function pct(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : (value * 100).toFixed(digits);
}

/** A metric's value as its kind shows it: a fraction in percent ("90.38"), points as they are (S_att 3.75 -> "3.75"). */
export function metricValue(value: number | null | undefined, scale: "fraction" | "points" = "fraction", digits = 2): string {
  if (scale === "fraction") return pct(value, digits);
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits);
}

/** A metric's interval as its kind shows it (see metricValue). */
export function metricInterval(ci: [number, number] | null | undefined, scale: "fraction" | "points" = "fraction", digits = 1): string {
  return ci ? `[${metricValue(ci[0], scale, digits)}, ${metricValue(ci[1], scale, digits)}]` : "";
}

/** [0.85, 0.94] -> "[85.1, 94.0]" */
export function pctInterval(ci: [number, number] | null | undefined, digits = 1): string {
  return ci ? `[${pct(ci[0], digits)}, ${pct(ci[1], digits)}]` : "";
}

/** alpha -> "0.8320"; null -> "–" */
export function fixed(value: number | null | undefined, digits = 4): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits);
}

export function interval(ci: [number, number] | null | undefined, digits = 4): string {
  return ci ? `[${ci[0].toFixed(digits)}, ${ci[1].toFixed(digits)}]` : "";
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
