import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudyBySlug } from "@/lib/studies";
import { getLlmScoringStatus } from "@/lib/scoring/llm-jobs";
import { startLlmScoring } from "@/lib/scoring/runner";

const paramsSchema = z.object({ slug: studySlugSchema });

/** The LLM scorer's state for the study: configured model, recent jobs with progress, answers not scored yet. */
export async function GET(_request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    await requireRole("ADMIN", "RESEARCHER");
    const study = await getStudyBySlug(slug);
    return Response.json(await getLlmScoringStatus(study.id), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return toResponse(error);
  }
}

/**
 * Starts LLM scoring of the study's unscored EXPLORE answers and model predictions in the
 * background (201), or returns the unfinished job already doing it (200). 409 when no scorer LLM
 * is configured.
 */
export async function POST(_request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const { job, created } = await startLlmScoring(slug, user.id);
    return Response.json({ job, created }, { status: created ? 201 : 200 });
  } catch (error) {
    return toResponse(error);
  }
}
