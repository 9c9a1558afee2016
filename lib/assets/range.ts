/**
 * The Range header of a GET, as RFC 9110 section 14 defines it, for one representation of `size`
 * bytes. Only byte ranges; only the first range of a multi-range request is served (a 206 with that
 * single range: allowed, since a server may ignore or coalesce ranges, section 14.2, and every
 * player asks for one range at a time). A header that does not parse is ignored (the whole body,
 * 200), as the RFC says; a range that parses but starts past the end is unsatisfiable (416).
 */
export type RangeRequest = { kind: "whole" } | { kind: "range"; start: number; end: number } | { kind: "unsatisfiable" };

/** Longest Range header read; a real one is under 40 characters. */
const MAX_RANGE_HEADER = 1_000;

const spec = /^\s*(\d*)\s*-\s*(\d*)\s*$/;

/**
 * `header` against a body of `size` bytes: "bytes=0-99" (first 100), "bytes=100-" (from 100 to the
 * end), "bytes=-100" (last 100); `end` is inclusive and clipped to size - 1.
 * @example
 * parseRange("bytes=-2", 10); // { kind: "range", start: 8, end: 9 }
 */
export function parseRange(header: string | null, size: number): RangeRequest {
  if (header === null || header.length > MAX_RANGE_HEADER) return { kind: "whole" };
  const eq = header.indexOf("=");
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== "bytes") return { kind: "whole" };
  const first = header.slice(eq + 1).split(",")[0];
  const match = spec.exec(first);
  if (!match || (match[1] === "" && match[2] === "")) return { kind: "whole" };
  const [from, to] = [match[1], match[2]];
  if (from === "") {
    // suffix: the last n bytes
    const n = Number(to);
    if (!Number.isSafeInteger(n)) return { kind: "whole" };
    if (n === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "range", start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(from);
  const last = to === "" ? Number.MAX_SAFE_INTEGER : Number(to);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(last)) return { kind: "whole" };
  if (last < start) return { kind: "whole" }; // invalid syntax: ignored (section 14.1.1)
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "range", start, end: Math.min(last, size - 1) };
}
