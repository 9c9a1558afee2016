import "server-only";
import { db } from "@/lib/db";

/**
 * Data access for the scorer-LLM reply cache (ScorerCache). The key and what it covers are
 * lib/scoring/scorer-cache.ts's.
 */

export interface ScorerCacheRow {
  key: string;
  model: string;
  promptVersion: string;
  aspect: string;
  phrase: string;
  sentence: string;
  score: number;
  reply: string;
}

/** key -> cached score, for the keys that are cached. */
export async function findCachedScores(keys: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.scorerCache.findMany({ where: { key: { in: [...new Set(keys)] } }, select: { key: true, score: true } });
  return new Map(rows.map((row) => [row.key, row.score]));
}

/** Stores a reply unless its key is cached already (the first reply stays). */
export async function insertCachedScore(row: ScorerCacheRow): Promise<void> {
  await db.scorerCache.createMany({ data: [row], skipDuplicates: true });
}
