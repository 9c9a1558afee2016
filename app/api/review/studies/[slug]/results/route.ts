import { route } from "@/lib/http/route";
import { reviewResultsQuerySchema, reviewSlugParamSchema } from "@/lib/validations/review";
import { getReviewResults } from "@/lib/review/results";

/**
 * GET /api/review/studies/<slug>/results?outcome=all|PENDING|KEPT|EXCLUDED|CONTESTED|split&page=
 * Outcome counts, per-axis pass rates and alpha (overall and by tag), the contested queue, a page
 * of items with their votes and reasons, and the studies the outcomes reach (staff).
 */
export const GET = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "The review's results: per axis, per item, per tag, the contested queue and the reviewers",
    params: reviewSlugParamSchema,
    query: reviewResultsQuerySchema,
  },
  async ({ params, query }) => Response.json(await getReviewResults(params.slug, query), { headers: { "cache-control": "no-store" } }),
);
