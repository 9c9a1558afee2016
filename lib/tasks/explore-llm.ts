/**
 * EXPLORE-Bench's pluggable LLM scorer (the paper's protocol, step 3-4; ../shared/benchmarks/
 * explore.md): when SCORER_LLM_URL points at an OpenAI-compatible chat-completions endpoint, a
 * sentence is scored 0-5 against an annotated phrase with the paper's prompt, at temperature 0.
 * Pure apart from the one HTTP call; the background job, the per-(answer, phrase) cache in the
 * database, retries and progress are phase 2.
 *
 * The prompt is the one quoted in explore.md (the paper's), verbatim, with "attributes" or
 * "relations" filled in; explore.md gives it as one template with "[relations]" as the variant.
 */

export type LlmAspect = "attributes" | "relations";

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
  model?: string;
  apiKey?: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

/** The configuration from the environment, or null when SCORER_LLM_URL is unset (structured scorer only). */
export function llmScorerFromEnv(env: Record<string, string | undefined> = process.env): LlmScorerConfig | null {
  const url = env.SCORER_LLM_URL?.trim();
  if (!url) return null;
  return { url, model: env.SCORER_LLM_MODEL?.trim() || "Qwen3-8B", apiKey: env.SCORER_LLM_API_KEY };
}

/**
 * One 0-5 score from the LLM for (sentence, phrase). Throws on HTTP errors, replies without a
 * 0-5 integer, or a timeout (the phase-2 job retries).
 */
export async function llmPhraseScore(config: LlmScorerConfig, sentence: string, phrase: string, aspect: LlmAspect): Promise<number> {
  const fetchImpl = config.fetchImpl ?? fetch;
  const response = await fetchImpl(config.url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
    body: JSON.stringify({
      model: config.model ?? "Qwen3-8B",
      temperature: 0,
      messages: [{ role: "user", content: llmScorerPrompt(sentence, phrase, aspect) }],
    }),
    signal: AbortSignal.timeout(config.timeoutMs ?? 60_000),
  });
  if (!response.ok) throw new Error(`scorer LLM at ${config.url} answered HTTP ${response.status}`);
  const body = (await response.json()) as { choices?: Array<{ message?: { content?: unknown } }> };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new Error(`scorer LLM at ${config.url} sent no choices[0].message.content`);
  // Qwen3 may think aloud first: drop <think>...</think>
  const score = parseLlmScore(content.replace(/<think>[\s\S]*?<\/think>/g, ""));
  if (score === null) throw new Error(`scorer LLM reply ${JSON.stringify(content.slice(0, 80))} holds no 0-5 score`);
  return score;
}
