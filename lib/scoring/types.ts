import type { ScoringJobStatus } from "@/lib/generated/prisma/enums";

/**
 * The shapes of the LLM scoring jobs that the dashboard and the task kinds read (types only), kept
 * apart from lib/scoring/llm-jobs.ts so that a kind's dashboard names them without importing the
 * job runner, which imports the task registry.
 */

export interface ScoringJobError {
  at: string;
  target: string;
  message: string;
}

export interface ScoringJobView {
  id: string;
  status: ScoringJobStatus;
  kind: string;
  scorer: string;
  model: string;
  promptVersion: string;
  total: number;
  done: number;
  failed: number;
  requests: number;
  cacheHits: number;
  /** share of the job's answers handled (scored or failed), 0-1; null before it started counting */
  progress: number | null;
  errors: ScoringJobError[];
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface LlmScoringStatus {
  /** a scorer LLM is configured on this server (SCORER_LLM_URL) */
  configured: boolean;
  /** the configured model (SCORER_LLM_MODEL), null when none is configured */
  model: string | null;
  promptVersion: string;
  /** the study's latest jobs, newest first */
  jobs: ScoringJobView[];
  /** answers and predictions the configured model has not scored yet; null without a configured model */
  unscored: { responses: number; predictions: number } | null;
}
