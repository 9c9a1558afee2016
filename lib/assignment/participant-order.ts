import { hash } from "node:crypto";

/**
 * Each participant's order of a study's ordinary items (rule "md5 order" of docs/assignment.md,
 * made cheap for large studies). The items get one shared random rank r, the order of md5(itemId)
 * (then id), computed once per item list; a participant's order is that of the key F(r), with F
 * a permutation of [0, 2^(2h)) of their own: a six-round Feistel network whose round keys come
 * from md5(userId). No participant's order needs a hash per item (100,000 items: the first 50
 * in about 0.02 ms, the whole order in 4.5 ms, against about 110 ms of md5s per participant and
 * process; bench/participant-order.ts), and unlike an affine map
 * (a r + b) mod P, which gives a 10-item study only 110 orders, it reaches every order of a small
 * study about equally often. The SQL of the full search computes the same key
 * (`orderKeySql`; lib/repos/assignments.ts findOrdinaryCandidates), so both searches rank
 * candidates alike.
 */

/** Keys stay below 2^26 (8 decimal digits), and every product of the round function below 2^58: exact in double and bigint arithmetic. */
export const MAX_ORDERED_ITEMS = 2 ** 26;

/** The smallest domain has 2^12 keys: a small study still has round functions of 6 bits, and a walk of its unused keys costs microseconds. */
const MIN_HALF_BITS = 6;
const ROUNDS = 6;

/** A participant's permutation of the ranks: keys in [0, 2^(2 halfBits)). */
export interface ParticipantPermutation {
  halfBits: number;
  /** per round: an offset below 2^26 and an odd multiplier below 2^31 */
  rounds: ReadonlyArray<{ offset: number; multiplier: number }>;
}

const md5Hex = (text: string) => hash("md5", text, "hex");

/** Half the key's bits: the smallest h >= 6 with 2^(2h) >= the number of items. */
export function halfBitsFor(itemCount: number): number {
  if (itemCount > MAX_ORDERED_ITEMS) throw new RangeError(`a participant's order holds at most ${MAX_ORDERED_ITEMS} items, not ${itemCount}`);
  let half = MIN_HALF_BITS;
  while (2 ** (2 * half) < itemCount) half++;
  return half;
}

/** The participant's permutation of a study of `itemCount` items, from md5 of their user id. */
export function participantPermutation(userId: string, itemCount: number): ParticipantPermutation {
  const rounds = Array.from({ length: ROUNDS }, (_, round) => {
    const digest = md5Hex(`order:${round}:${userId}`);
    return { offset: parseInt(digest.slice(0, 7), 16) % 2 ** 26, multiplier: (parseInt(digest.slice(8, 16), 16) % 2 ** 31) | 1 };
  });
  return { halfBits: halfBitsFor(itemCount), rounds };
}

/** The round function: the top h bits of ((x + offset) * multiplier) mod 2^32 (Knuth's multiplicative hashing, keyed). */
function roundValue(x: number, round: { offset: number; multiplier: number }, halfBits: number): number {
  return (Math.imul(x + round.offset, round.multiplier) >>> 0) >>> (32 - halfBits);
}

/** The participant's key of the item of rank r: F(r). */
export function orderKey(rank: number, permutation: ParticipantPermutation): number {
  const { halfBits, rounds } = permutation;
  const mask = 2 ** halfBits - 1;
  let left = rank >>> halfBits;
  let right = rank & mask;
  for (const round of rounds) {
    const nextRight = left ^ roundValue(right, round, halfBits);
    left = right;
    right = nextRight;
  }
  return (left << halfBits) | right;
}

/** The rank whose key is `key`: F^-1(key). */
export function rankOfKey(key: number, permutation: ParticipantPermutation): number {
  const { halfBits, rounds } = permutation;
  const mask = 2 ** halfBits - 1;
  let left = key >>> halfBits;
  let right = key & mask;
  for (let i = rounds.length - 1; i >= 0; i--) {
    const previousRight = left;
    left = right ^ roundValue(left, rounds[i], halfBits);
    right = previousRight;
  }
  return (left << halfBits) | right;
}

/**
 * The same key as `orderKey`, as a PostgreSQL bigint expression of `rank` (a bigint column or
 * expression). Built from numbers only; each round names its input twice, so the text grows as
 * the Fibonacci numbers (six rounds: 21 copies of `rank`), not exponentially.
 */
export function orderKeySql(rank: string, permutation: ParticipantPermutation): string {
  const { halfBits, rounds } = permutation;
  const mask = 2 ** halfBits - 1;
  let left = `(${rank} >> ${halfBits})`;
  let right = `(${rank} & ${mask})`;
  for (const round of rounds) {
    const value = `((((${right} + ${round.offset}) * ${round.multiplier}) & 4294967295) >> ${32 - halfBits})`;
    [left, right] = [right, `(${left} # ${value})`];
  }
  return `((${left} << ${halfBits}) | ${right})`;
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

/**
 * The participant's order: for each key 0, 1, 2, ... the item whose rank r has that key (keys of
 * ranks past the item count are skipped), given to `visit` with its key; stops early when `visit`
 * returns false.
 */
export function walkParticipantOrder(byRank: Uint32Array, permutation: ParticipantPermutation, visit: (index: number, key: number) => boolean | void): void {
  const n = byRank.length;
  const { halfBits, rounds } = permutation;
  const offsets = Int32Array.from(rounds, (round) => round.offset);
  const multipliers = Int32Array.from(rounds, (round) => round.multiplier);
  const shift = 32 - halfBits;
  const mask = (1 << halfBits) - 1;
  const keys = 1 << (2 * halfBits);
  const roundCount = offsets.length;
  // rankOfKey, inlined: the walk of a 100,000-item study inverts up to 262,144 keys
  for (let key = 0; key < keys; key++) {
    let left = key >>> halfBits;
    let right = key & mask;
    for (let i = roundCount - 1; i >= 0; i--) {
      const previousRight = left;
      left = right ^ (Math.imul(left + offsets[i], multipliers[i]) >>> shift);
      right = previousRight;
    }
    const rank = (left << halfBits) | right;
    if (rank >= n) continue;
    if (visit(byRank[rank], key) === false) return;
  }
}
