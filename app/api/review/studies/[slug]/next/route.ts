import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { reviewNextQuerySchema, reviewSlugParamSchema } from "@/lib/validations/review";
import { nextReviewFor } from "@/lib/review/work";

/**
 * GET /api/review/studies/<slug>/next?exclude=<reviewAssignmentId>,...
 * The reviewer's next item with its answer key (created on demand). Any signed-in user who is a
 * reviewer of the review study (membership grants it, whatever the role); 403 for anyone else.
 * 200 { status: "item", view, progress } | { status: "done" | "closed", progress }.
 */
export async function GET(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = reviewSlugParamSchema.parse(await context.params);
    const user = await requireRole();
    const { exclude } = reviewNextQuerySchema.parse({ exclude: new URL(request.url).searchParams.get("exclude") ?? undefined });
    return Response.json(await nextReviewFor(slug, user.id, exclude), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return toResponse(error);
  }
}
