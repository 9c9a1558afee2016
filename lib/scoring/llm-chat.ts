/**
 * The scorer LLM's HTTP side, shared by every LLM-scored kind: an OpenAI-compatible
 * chat-completions endpoint (SCORER_LLM_URL, SCORER_LLM_MODEL, SCORER_LLM_API_KEY,
 * SCORER_LLM_CONCURRENCY, SCORER_LLM_THINKING). A kind builds its request body and reads its score
 * from the reply (lib/tasks/<kind>/scoring.ts `ask`); retries, the cache and progress are in
 * lib/scoring/llm-jobs.ts.
 */

export interface LlmScorerConfig {
  /** the chat-completions URL, e.g. http://host:8000/v1/chat/completions (SCORER_LLM_URL) */
  url: string;
  /** the model name sent in the request (SCORER_LLM_MODEL; default "Qwen3-8B") */
  model: string;
  apiKey?: string;
  /** requests in flight at once (SCORER_LLM_CONCURRENCY; default 4) */
  concurrency: number;
  /** leave the model's thinking on (SCORER_LLM_THINKING=on); off by default: `chat_template_kwargs: {"enable_thinking": false}` is sent */
  thinking?: boolean;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

export const DEFAULT_SCORER_MODEL = "Qwen3-8B";

/** The configuration from the environment, or null when SCORER_LLM_URL is unset (no LLM scoring). */
export function llmScorerFromEnv(env: Record<string, string | undefined> = process.env): LlmScorerConfig | null {
  const url = env.SCORER_LLM_URL?.trim();
  if (!url) return null;
  const concurrency = Number(env.SCORER_LLM_CONCURRENCY);
  return {
    url,
    model: env.SCORER_LLM_MODEL?.trim() || DEFAULT_SCORER_MODEL,
    apiKey: env.SCORER_LLM_API_KEY?.trim() || undefined,
    concurrency: Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 64 ? concurrency : 4,
    thinking: /^(on|1|true|yes)$/i.test(env.SCORER_LLM_THINKING?.trim() ?? ""),
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

export type LlmChatConfig = Pick<LlmScorerConfig, "url" | "apiKey" | "timeoutMs" | "fetchImpl">;

/**
 * POSTs one chat-completions body and returns the reply's text with any <think>...</think> block
 * dropped (a server that ignores chat_template_kwargs may still think aloud first). Throws
 * LlmScorerError on HTTP errors (4xx other than 408 and 429 are not worth retrying), network
 * errors and timeouts (retryable), and bodies without choices[0].message.content.
 */
export async function llmChat(config: LlmChatConfig, body: Record<string, unknown>): Promise<{ content: string; text: string }> {
  const fetchImpl = config.fetchImpl ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(config.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify(body),
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
  let parsed: { choices?: Array<{ message?: { content?: unknown } }> };
  try {
    parsed = (await response.json()) as typeof parsed;
  } catch {
    throw new LlmScorerError(`scorer LLM at ${config.url} sent a body that is not JSON`, true);
  }
  const content = parsed.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new LlmScorerError(`scorer LLM at ${config.url} sent no choices[0].message.content`, false);
  return { content, text: content.replace(/<think>[\s\S]*?<\/think>/g, "") };
}
