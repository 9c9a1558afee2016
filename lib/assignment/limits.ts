/** Open (created, not submitted) on-demand assignments an annotator may hold: on screen, prefetched, one submitted offline. */
export const MAX_OPEN_ASSIGNMENTS = 3;

/** The start of the reason stored when a participant misses the practice pass mark (the "failed screening" ending: lib/participants/participants.ts endingOf). */
export const PRACTICE_FAIL_REASON = "practice below pass mark";

/** Rounds of "read candidates, try to claim" before answering "wait" (every try lost a race). */
export const CLAIM_ROUNDS = 4;
/** Claims tried per round. */
export const CLAIM_TRIES = 6;
/** Candidates read per (condition, balance value) group. */
export const CANDIDATES_PER_GROUP = 2;
