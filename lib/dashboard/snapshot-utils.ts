/** Pure helpers shared by the snapshot loader and the computations. */

export type Tags = Record<string, string | number | boolean>;

/** The value of tag `key` on an item as text ("3"), or null when the item has no such tag. */
export function tagValue(tags: Tags, key: string | null): string | null {
  if (!key) return null;
  const value = tags[key];
  return value === undefined || value === null ? null : String(value);
}

/** Tag values in display order: numbers numerically, then text. */
export function compareTagValues(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  const xn = a.trim() !== "" && Number.isFinite(x);
  const yn = b.trim() !== "" && Number.isFinite(y);
  if (xn && yn) return x - y;
  if (xn) return -1;
  if (yn) return 1;
  return a.localeCompare(b);
}
