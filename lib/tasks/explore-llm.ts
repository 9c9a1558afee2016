/**
 * EXPLORE-Bench's pluggable LLM scorer, the HTTP side (the paper's protocol, steps 3-4;
 * ../shared/benchmarks/explore.md): when SCORER_LLM_URL points at an OpenAI-compatible
 * chat-completions endpoint, a sentence is scored 0-5 against an annotated phrase with the paper's
 * prompt, at temperature 0. What is asked for an answer is planned in explore-llm-scorer.ts; the
 * background job, the cache in the database, retries and progress are in lib/scoring/.
 *
 * The prompt is the one quoted in explore.md (the paper's), verbatim, with "attributes" or
 * "relations" filled in; explore.md gives it as one template with "[relations]" as the variant.
 * It is sent as the only (user) message: explore.md quotes no system prompt.
 */

export type LlmAspect = "attributes" | "relations";

/** Bumped whenever the prompts or what is sent for an answer change: cached replies of another version are not reused. */
export const EXPLORE_LLM_PROMPT_VERSION = "explore-v1";

/** The paper's prompt (explore.md, "Scoring", step 4), verbatim but for the aspect word. */
export function llmScorerPrompt(sentence: string, phrase: string, aspect: LlmAspect): string {
  return `Sentence: '${sentence}'. Phrase: '${phrase}'. Please check if the sentence contains parts that accurately describe the ${aspect} referenced in the provided phrase and provide an integer score as a single number from 0 to 5 without explanation.`;
}

/** The first integer 0-5 in the reply ("4", "Score: 4", "4/5"); null when there is none. */
export function parseLlmScore(reply: string): number | null {
  const match = /(?<![\d.])([0-5])(?![\d.]*\d)/.exec(reply.trim());
  return match ? Number(match[1]) : null;
}

export interface LlmScorerConfig {
  /** the chat-completions URL, e.g. http://host:8000/v1/chat/completions (SCORER_LLM_URL) */
  url: string;
  /** the model name sent in the request (SCORER_LLM_MODEL; default "Qwen3-8B") */
  model: string;
  apiKey?: string;
  /** requests in flight at once (SCORER_LLM_CONCURRENCY; default 4) */
  concurrency: number;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

export const DEFAULT_SCORER_MODEL = "Qwen3-8B";

/** The configuration from the environment, or null when SCORER_LLM_URL is unset (structured scorer only). */
export function llmScorerFromEnv(env: Record<string, string | undefined> = process.env): LlmScorerConfig | null {
  const url = env.SCORER_LLM_URL?.trim();
  if (!url) return null;
  const concurrency = Number(env.SCORER_LLM_CONCURRENCY);
  return {
    url,
    model: env.SCORER_LLM_MODEL?.trim() || DEFAULT_SCORER_MODEL,
    apiKey: env.SCORER_LLM_API_KEY?.trim() || undefined,
    concurrency: Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 64 ? concurrency : 4,
  };
}

/** A failed scorer request; `retryable` for network errors, timeouts, HTTP 408/429/5xx. */
export class LlmScorerError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = "LlmScorerError";
  }
}

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
export async function llmPhraseScore(config: Pick<LlmScorerConfig, "url" | "model" | "apiKey" | "timeoutMs" | "fetchImpl">, sentence: string, phrase: string, aspect: LlmAspect): Promise<LlmPhraseResult> {
  const fetchImpl = config.fetchImpl ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(config.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify({
        model: config.model,
        temperature: 0,
        messages: [{ role: "user", content: llmScorerPrompt(sentence, phrase, aspect) }],
      }),
      signal: AbortSignal.timeout(config.timeoutMs ?? 120_000),
    });
  } catch (error) {
    throw new LlmScorerError(`scorer LLM at ${config.url} did not answer: ${error instanceof Error ? error.message : String(error)}`, true);
  }
  if (!response.ok) {
    const detail = (await response.text().catch(() => "")).slice(0, 160);
    const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
    throw new LlmScorerError(`scorer LLM at ${config.url} answered HTTP ${response.status}${detail ? `: ${detail}` : ""}`, retryable, response.status);
  }
  let body: { choices?: Array<{ message?: { content?: unknown } }> };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    throw new LlmScorerError(`scorer LLM at ${config.url} sent a body that is not JSON`, true);
  }
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new LlmScorerError(`scorer LLM at ${config.url} sent no choices[0].message.content`, false);
  // Qwen3 may think aloud first: drop <think>...</think>
  const score = parseLlmScore(content.replace(/<think>[\s\S]*?<\/think>/g, ""));
  if (score === null) throw new LlmScorerError(`scorer LLM reply ${JSON.stringify(content.slice(0, 80))} holds no 0-5 score`, false);
  return { score, reply: content };
}
