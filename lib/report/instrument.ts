/**
 * The most items one person can be given (the assignment rules, lib/assignment/index.ts), for the
 * report's instrument length (pure). With a quota: the quota, gold included. The ordinary items
 * are each given once at most; a gold item is mixed in while ordinary work is left, the g-th at queue
 * index floor((g + u) / goldRate), u in [0, 1): at the earliest after g / goldRate - g ordinary
 * items, so it can come only while that is fewer than the ordinary items.
 */
export function itemsPerPersonAtMost(study: { ordinary: number; gold: number; goldRate: number; quota: number | null }): { total: number; gold: number } {
  const { ordinary, gold, goldRate, quota } = study;
  let golds = 0;
  if (ordinary > 0 && gold > 0 && goldRate > 0) golds = goldRate >= 1 ? gold : Math.min(gold, Math.ceil(ordinary / (1 / goldRate - 1)));
  const total = ordinary + golds;
  return quota === null ? { total, gold: golds } : { total: Math.min(quota, total), gold: Math.min(quota, golds) };
}
