/**
 * Numbers in the report's words (browser-safe, pure): counts with thousands separators, shares in
 * percent, a spread as mean (min-max), and a comparison figure on its metric's scale (a share's
 * difference in percentage points).
 */

export function count(n: number): string {
  return n.toLocaleString("en-US");
}

export function percent(part: number, whole: number): string {
  if (whole === 0) return "n/a";
  return `${((100 * part) / whole).toFixed(1)}% (${count(part)} of ${count(whole)})`;
}

export function spread(values: readonly number[]): string {
  if (values.length === 0) return "none";
  const total = values.reduce((sum, v) => sum + v, 0);
  const mean = total / values.length;
  return `mean ${mean.toFixed(1)} (min ${count(Math.min(...values))}, max ${count(Math.max(...values))}; ${count(values.length)} ${values.length === 1 ? "value" : "values"})`;
}

export function minutes(ms: number): string {
  return `${(ms / 60000).toFixed(1)} min`;
}

/** A figure of a comparison: a share in percent (its difference in points), else on the metric's own scale. */
export function figure(value: number | null, proportion: boolean, difference = false): string {
  if (value === null) return "n/a";
  if (proportion) return `${(100 * value).toFixed(1)}${difference ? " points" : "%"}`;
  return value.toFixed(3);
}

export function interval(ci: readonly [number, number] | null, proportion: boolean): string {
  if (!ci) return "";
  return ` [${figure(ci[0], proportion).replace(/%$/u, "")}, ${figure(ci[1], proportion).replace(/%$/u, "")}]`;
}

export function pValue(p: number | null): string {
  if (p === null) return "n/a";
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}
