/**
 * The worked example of Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", section
 * A: 4 observers (A-D) x 12 units, null = missing. Published results: alpha = 0.743 nominal,
 * 0.815 ordinal, 0.849 interval, 0.797 ratio; n.. = 40 pairable values; unit 12 has one value.
 * The same table appears in the help file of Stata's kalpha (r-stata/tssc, ssc/kalpha).
 */
export const KRIPPENDORFF_2011: (number | null)[][] = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];
