import "server-only";
import { createHash } from "node:crypto";
import { findCachedScores, insertCachedScore } from "@/lib/repos/scorer-cache";
import type { LlmRequest } from "@/lib/scoring/kind-scoring";

/**
 * The scorer-LLM reply cache (ScorerCache): one row per prompt, keyed by a hash of the model, the
 * prompt version and the prompt's parts (aspect, annotated phrase, predicted text). Whatever
 * answer, job or study needs the same prompt again gets the stored reply and sends no request;
 * a new model or prompt version asks again.
 */

export function scorerCacheKey(model: string, promptVersion: string, request: LlmRequest): string {
  return createHash("sha256")
    .update(JSON.stringify([model, promptVersion, request.aspect, request.phrase, request.sentence]))
    .digest("hex");
}

/** key -> cached 0-5 score, for the keys that are cached. */
export async function readScorerCache(keys: readonly string[]): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  return findCachedScores(keys);
}

export async function writeScorerCache(entry: {
  key: string;
  model: string;
  promptVersion: string;
  request: LlmRequest;
  score: number;
  reply: string;
}): Promise<void> {
  await insertCachedScore({
    key: entry.key,
    model: entry.model,
    promptVersion: entry.promptVersion,
    aspect: entry.request.aspect,
    phrase: entry.request.phrase,
    sentence: entry.request.sentence,
    score: entry.score,
    reply: entry.reply.slice(0, 500),
  });
}
