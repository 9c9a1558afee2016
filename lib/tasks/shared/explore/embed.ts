import { embedTexts, type EmbedderConfig } from "@/lib/scoring/embed";
import {
  categoryKey,
  mergeCandidates,
  prepareObjects,
  prepareText,
  type PreparedObject,
  type SceneObject,
  type SimilarityMatrix,
  type StructuredAnswer,
} from "@/lib/tasks/shared/explore/scorer";

/**
 * EXPLORE-Bench's object matching with the paper's embedder (Sec. 3.3: Sentence-BERT, the
 * authors' all-MiniLM-L6-v2): with SCORER_EMBED_URL set to an OpenAI-compatible `/v1/embeddings`
 * endpoint serving that model (the client: lib/scoring/embed.ts), the similarity of an annotated category and a candidate object is
 * the cosine of their embeddings (negative cosines count 0), as in the paper; without it the
 * structured scorer's lemma/WordNet similarity (explore-nlp.ts categorySimilarity). What is
 * embedded is the lemma phrase of each category ("Bowls" -> "bowl"), the paper's lemmatised nouns.
 * Used by the LLM scorer's background jobs (lib/scoring/llm-jobs.ts), whose tables then name the
 * embedder ("objects matched by all-MiniLM-L6-v2 embeddings"); the structured scorer that runs at
 * submission stays lemma/WordNet (no network call inside an annotator's request).
 */

export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`embeddings of different lengths (${a.length}, ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The text embedded for a category or candidate: its lemma phrase. */
export const embeddedText = (object: Pick<PreparedObject, "lemmas" | "category">) => categoryKey(object.lemmas, object.category);

/**
 * A similarity matrix from embeddings fetched beforehand: `vectors` maps each text to its
 * embedding (embedMatrixFor fills it). Cosine, clipped at 0, rounded to 1e-9 so that ties stay ties.
 */
export function embeddingSimilarity(vectors: ReadonlyMap<string, number[]>): SimilarityMatrix {
  return (annotated, candidates) =>
    annotated.map((a) => {
      const left = vectors.get(embeddedText(a));
      return candidates.map((p) => {
        const right = vectors.get(embeddedText(p));
        if (!left || !right) throw new Error(`no embedding for ${JSON.stringify(left ? embeddedText(p) : embeddedText(a))}`);
        return Math.max(0, Math.round(cosine(left, right) * 1e9) / 1e9);
      });
    });
}

/** Embeds the texts not yet in `vectors` (one request per 256) and adds them. */
export async function embedMissing(config: EmbedderConfig, vectors: Map<string, number[]>, texts: Iterable<string>): Promise<void> {
  const missing = [...new Set(texts)].filter((text) => !vectors.has(text));
  if (missing.length === 0) return;
  const embedded = await embedTexts(config, missing);
  missing.forEach((text, i) => vectors.set(text, embedded[i]));
}

/** The embedding similarity for one answer against one key: embeds what `vectors` lacks first (a cache shared by a job). */
export async function embeddingMatrixFor(
  config: EmbedderConfig,
  vectors: Map<string, number[]>,
  answer: StructuredAnswer,
  key: { objects: SceneObject[] },
): Promise<SimilarityMatrix> {
  const annotated = prepareObjects(key.objects);
  const candidates = answer.objects.length > 0 ? mergeCandidates(prepareObjects(answer.objects)) : prepareText(answer.text);
  await embedMissing(config, vectors, [...annotated, ...candidates].map(embeddedText));
  return embeddingSimilarity(vectors);
}
