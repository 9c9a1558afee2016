/**
 * The scoring jobs' embedder: an OpenAI-compatible `/v1/embeddings` endpoint (SCORER_EMBED_URL,
 * SCORER_EMBED_MODEL, SCORER_EMBED_API_KEY), which a kind's LLM scoring may match with
 * (KindLlmScoring.plan is given it; EXPLORE-Bench matches objects by the cosine of their embeddings).
 */

export interface EmbedderConfig {
  /** e.g. http://host:8080/v1/embeddings (SCORER_EMBED_URL) */
  url: string;
  /** the model name sent and shown (SCORER_EMBED_MODEL; default all-MiniLM-L6-v2) */
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

export const DEFAULT_EMBED_MODEL = "all-MiniLM-L6-v2";
/** Texts per embeddings request. */
const BATCH = 256;

export function embedderFromEnv(env: Record<string, string | undefined> = process.env): EmbedderConfig | null {
  const url = env.SCORER_EMBED_URL?.trim();
  if (!url) return null;
  return { url, model: env.SCORER_EMBED_MODEL?.trim() || DEFAULT_EMBED_MODEL, apiKey: env.SCORER_EMBED_API_KEY?.trim() || undefined };
}

/** The embeddings of texts, in their order. Throws with the URL and the reason when the server fails. */
export async function embedTexts(config: EmbedderConfig, texts: readonly string[]): Promise<number[][]> {
  const fetchImpl = config.fetchImpl ?? fetch;
  const out: number[][] = [];
  for (let at = 0; at < texts.length; at += BATCH) {
    const input = texts.slice(at, at + BATCH);
    const send = () =>
      fetchImpl(config.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
        body: JSON.stringify({ model: config.model, input }),
        signal: AbortSignal.timeout(config.timeoutMs ?? 60_000),
      });
    let response: Response;
    try {
      // one retry on a network error: a kept-alive connection the server closed meanwhile fails once
      response = await send().catch(send);
    } catch (error) {
      throw new Error(`embedder at ${config.url} did not answer: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) throw new Error(`embedder at ${config.url} answered HTTP ${response.status}`);
    const body = (await response.json().catch(() => null)) as { data?: Array<{ index?: number; embedding?: unknown }> } | null;
    const data = body?.data;
    if (!Array.isArray(data) || data.length !== input.length)
      throw new Error(`embedder at ${config.url} sent ${Array.isArray(data) ? data.length : "no"} embeddings for ${input.length} texts`);
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    for (const entry of ordered) {
      const vector = entry.embedding;
      if (!Array.isArray(vector) || vector.length === 0 || !vector.every((x) => typeof x === "number" && Number.isFinite(x)))
        throw new Error(`embedder at ${config.url} sent an embedding that is not a list of numbers`);
      out.push(vector as number[]);
    }
  }
  return out;
}
