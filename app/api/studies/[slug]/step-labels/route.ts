import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { studySlugSchema } from "@/lib/validations/study";
import { setStepLabel, stepLabelInputSchema } from "@/lib/esi/step-labels";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * POST /api/studies/[slug]/step-labels { assignmentId, seq, label } -> { seq, label }: the
 * researcher's label of one step of a replayed ESI-Bench trajectory ("redundant", "confirmatory",
 * "contrastive"; null removes it).
 */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const input = stepLabelInputSchema.parse(await readJsonBody(request));
    return Response.json(await setStepLabel(slug, user.id, input));
  } catch (error) {
    return toResponse(error);
  }
}
