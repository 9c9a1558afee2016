import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { reviewExportQuerySchema, reviewSlugParamSchema } from "@/lib/validations/review";
import { createReviewExport } from "@/lib/review/export";

/**
 * GET /api/review/studies/<slug>/export?format=csv|jsonl
 * Streams every verdict (review x axis) with the item's outcome and decision, as an attachment.
 * Columns: docs/review.md. Staff only.
 */
export async function GET(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = reviewSlugParamSchema.parse(await context.params);
    await requireRole("ADMIN", "RESEARCHER");
    const { format } = reviewExportQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    const { stream, fileName, contentType } = await createReviewExport(slug, format);
    return new Response(stream, {
      headers: {
        "content-type": contentType,
        "content-disposition": `attachment; filename="${fileName}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  } catch (error) {
    return toResponse(error);
  }
}
