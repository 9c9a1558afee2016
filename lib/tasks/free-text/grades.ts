import { parseJudgeVersion } from "@/lib/tasks/free-text/judge";
import { promptFileHashes } from "@/lib/tasks/free-text/judge-file";
import { isGrade, llmMatchScore } from "@/lib/tasks/shared/llm-match/rubric";

/**
 * One judge's grade as stored (ScorerResult.score of a free-text answer): the grade, its LLM-Match
 * score and the judge that gave it: model, prompt version, temperature and seed, and with a
 * benchmark's prompt file the sha256 of the file(s) and the token cap. `synthetic` marks grades
 * that no LLM gave (the demo's synthetic judge).
 */
export interface FreeTextGradeRecord {
  grade: number;
  score: number;
  judge: {
    model: string;
    promptVersion: string;
    temperature: number | null;
    seed: number | null;
    maxTokens?: number;
    promptSha256?: string[];
    synthetic?: boolean;
  };
  /** how many reference answers the judge was shown */
  references: number;
}

export function freeTextGradeRecord(grade: number, model: string, promptVersion: string, references: number, synthetic = false): FreeTextGradeRecord {
  if (!isGrade(grade)) throw new Error(`a judge grade is an integer 1-5, got ${String(grade)}`);
  const settings = parseJudgeVersion(promptVersion);
  return {
    grade,
    score: llmMatchScore(grade),
    judge: {
      model,
      promptVersion,
      temperature: settings?.temperature ?? null,
      seed: settings?.seed ?? null,
      ...(settings?.maxTokens !== undefined ? { maxTokens: settings.maxTokens } : {}),
      ...(settings && promptFileHashes(settings.prompt) ? { promptSha256: promptFileHashes(settings.prompt)! } : {}),
      ...(synthetic ? { synthetic: true } : {}),
    },
    references,
  };
}

export function isFreeTextGradeRecord(value: unknown): value is FreeTextGradeRecord {
  return (
    value !== null && typeof value === "object" && isGrade((value as { grade?: unknown }).grade) && typeof (value as { judge?: unknown }).judge === "object"
  );
}
