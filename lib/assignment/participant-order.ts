import { hash } from "node:crypto";

/**
 * Each participant's order of a study's ordinary items (rule "md5 order" of docs/assignment.md,
 * made cheap for large studies). The items get one shared random rank r, the order of md5(itemId)
 * (then id), computed once per item list; a participant's order is that of the key
 * (a * r + b) mod P, with P the smallest prime >= the number of items and a (not 0), b from
 * md5(userId): an affine permutation of the ranks, a different one per participant, so that no
 * participant's order needs a hash per item (100,000 items: about 2 ms to walk instead of about
 * 100 ms of md5s per participant and process). The SQL of the full search computes the same key
 * (lib/repos/assignments.ts findOrdinaryCandidates), so both searches rank candidates alike.
 */

/** Keys stay below 2^26 and a * r + b below 2^52: exact in double arithmetic. */
export const MAX_ORDERED_ITEMS = 2 ** 26 - 5;

const md5Hex = (text: string) => hash("md5", text, "hex");

function isPrime(n: number): boolean {
  if (n < 2) return false;
  if (n % 2 === 0) return n === 2;
  for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false;
  return true;
}

/** The smallest prime >= max(n, 2). */
export function primeAtLeast(n: number): number {
  let p = Math.max(2, Math.ceil(n));
  while (!isPrime(p)) p++;
  return p;
}

/** The participant's multiplier a in [1, P - 1] and offset b in [0, P - 1], from md5(userId). */
export function participantAffine(userId: string, prime: number): { a: number; b: number } {
  const digest = md5Hex(`order:${userId}`);
  const high = parseInt(digest.slice(0, 12), 16);
  const low = parseInt(digest.slice(12, 24), 16);
  return { a: prime > 1 ? 1 + (high % (prime - 1)) : 1, b: low % prime };
}

/** The participant's key of the item of rank r: (a * r + b) mod P. */
export function orderKey(rank: number, affine: { a: number; b: number }, prime: number): number {
  return (affine.a * rank + affine.b) % prime;
}

/** The key as text that sorts as the number (the candidates' `hash`, compared as strings). */
export function orderKeyText(key: number): string {
  return String(key).padStart(8, "0");
}

/** The item indexes in rank order: md5(itemId), then id (as SQL's ORDER BY md5(id) COLLATE "C", id COLLATE "C"). */
export function rankOrder(ids: readonly string[], md5s: readonly string[] = ids.map((id) => md5Hex(id))): Uint32Array {
  const hashes = md5s;
  const leading = Float64Array.from(hashes, (text) => parseInt(text.slice(0, 12), 16));
  return Uint32Array.from(ids.keys()).sort(
    (x, y) => leading[x] - leading[y] || (hashes[x] < hashes[y] ? -1 : hashes[x] > hashes[y] ? 1 : ids[x] < ids[y] ? -1 : ids[x] > ids[y] ? 1 : 0),
  );
}

/** Modular inverse of a mod the prime p (extended Euclid; a and p below 2^26). */
function inverse(a: number, p: number): number {
  let [r0, r1] = [p, a % p];
  let [t0, t1] = [0, 1];
  while (r1 !== 0) {
    const q = Math.floor(r0 / r1);
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return ((t0 % p) + p) % p;
}

/**
 * The participant's order: for each key 0, 1, 2, ... the item whose rank r has that key (keys of
 * ranks past the item count are skipped), given to `visit` with its key; stops early when `visit`
 * returns false.
 */
export function walkParticipantOrder(
  byRank: Uint32Array,
  affine: { a: number; b: number },
  prime: number,
  visit: (index: number, key: number) => boolean | void,
): void {
  const n = byRank.length;
  const aInverse = inverse(affine.a, prime);
  for (let key = 0; key < prime; key++) {
    const rank = (aInverse * ((key - affine.b + prime) % prime)) % prime;
    if (rank >= n) continue;
    if (visit(byRank[rank], key) === false) return;
  }
}
