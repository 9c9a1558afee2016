/**
 * The text a stored dashboard view is kept as (DashboardIntervals.figures): JSON that gives back
 * what the page computed, value for value, where plain JSON would not: dates (a Date, not its
 * ISO string), numbers JSON cannot write (NaN, +-Infinity, -0), maps and sets. Object keys whose
 * value is undefined are left out, as JSON leaves them. Pure.
 */

const TAG = "$yardstick";

type Tagged = { [TAG]: "date"; at: number } | { [TAG]: "number"; text: string } | { [TAG]: "map"; entries: unknown[] } | { [TAG]: "set"; values: unknown[] };

function encodeValue(raw: unknown): unknown {
  if (raw instanceof Date) return { [TAG]: "date", at: raw.getTime() } satisfies Tagged;
  if (typeof raw === "number" && (!Number.isFinite(raw) || Object.is(raw, -0)))
    return { [TAG]: "number", text: Object.is(raw, -0) ? "-0" : String(raw) } satisfies Tagged;
  if (raw instanceof Map) return { [TAG]: "map", entries: [...raw.entries()] } satisfies Tagged;
  if (raw instanceof Set) return { [TAG]: "set", values: [...raw.values()] } satisfies Tagged;
  return undefined;
}

/**
 * Changes when what encodeStoredView writes changes, or what a view holds (3: the accuracy and
 * comparison rows by study condition): a row of another format is not read (its view is computed
 * again).
 */
export const STORED_VIEW_FORMAT = 3;

/** How every text encodeStoredView writes now begins: a row that begins otherwise is of another format. */
export const STORED_VIEW_PREFIX = `{"format":${STORED_VIEW_FORMAT},`;

export function encodeStoredView(value: unknown): string {
  return JSON.stringify({ format: STORED_VIEW_FORMAT, view: value }, function replacer(this: Record<string, unknown>, key: string, converted: unknown) {
    // `this[key]` is the value before toJSON (a Date's converted form is already its string)
    return key === "" ? converted : (encodeValue(this[key]) ?? converted);
  });
}

/** The stored value, or null when the text is of another format. */
export function decodeStoredView<T>(text: string): T | null {
  const stored = JSON.parse(text, (_key, value: unknown) => {
    if (!value || typeof value !== "object" || Array.isArray(value) || !(TAG in value)) return value;
    const tagged = value as Tagged;
    switch (tagged[TAG]) {
      case "date":
        return new Date(tagged.at);
      case "number":
        return tagged.text === "-0" ? -0 : Number(tagged.text);
      case "map":
        return new Map(tagged.entries as Array<[unknown, unknown]>);
      case "set":
        return new Set(tagged.values);
      default:
        return value;
    }
  }) as { format?: unknown; view?: unknown } | null;
  return stored && typeof stored === "object" && stored.format === STORED_VIEW_FORMAT ? (stored.view as T) : null;
}
