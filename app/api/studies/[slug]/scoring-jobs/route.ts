import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudyBySlug } from "@/lib/studies/studies";
import { getLlmScoringStatus } from "@/lib/scoring/llm-jobs";
import { startLlmScoring } from "@/lib/scoring/runner";

const paramsSchema = z.object({ slug: studySlugSchema });
/** `kind`: the LLM-scored kind (POST default: every LLM-scored kind the study has items of; GET default: the first registered, with every kind's jobs) */
const querySchema = z.object({ kind: z.string().min(1).max(64).optional() });

/** The LLM scorer's state for the study: configured model, recent jobs with progress, answers not scored yet. */
export const GET = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "The LLM scoring jobs of the study: counts by state and the last errors",
    params: paramsSchema,
    query: querySchema,
  },
  async ({ params, query }) => {
    const study = await getStudyBySlug(params.slug);
    return Response.json(await getLlmScoringStatus(study.id, undefined, query.kind), { headers: { "cache-control": "no-store" } });
  },
);

/**
 * Starts LLM scoring of the study's unscored answers (of `kind`, else of every LLM-scored kind it has items of: a job each) and model predictions in the
 * background (201), or returns the unfinished job already doing it (200). 409 when no scorer LLM
 * is configured.
 */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "Start LLM scoring of the answers not yet scored (202 with the jobs to poll)",
    status: [200, 201],
    errors: [409],
    params: paramsSchema,
    query: querySchema,
  },
  async ({ params, query, user }) => {
    const { job, jobs, created } = await startLlmScoring(params.slug, user.id, query.kind);
    return Response.json({ job, jobs, created }, { status: created ? 201 : 200 });
  },
);
