/**
 * A hand-worked crossed case where people differ wholly and items not at all: 4 people x 10 items,
 * every person answering every item; people "p" and "q" right on every item, "r" and "s" on none,
 * so every item has 2 of 4 answers right.
 *
 * Two-way (lib/stats/two-way-cluster-variance.ts), p = 0.5, residuals r_a = y_a - 0.5 = +-0.5:
 *   V_items  = (10/9) * sum over items of (0)^2 / 40^2 = 0                 (each item's residuals cancel)
 *   V_people = (4/3) * (5^2 + 5^2 + 5^2 + 5^2) / 40^2 = 1/12 = 0.08333     (each person's sum +-10 x 0.5)
 *   V_cells  = (40/39) * 40 x 0.25 / 40^2 = 0.00641
 *   V = max(0 + 1/12 - 0.00641, 0, 1/12) = 1/12; effective n = 0.25 / (1/12) = 3
 *   t(min(10, 4) - 1 = 3) = 3.1824; Wilson(0.5, n = 3, z = 3.1824) = [0.0608, 0.9392]
 * Items only: V = V_items = 0 says nothing, so the effective n is the 10 items, t(9) = 2.2622:
 *   Wilson(0.5, 10, 2.2622) = [0.2091, 0.7909]
 * The intervals before (Wilson with a design effect over items, z = 1.96): the item variance 0
 * gives deff 1, n = 40: Wilson(0.5, 40) = [0.3520, 0.6480], far too narrow.
 * For a mean, the same people scoring 0.8, 0.6, 0.4, 0.2 on every item: V_people = (4/3)(3^2 + 1^2 +
 * 1^2 + 3^2) / 40^2 = 1/60, V_items = 0, half-width 3.1824 / sqrt(60) = 0.4108, [0.0892, 0.9108]
 * cut to the answers' range [0.2, 0.8]; over items only V = 0: no interval ("no spread").
 */
export const PEOPLE_DIFFER_PEOPLE = ["p", "q", "r", "s"] as const;
export const PEOPLE_DIFFER_ITEMS = 10;

/** whether the person is right (on every item) */
export const peopleDifferRight = (person: string): boolean => person === "p" || person === "q";
/** the person's score (on every item) for the mean case */
export const peopleDifferScore = (person: string): number => ({ p: 0.8, q: 0.6, r: 0.4, s: 0.2 })[person] ?? NaN;

/** every (item, person) pair, items 0..9 */
export function peopleDifferAnswers(): Array<{ item: number; person: string }> {
  const out: Array<{ item: number; person: string }> = [];
  for (let item = 0; item < PEOPLE_DIFFER_ITEMS; item++) for (const person of PEOPLE_DIFFER_PEOPLE) out.push({ item, person });
  return out;
}

export const PEOPLE_DIFFER_TWO_WAY: readonly [number, number] = [0.06083, 0.93917];
export const PEOPLE_DIFFER_ITEMS_ONLY: readonly [number, number] = [0.20909, 0.79091];
export const PEOPLE_DIFFER_BEFORE: readonly [number, number] = [0.35199, 0.64801];
