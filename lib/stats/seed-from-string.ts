/**
 * Seed from string: a 32-bit seed for `mulberry32` derived from a text such as
 * "<study id>|agreement|slot-ordinal|ordinal|<kind>|steps=3", so every figure on a page
 * gets its own reproducible random stream and shows the same numbers on every reload.
 * Source: Fowler-Noll-Vo hash FNV-1a, 32-bit (offset basis 2166136261, prime 16777619), over the
 * UTF-16 code units of the text.
 * O(length of the text).
 * @throws {Error} "seedFromString requires a string"
 * @example
 * seedFromString(""); // 2166136261
 * seedFromString("a"); // 3826002220
 */
export function seedFromString(text: string): number {
  if (typeof text !== "string") throw new Error("seedFromString requires a string");
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
