import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { reviewResultsQuerySchema, reviewSlugParamSchema } from "@/lib/validations/review";
import { getReviewResults } from "@/lib/review/results";

/**
 * GET /api/review/studies/<slug>/results?outcome=all|PENDING|KEPT|EXCLUDED|CONTESTED|split&page=
 * Outcome counts, per-axis pass rates and alpha (overall and by tag), the contested queue, a page
 * of items with their votes and reasons, and the studies the outcomes reach (staff).
 */
export async function GET(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = reviewSlugParamSchema.parse(await context.params);
    await requireRole("ADMIN", "RESEARCHER");
    const query = reviewResultsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    return Response.json(await getReviewResults(slug, query), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return toResponse(error);
  }
}
