import { route } from "@/lib/http/route";
import { reviewNextQuerySchema, reviewSlugParamSchema } from "@/lib/validations/review";
import { nextReviewFor } from "@/lib/review/work";

/**
 * GET /api/review/studies/<slug>/next?exclude=<reviewAssignmentId>,...
 * The reviewer's next item with its answer key (created on demand). Any signed-in user who is a
 * reviewer of the review study (membership grants it, whatever the role); 403 for anyone else.
 * 200 { status: "item", view, progress } | { status: "done" | "closed", progress }.
 */
export const GET = route(
  {
    roles: "signed-in",
    summary: "The next item for the signed-in reviewer, with its key",
    errors: [409],
    params: reviewSlugParamSchema,
    query: reviewNextQuerySchema,
  },
  async ({ params, user, query }) => Response.json(await nextReviewFor(params.slug, user.id, query.exclude), { headers: { "cache-control": "no-store" } }),
);
