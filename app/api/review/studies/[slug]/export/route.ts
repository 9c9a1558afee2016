import { route } from "@/lib/http/route";
import { reviewExportQuerySchema, reviewSlugParamSchema } from "@/lib/validations/review";
import { createReviewExport } from "@/lib/review/export";

/**
 * GET /api/review/studies/<slug>/export?format=csv|jsonl
 * Streams every verdict (review x axis) with the item's outcome and decision, as an attachment.
 * Columns: docs/review.md. Staff only.
 */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], params: reviewSlugParamSchema, query: reviewExportQuerySchema }, async ({ params, query }) => {
  const { stream, fileName, contentType } = await createReviewExport(params.slug, query.format);
  return new Response(stream, {
    headers: {
      "content-type": contentType,
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
