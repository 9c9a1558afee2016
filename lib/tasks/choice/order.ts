import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";

/**
 * The order a person sees an item's options in (browser-safe): the item's own order when it does
 * not allow shuffling, else a Fisher-Yates shuffle seeded by the assignment (one person, one item),
 * so a reload or another device shows the same order. The task logs it (choice_options_shown).
 */
export function shownOrder<T>(options: readonly T[], shuffle: boolean, assignmentId: string): T[] {
  const order = [...options];
  if (!shuffle) return order;
  const rng = mulberry32(seedFromString(`choice-order|${assignmentId}`));
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** The display position a key names: "1".."9" or "a".."i" / "A".."I"; null otherwise or beyond the options. */
export function positionOfKey(key: string, count: number): number | null {
  let position: number | null = null;
  if (/^[1-9]$/u.test(key)) position = Number(key) - 1;
  else if (/^[a-i]$/iu.test(key)) position = key.toUpperCase().charCodeAt(0) - 65;
  return position !== null && position < count ? position : null;
}
