import type { AlphaValue, CustomAlphaMetric } from "@/lib/stats/alpha-coincidences";

/**
 * A permutation of 0..n-1 as an array of indices, or as a string such as "2,0,1" or "[2, 0, 1]".
 * Read like an ENACT answer: entry i is the item placed at position i.
 */
export type PermutationInput = readonly number[] | string;

/**
 * Parse permutation: reads a permutation given as an array of indices or a string like "2,0,1"
 * (brackets and spaces allowed) and checks that it holds each of 0..n-1 exactly once.
 * Source: definition of a permutation of {0, ..., n-1}.
 * O(n).
 * @throws {Error} "parsePermutation requires a permutation of 0..n-1" with the offending input
 * @example
 * parsePermutation("[2, 0, 1]"); // [2, 0, 1]
 */
export function parsePermutation(p: PermutationInput, fnName = "parsePermutation"): number[] {
  let arr: number[];
  if (typeof p === "string") {
    const body = p.trim().replace(/^\[/, "").replace(/\]$/, "").trim();
    arr = body === "" ? [] : body.split(",").map((s) => (/^\s*-?\d+\s*$/.test(s) ? Number(s) : NaN));
  } else if (Array.isArray(p)) {
    arr = p.slice();
  } else {
    throw new Error(`${fnName} requires a permutation as an array of indices or a string like "2,0,1"`);
  }
  const n = arr.length;
  const seen = new Uint8Array(n);
  for (const x of arr) {
    if (!Number.isInteger(x) || x < 0 || x >= n || seen[x]) {
      throw new Error(`${fnName} requires a permutation of 0..n-1 (got ${typeof p === "string" ? `"${p}"` : `[${p.join(",")}]`})`);
    }
    seen[x] = 1;
  }
  return arr;
}

/**
 * Permutation key: the canonical string form "2,0,1" of a permutation, for use as an alpha value
 * (equal permutations give equal strings, so nominal alpha and perfect agreement work on them).
 * Source: n/a (canonical encoding).
 * O(n).
 * @throws {Error} as parsePermutation
 * @example
 * permutationKey("[2, 0, 1]"); // "2,0,1"
 */
export function permutationKey(p: PermutationInput): string {
  return parsePermutation(p, "permutationKey").join(",");
}

function countInversions(a: Int32Array): number {
  const n = a.length;
  let src: Int32Array = a;
  let dst: Int32Array = new Int32Array(n);
  let inv = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (src[i] <= src[j]) dst[k++] = src[i++];
        else {
          inv += mid - i;
          dst[k++] = src[j++];
        }
      }
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return inv;
}

/**
 * Kendall tau discordant pairs: the number of item pairs {i, j} that the two permutations put in
 * opposite order, computed on rank vectors (rank[item] = position), not on the sequences of ids
 * read as numbers. Counted as the inversions of rankB listed in A's order, by merge sort.
 * Source: Kendall 1938, "A new measure of rank correlation", Biometrika 30; Knight 1966
 * (O(n log n) counting by merge sort).
 * O(n log n).
 * @throws {Error} "kendallTauDiscordantPairs requires permutations of equal length", or an invalid permutation
 * @example
 * kendallTauDiscordantPairs([1, 2, 0], [1, 0, 2]); // 1
 */
export function kendallTauDiscordantPairs(a: PermutationInput, b: PermutationInput): number {
  const fnName = "kendallTauDiscordantPairs";
  return discordantPairs(parsePermutation(a, fnName), parsePermutation(b, fnName), fnName);
}

function discordantPairs(pa: number[], pb: number[], fnName: string): number {
  if (pa.length !== pb.length) {
    throw new Error(`${fnName} requires permutations of equal length (got ${pa.length} and ${pb.length})`);
  }
  const n = pa.length;
  const rankB = new Int32Array(n);
  for (let pos = 0; pos < n; pos++) rankB[pb[pos]] = pos;
  const seq = new Int32Array(n);
  for (let pos = 0; pos < n; pos++) seq[pos] = rankB[pa[pos]];
  return countInversions(seq);
}

/**
 * Normalised Kendall tau distance: discordant item pairs / (n(n-1)/2), from 0 (same order) to
 * 1 (reversed). Permutations of length 0 or 1 have no pairs and are at distance 0.
 * Source: Kendall 1938; Fagin, Kumar & Sivakumar 2003, "Comparing top k lists", section 2.
 * O(n log n).
 * @throws {Error} "kendallTauDistance requires permutations of equal length", or an invalid permutation
 * @example
 * kendallTauDistance("0,1,2,3", "3,2,1,0"); // 1
 */
export function kendallTauDistance(a: PermutationInput, b: PermutationInput): number {
  const fnName = "kendallTauDistance";
  const pa = parsePermutation(a, fnName);
  const d = discordantPairs(pa, parsePermutation(b, fnName), fnName);
  const n = pa.length;
  return n < 2 ? 0 : d / ((n * (n - 1)) / 2);
}

