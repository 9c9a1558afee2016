import { attachmentResponse } from "@/lib/http/attachment";
import { route } from "@/lib/http/route";
import { reviewExportQuerySchema, reviewSlugParamSchema } from "@/lib/validations/review";
import { createReviewExport } from "@/lib/review/export";

/**
 * GET /api/review/studies/<slug>/export?format=csv|jsonl
 * Streams every verdict (review x axis) with the item's outcome and decision, as an attachment.
 * Columns: docs/review.md. Staff only.
 */
export const GET = route(
  { roles: ["ADMIN", "RESEARCHER"], summary: "The review's verdicts as CSV or JSONL", params: reviewSlugParamSchema, query: reviewExportQuerySchema },
  async ({ params, query }) => {
    return attachmentResponse(await createReviewExport(params.slug, query.format));
  },
);
