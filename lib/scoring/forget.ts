import "server-only";
import type { Tx } from "@/lib/db/client-types";
import { llmScoredKinds } from "@/lib/scoring/llm-jobs";

/**
 * Deletes the scorer LLM's cached replies (ScorerCache) to prompts holding a person's texts, for a
 * withdrawal: a row goes when its sentence is one of the texts, or holds one whole between spaces
 * (EXPLORE joins an answer's sentences). The cache is shared, so another answer with the same
 * text loses its cached reply too and is asked again: a cost, never a wrong score. Returns the rows deleted.
 */
export async function forgetAnswersInScorerCache(tx: Tx, answers: ReadonlyArray<{ kind: string; answer: unknown }>): Promise<number> {
  const kinds = new Map(llmScoredKinds().map((entry) => [entry.kind, entry]));
  const texts = new Set<string>();
  for (const { kind, answer } of answers) {
    const scored = kinds.get(kind);
    if (!scored) continue;
    for (const text of (await scored.load()).answerTexts(answer)) if (text.trim() !== "") texts.add(text.trim());
  }
  if (texts.size === 0) return 0;
  return tx.$executeRaw`
    DELETE FROM "ScorerCache" c
    WHERE EXISTS (SELECT 1 FROM unnest(${[...texts]}::text[]) t WHERE c.sentence = t OR strpos(' ' || c.sentence || ' ', ' ' || t || ' ') > 0)`;
}
