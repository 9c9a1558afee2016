import type { EmbedderConfig } from "@/lib/tasks/shared/explore/embed";
import type { LlmPhraseRequest } from "@/lib/tasks/shared/explore/llm-scorer";

/** One stored answer's LLM scoring: the phrase prompts to ask, and the stored score from their replies. */
export interface LlmScorePlan {
  requests: LlmPhraseRequest[];
  finish(scores: readonly number[], meta: { model: string; promptVersion: string }): unknown;
}

/**
 * A kind scored by the scorer LLM in background jobs (lib/scoring/llm-jobs.ts): plans the scoring
 * of one stored answer (a response's or a model prediction's) against its item's stored key, and
 * throws when either cannot be read (the job counts it as failed). `embedding`: the job matches
 * objects by these embeddings (vectors cached across the job).
 */
export interface KindLlmScoring {
  plan(answer: unknown, key: unknown, embedding: { embedder: EmbedderConfig; vectors: Map<string, number[]> } | null): Promise<LlmScorePlan>;
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
