import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudyBySlug } from "@/lib/studies/studies";
import { getLlmScoringStatus } from "@/lib/scoring/llm-jobs";
import { startLlmScoring } from "@/lib/scoring/runner";

const paramsSchema = z.object({ slug: studySlugSchema });

/** The LLM scorer's state for the study: configured model, recent jobs with progress, answers not scored yet. */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], params: paramsSchema }, async ({ params }) => {
  const study = await getStudyBySlug(params.slug);
  return Response.json(await getLlmScoringStatus(study.id), { headers: { "cache-control": "no-store" } });
});

/**
 * Starts LLM scoring of the study's unscored EXPLORE answers and model predictions in the
 * background (201), or returns the unfinished job already doing it (200). 409 when no scorer LLM
 * is configured.
 */
export const POST = route({ roles: ["ADMIN", "RESEARCHER"], params: paramsSchema }, async ({ params, user }) => {
  const { job, created } = await startLlmScoring(params.slug, user.id);
  return Response.json({ job, created }, { status: created ? 201 : 200 });
});
