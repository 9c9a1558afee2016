/**
 * Order statistics: the values that a sort would put at some positions, without sorting
 * everything. Quickselect (Hoare 1961, "Algorithm 65: FIND", CACM 4(7)) generalised to several
 * positions at once, with a three-way partition (Bentley & McIlroy 1993, "Engineering a Sort
 * Function") so that many equal values cost nothing, and a full sort once the partitions go badly
 * (introselect: Musser 1997), so the worst case stays O(n log n).
 * Returns exactly the values `Float64Array.from(values).sort()` holds at those positions: inputs
 * holding NaN or -0 (which that sort orders in its own way) are sorted whole.
 * Expected O(n + k log n) for k positions.
 * @throws {Error} on a position outside 0..n-1
 * @example
 * orderStatistics([5, 1, 4, 2, 3], [0, 2, 4]); // Map { 0 => 1, 2 => 3, 4 => 5 }
 */
export function orderStatistics(values: ArrayLike<number>, positions: readonly number[]): Map<number, number> {
  const n = values.length;
  for (const k of positions) if (!(Number.isInteger(k) && k >= 0 && k < n)) throw new Error(`orderStatistics: position ${k} is outside 0..${n - 1}`);
  const a = Float64Array.from(values);
  const out = new Map<number, number>();
  const wanted = [...new Set(positions)].sort((x, y) => x - y);
  let special = false;
  for (let i = 0; i < n && !special; i++) special = a[i] !== a[i] || (a[i] === 0 && 1 / a[i] < 0);
  if (special || n <= 64) {
    a.sort();
    for (const k of wanted) out.set(k, a[k]);
    return out;
  }
  const depthLimit = 2 * Math.ceil(Math.log2(n));
  const select = (lo: number, hi: number, ks: number[], depth: number): void => {
    // ks: wanted positions inside [lo, hi), ascending
    if (ks.length === 0) return;
    if (hi - lo <= 32 || depth > depthLimit) {
      a.subarray(lo, hi).sort();
      for (const k of ks) out.set(k, a[k]);
      return;
    }
    const mid = lo + ((hi - lo) >> 1);
    const pivot = medianOfThree(a[lo], a[mid], a[hi - 1]);
    // three-way partition: [lo, lt) < pivot, [lt, gt) === pivot, [gt, hi) > pivot
    let lt = lo;
    let gt = hi;
    let i = lo;
    while (i < gt) {
      const x = a[i];
      if (x < pivot) {
        a[i] = a[lt];
        a[lt] = x;
        lt++;
        i++;
      } else if (x > pivot) {
        gt--;
        a[i] = a[gt];
        a[gt] = x;
      } else i++;
    }
    const left: number[] = [];
    const right: number[] = [];
    for (const k of ks) {
      if (k < lt) left.push(k);
      else if (k >= gt) right.push(k);
      else out.set(k, pivot);
    }
    select(lo, lt, left, depth + 1);
    select(gt, hi, right, depth + 1);
  };
  select(0, n, wanted, 0);
  return out;
}

function medianOfThree(x: number, y: number, z: number): number {
  if (x < y) return y < z ? y : x < z ? z : x;
  return x < z ? x : y < z ? z : y;
}
