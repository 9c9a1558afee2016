import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudyBySlug } from "@/lib/studies";
import { deleteModelRun } from "@/lib/model-runs";

const paramsSchema = z.object({ slug: studySlugSchema, runId: z.string().min(1).max(64) });

export async function DELETE(_request: Request, context: { params: Promise<{ slug: string; runId: string }> }) {
  try {
    const { slug, runId } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const study = await getStudyBySlug(slug);
    await deleteModelRun(study.id, runId, user.id);
    return new Response(null, { status: 204 });
  } catch (error) {
    return toResponse(error);
  }
}