/**
 * Kendall tau delta squared: the custom alpha metric difference for permutation answers written as
 * strings "2,0,1": delta^2(a, b) = kendallTauDistance(a, b), deliberately NOT squared again.
 * Why: Kendall's distance is the Hamming distance between the pair-order indicator vectors
 * x(a) in {0,1}^P (P = n(n-1)/2, x_ij(a) = 1 when a puts item i before item j), divided by P, and
 * the Hamming distance of 0/1 vectors equals their squared Euclidean distance. So d_K is already a
 * squared difference, exactly like Krippendorff's interval delta^2 = (c - k)^2, and alpha with it
 * is the interval alpha of the indicator vectors (within-unit over total variance). Squaring it
 * again would make it a fourth power of that distance. This also matches
 * kendall-permutation-alpha.ts, so both routes give the same alpha. Pass { squared: true } to
 * kendallTauAlphaMetric for d_K^2.
 * Source: Krippendorff 2011, section E (delta^2 as squared difference); Kendall 1938; Diaconis 1988,
 * "Group Representations in Probability and Statistics", ch. 6 (Kendall distance as a Hamming
 * distance on pair indicators).
 * O(n log n).
 * @throws {Error} for numbers or permutations of different lengths (compute alpha per length,
 *   or use kendallTauAlphaMetric({ unequalLength: "maximal" }))
 * @example
 * kendallTauDeltaSquared("0,1,2", "1,0,2"); // 1/3
 */
export function kendallTauDeltaSquared(a: AlphaValue, b: AlphaValue): number {
  if (typeof a !== "string" || typeof b !== "string") {
    throw new Error('kendallTauDeltaSquared requires permutations written as strings like "2,0,1"');
  }
  return kendallTauDistance(a, b);
}

interface ParsedPermutation {
  seq: number[];
  rank: Int32Array;
}

/** Discordant item pairs from parsed permutations: O(n^2) direct count for short ones, else merge sort. */
function discordantParsed(a: ParsedPermutation, b: ParsedPermutation): number {
  const n = a.seq.length;
  if (n <= 32) {
    const ra = a.rank;
    const rb = b.rank;
    let d = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) if ((ra[i] - ra[j]) * (rb[i] - rb[j]) < 0) d++;
    }
    return d;
  }
  const seq = new Int32Array(n);
  for (let pos = 0; pos < n; pos++) seq[pos] = b.rank[a.seq[pos]];
  return countInversions(seq);
}

/**
 * Kendall tau alpha metric: the custom metric { name, deltaSquared } for permutation answers
 * written as strings "2,0,1", delta^2 = kendallTauDistance (see kendallTauDeltaSquared for why it
 * is not squared again; { squared: true } gives kendallTauDistance^2). Each distinct string is
 * parsed once and kept (with its rank vector) for the life of the returned metric, since alpha calls deltaSquared for every pair of distinct values.
 * unequalLength "error" (default) throws when two values differ in length (the expected
 * disagreement pairs values across units, so pooled items of different lengths would fail: run
 * alpha per length). "maximal" scores such pairs at distance 1 (delta^2 = 1), which treats a
 * different length as total disagreement and inflates the expected disagreement; with
 * squared false this is the metric of kendall-permutation-alpha.ts.
 * Source: Krippendorff 2011, section E; Kendall 1938.
 * O(n) per new string, then O(n^2) per call for n <= 32 and O(n log n) beyond.
 * @example
 * krippendorffAlphaFromUnits(units, kendallTauAlphaMetric());
 */
export function kendallTauAlphaMetric(options: { unequalLength?: "error" | "maximal"; squared?: boolean } = {}): CustomAlphaMetric {
  const unequal = options.unequalLength ?? "error";
  const squared = options.squared ?? false;
  if (unequal !== "error" && unequal !== "maximal") {
    throw new Error(`kendallTauAlphaMetric requires unequalLength "error" or "maximal" (got ${String(unequal)})`);
  }
  const fnName = "kendallTauDeltaSquared";
  const cache = new Map<string, ParsedPermutation>();
  const get = (v: AlphaValue): ParsedPermutation => {
    if (typeof v !== "string") throw new Error(`${fnName} requires permutations written as strings like "2,0,1"`);
    let p = cache.get(v);
    if (p === undefined) {
      const seq = parsePermutation(v, fnName);
      const rank = new Int32Array(seq.length);
      for (let pos = 0; pos < seq.length; pos++) rank[seq[pos]] = pos;
      p = { seq, rank };
      cache.set(v, p);
    }
    return p;
  };
  return {
    name: `kendall-tau${squared ? " squared" : ""}${unequal === "maximal" ? " (unequal lengths at distance 1)" : ""}`,
    deltaSquared: (a, b) => {
      const pa = get(a);
      const pb = get(b);
      const n = pa.seq.length;
      if (n !== pb.seq.length) {
        if (unequal === "maximal") return 1;
        throw new Error(`${fnName} requires permutations of equal length (got ${n} and ${pb.seq.length}); compute alpha per length`);
      }
      if (n < 2) return 0;
      const d = discordantParsed(pa, pb) / ((n * (n - 1)) / 2);
      return squared ? d * d : d;
    },
  };
}
