import type { z } from "zod";

/**
 * The task-kind contract (DESIGN.md). One module per benchmark task kind; every module is pure:
 * no React, no database, no routes, so the same scorer runs in a route handler, the CLI and tests.
 */

/** JSON value as stored in Postgres jsonb columns. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** An item as stored: `public` is what an annotator may see, `key` is the answer key. */
export interface TaskItem<Public = unknown, Key = unknown> {
  id: string; // external id from items.jsonl
  kind: string;
  public: Public;
  key: Key;
  tags: Record<string, string | number | boolean>;
}

/** One metric a kind reports at dataset level, e.g. ENACT's TA and PA. */
export interface MetricSpec {
  id: string; // key in aggregate() output, e.g. "TA"
  label: string; // "Task accuracy"
  /** proportion: a mean of 0/1 per item (Wilson interval); ratio: a micro-average (bootstrap interval) */
  type: "proportion" | "ratio";
  description: string;
}

/** Krippendorff levels of measurement plus kind-specific distances. */
export type AgreementLevel = "nominal" | "ordinal" | "interval" | "ratio";

/**
 * How an answer becomes values for Krippendorff's alpha. A kind may offer several encodings
 * (ENACT: each slot as a unit, or each item as a unit with a permutation distance); dashboards
 * name the encoding they used.
 */
export interface AgreementEncoding<Answer = unknown> {
  id: string; // "slot-nominal", "item-kendall"
  label: string; // shown on dashboards
  /** a standard level, or a custom squared-distance-like function between two values */
  level: AgreementLevel | "custom";
  distance?: (a: string | number, b: string | number) => number;
  /** unit suffix ("" for item-level units, "slot-2" for slot units) -> value */
  units(answer: Answer): Array<{ unit: string; value: string | number }>;
}

export interface TaskModule<Public = unknown, Key = unknown, Answer = unknown, Score = unknown> {
  kind: string;
  /** human-readable name, e.g. "ENACT forward world modeling" */
  title: string;
  benchmark: string; // "ENACT"
  publicSchema: z.ZodType<Public>;
  keySchema: z.ZodType<Key>;
  answerSchema: z.ZodType<Answer>;
  /**
   * Optional (added for ENACT): the whole item, public and key together, with the checks that span
   * both (e.g. as many candidates as key.order entries). It includes publicSchema and keySchema,
   * so importers run it instead of them when present; issue paths start with "public" or "key".
   */
  itemSchema?: z.ZodType<{ public: Public; key: Key }>;
  /**
   * Optional (added for ENACT): the strict answer schema for one item (e.g. a permutation of the
   * item's length), for what annotators submit; answerSchema alone cannot see the item.
   */
  answerSchemaFor?(item: TaskItem<Public, Key>): z.ZodType<Answer>;
  /**
   * Every image reference in the item (public and key), so the importer can validate and store
   * them, and rewrite them to served URLs. Returns the item with each reference replaced.
   */
  mapImages(item: { public: Public; key: Key }, replace: (ref: string) => string): { public: Public; key: Key };
  /** Exactly what the annotator's browser may receive. Never any part of the key. */
  publicView(item: TaskItem<Public, Key>): Json;
  /** The benchmark's own per-item scores; also what `yardstick score` prints per item (plus id). */
  score(answer: Answer, key: Key, item: TaskItem<Public, Key>): Score;
  /** Binary correctness of one scored answer (calibration, Wilson intervals, per-annotator accuracy). */
  correct(score: Score): boolean;
  /** Dataset-level metrics, e.g. { TA, PA }; null where undefined (no items). */
  aggregate(scores: Score[]): Record<string, number | null>;
  metrics: MetricSpec[];
  agreementEncodings: AgreementEncoding<Answer>[];
  /** The answer key rendered for item reviewers (never for annotators). */
  reviewView(item: TaskItem<Public, Key>): Json;
  /**
   * Parse a model's raw prediction (imported model runs) into an answer. Answers of another shape
   * than answerSchema (e.g. a permutation of another length) are allowed here when the scorer
   * handles them.
   */
  parseModelAnswer(raw: unknown): Answer | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds modules of different generic types
export type AnyTaskModule = TaskModule<any, any, any, any>;
