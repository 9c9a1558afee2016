/* Client-safe (no Node imports): the scene editor (components/tasks/explore-scene) shows the same caps. */

/**
 * Size caps of an answer: a scene of the benchmark has about 10 objects (Sec. 6: 9 on
 * average in the abnormal cases); the caps leave ample room and keep validating and scoring one
 * answer well under 50 ms (lib/tasks/explore-scene/bench/answer-caps.ts). Counted before anything
 * else is parsed.
 */
export const EXPLORE_ANSWER_LIMITS = {
  objects: 100,
  relationsPerObject: 10,
  relations: 300,
  categoryChars: 60,
  descriptionChars: 300,
  relationChars: 150,
  /** the text the scene editor writes from the objects (stored, not scored when there are objects): room for the objects above */
  textChars: 80_000,
  /** free-text mode: the description is scored (tagged sentence by sentence) */
  freeTextChars: 5_000,
} as const;
