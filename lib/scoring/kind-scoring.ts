import type { LlmScorerConfig } from "@/lib/scoring/llm-chat";
import type { EmbedderConfig } from "@/lib/scoring/embed";

/**
 * One prompt to the scorer LLM as the cache keys it (lib/scoring/scorer-cache.ts): the kind's
 * `aspect` (which prompt), the reference `phrase` and the answer's `sentence`. What they hold is
 * the kind's (EXPLORE: an annotated phrase and the predicted sentences; free text: the question
 * with its reference answers, and the answer).
 */
export interface LlmRequest {
  aspect: string;
  phrase: string;
  sentence: string;
}

/** One stored answer's LLM scoring: the prompts to ask, and the stored score from their replies. */
export interface LlmScorePlan {
  requests: LlmRequest[];
  finish(scores: readonly number[], meta: { model: string; promptVersion: string }): unknown;
}

/**
 * A kind scored by the scorer LLM in background jobs (lib/scoring/llm-jobs.ts): plans the scoring
 * of one stored answer (a response's or a model prediction's) against its item's stored key (and public part, e.g. the question a judge is shown), and
 * throws when either cannot be read (the job counts it as failed). `embedding`: the job matches
 * objects by these embeddings (vectors cached across the job).
 */
export interface KindLlmScoring {
  plan(
    answer: unknown,
    key: unknown,
    embedding: { embedder: EmbedderConfig; vectors: Map<string, number[]> } | null,
    publicPart?: unknown,
  ): Promise<LlmScorePlan>;
  /**
   * The version a new job records (and its scores and cached replies): the prompts' version and
   * whatever else changes the replies (EXPLORE: the embedder's model when one is configured; free
   * text: the judge's temperature and seed). `embedModel`: SCORER_EMBED_MODEL's model, or null.
   */
  promptVersion(embedModel: string | null): string;
  /** the embedder's model a job of this version needs (null: none); omitted when the kind uses no embedder */
  embedModelOf?(promptVersion: string): string | null;
  /** whether scores of this version come from the current prompts (the dashboard's current tables) */
  isCurrentVersion(promptVersion: string): boolean;
  /**
   * Asks the LLM one request under the job's version; the score the kind reads from the reply.
   * Throws LlmScorerError (lib/scoring/llm-chat.ts), `retryable` or not.
   */
  ask(config: LlmScorerConfig, request: LlmRequest, promptVersion: string): Promise<{ score: number; reply: string }>;
  /**
   * The person's own texts in a stored answer that requests' `sentence`s are made of (whole, or
   * several joined by spaces): what a withdrawal deletes from the reply cache (lib/scoring/forget.ts).
   */
  answerTexts(answer: unknown): string[];
  /**
   * Optional: the answer's own score and correctness from the score a job stored (plan's finish),
   * for kinds whose answers have neither until the LLM scores them (free text: the grade's LLM-Match,
   * and a grade of 4 or 5 is right). The job writes both to the answer's Response / ModelPrediction
   * with each score, so the latest score decides, and every figure that reads the answer's score
   * (the main accuracy table, calibration) reads the judge's; kinds without it leave the answer as
   * the submission set it.
   */
  answerScoreOf?(score: unknown): { score: unknown; correct: boolean | null } | null;
}

/**
 * A kind whose stored scores carry the scorer's `version` and are rescored when it changes
 * (lib/scoring/explore-rescore.ts): `rescore` gives the current score of a stored answer and key,
 * or null when either cannot be read.
 */
export interface KindRescoring {
  /** what the boot log calls the scorer, e.g. "structured scorer" */
  scorer: string;
  version: string;
  rescore(answer: unknown, key: unknown): { score: unknown; correct: boolean } | null;
}

/** A kind's scoring hooks, each loaded on first use (lib/tasks/<kind>/scoring.ts). */
export interface KindScoringHooks {
  llm?: () => Promise<KindLlmScoring>;
  rescore?: () => Promise<KindRescoring>;
}
