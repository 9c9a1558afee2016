import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { reviewSlugParamSchema, reviewStudyUpdateSchema } from "@/lib/validations/review";
import { updateReviewStudy } from "@/lib/review/studies";

/** PATCH /api/review/studies/<slug> { status: "OPEN" | "CLOSED" }: a closed review study takes no more verdicts (staff). */
export async function PATCH(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = reviewSlugParamSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const input = reviewStudyUpdateSchema.parse(await readJsonBody(request));
    return Response.json(await updateReviewStudy(slug, input, user.id));
  } catch (error) {
    return toResponse(error);
  }
}
