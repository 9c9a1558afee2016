/**
 * EXPLORE-Bench's pluggable LLM scorer, the HTTP side (the paper's protocol, Sec. 3.3 and Sec. 6;
 * prompts in Appendix B.3): when SCORER_LLM_URL points at an OpenAI-compatible chat-completions
 * endpoint, a sentence is scored 0-5 against an annotated phrase at temperature 0, with the
 * paper's system prompt (Listing 8) and its user prompt for attributes (Listing 9), relations
 * (Listing 10) or key states (Listing 11), verbatim but for escaping the quoted fields (quotedField),
 * and a reply counts only when it is the score and nothing else. What is asked for an answer is planned in
 * explore-llm-scorer.ts; the background job, the cache in the database, retries and progress are
 * in lib/scoring/. Qwen3's thinking is turned off in the request (`chat_template_kwargs:
 * {"enable_thinking": false}`, which vLLM and SGLang accept; SCORER_LLM_THINKING=on leaves it out),
 * and a <think> block that still comes back is dropped before the score is read.
 */

import { llmChat, LlmScorerError, type LlmScorerConfig } from "@/lib/scoring/llm-chat";

export type LlmAspect = "attributes" | "relations" | "states";

/** Bumped whenever the prompts or what is sent for an answer change: cached replies of another version are not reused. */
export const EXPLORE_LLM_PROMPT_VERSION = "explore-v3";

/**
 * The version a job and its scores record: the prompts' version, plus the embedder's model when
 * objects are matched by embeddings (SCORER_EMBED_URL): "explore-v3+all-MiniLM-L6-v2".
 */
export function llmPromptVersion(embedModel?: string | null): string {
  return embedModel ? `${EXPLORE_LLM_PROMPT_VERSION}+${embedModel}` : EXPLORE_LLM_PROMPT_VERSION;
}

/** Whether scores of this version come from the current prompts (with or without an embedder). */
export function isCurrentPromptVersion(version: string): boolean {
  return version === EXPLORE_LLM_PROMPT_VERSION || version.startsWith(`${EXPLORE_LLM_PROMPT_VERSION}+`);
}

/** The embedder's model of a version ("explore-v3+all-MiniLM-L6-v2" -> "all-MiniLM-L6-v2"), null for lemma/WordNet matching. */
export function embedModelOf(version: string): string | null {
  const at = version.indexOf("+");
  return at < 0 ? null : version.slice(at + 1);
}

/** Listing 8: the system prompt sent with every request. */
export const LLM_SYSTEM_PROMPT =
  "You are a Natural Language Processing (NLP) expert. A curious human will give you a sentence and a phrase. The human want you to help with analyzing whether the sentence includes similar concept with the given phrase and rate the similarity on a scale from 0 to 5, with 0 being 'completely lacks similar concepts' and 5 being 'extremely has similar concepts'. You need to give helpful and reliable answers to help the human.";

/**
 * A field of Listings 9-11 as a single-quoted literal: backslashes, single quotes and line breaks
 * escaped (\\, \', \n, \r), so that a participant's sentence cannot close its quotes and write a
 * phrase or an instruction of its own after them. Text without those characters is unchanged.
 */
export function quotedField(text: string): string {
  return `'${text.replace(/[\\'\n\r]/g, (c) => (c === "\n" ? "\\n" : c === "\r" ? "\\r" : `\\${c}`))}'`;
}

/** Listings 9-11, verbatim but for the aspect word ("attributes", "relations", "states") and the fields' escaping (quotedField). */
export function llmScorerPrompt(sentence: string, phrase: string, aspect: LlmAspect): string {
  return `Sentence: ${quotedField(sentence)}. Phrase: ${quotedField(phrase)}. Please check if the sentence contains parts that accurately describe the ${aspect} referenced in the provided phrase and provide an integer score as a single number from 0 to 5 without explanation.`;
}

/** The request body for one (sentence, phrase): system prompt, user prompt, temperature 0, thinking off unless asked for. */
export function llmRequestBody(
  config: Pick<LlmScorerConfig, "model" | "thinking">,
  sentence: string,
  phrase: string,
  aspect: LlmAspect,
): Record<string, unknown> {
  return {
    model: config.model,
    temperature: 0,
    messages: [
      { role: "system", content: LLM_SYSTEM_PROMPT },
      { role: "user", content: llmScorerPrompt(sentence, phrase, aspect) },
    ],
    ...(config.thinking ? {} : { chat_template_kwargs: { enable_thinking: false } }),
  };
}

/**
 * The score of a reply that is a score and nothing else ("4", "4.", "Score: 4", "4/5"); null for
 * anything more, so that digits the model quotes (from the sentence, say) are never taken for its score.
 */
export function parseLlmScore(reply: string): number | null {
  const match = /^(?:score\s*[:=]?\s*)?([0-5])(?:\s*\/\s*5)?\.?$/i.exec(reply.trim());
  return match ? Number(match[1]) : null;
}

export { DEFAULT_SCORER_MODEL, llmScorerFromEnv, LlmScorerError, type LlmScorerConfig } from "@/lib/scoring/llm-chat";

export interface LlmPhraseResult {
  score: number;
  /** the reply's text */
  reply: string;
}

/**
 * One 0-5 score from the LLM for (sentence, phrase). Throws LlmScorerError on HTTP errors (4xx
 * other than 408 and 429 are not worth retrying), network errors and timeouts (retryable), and
 * replies without a 0-5 integer (not retryable: at temperature 0 the model would say the same).
 */
export async function llmPhraseScore(
  config: Pick<LlmScorerConfig, "url" | "model" | "apiKey" | "timeoutMs" | "fetchImpl" | "thinking">,
  sentence: string,
  phrase: string,
  aspect: LlmAspect,
): Promise<LlmPhraseResult> {
  const { content, text } = await llmChat(config, llmRequestBody(config, sentence, phrase, aspect));
  const score = parseLlmScore(text);
  if (score === null) throw new LlmScorerError(`scorer LLM reply ${JSON.stringify(content.slice(0, 80))} holds no 0-5 score`, false);
  return { score, reply: content };
}
