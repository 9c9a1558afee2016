import { z } from "zod";
import { attachmentResponse } from "@/lib/http/attachment";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { comparisonExport } from "@/lib/exports/comparison";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * GET /api/studies/<slug>/comparison.csv?tag=&plan=&reviewed=&participants=: people against each
 * model on the same items, the dashboard's comparison rows (columns: docs/exports.md). A large
 * study's view not computed yet answers 202 with `pending: true`: ask again.
 */
export const GET = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    status: [200, 202],
    params: paramsSchema,
    summary: "People against each model on the same items, as CSV (the dashboard's comparison)",
  },
  async ({ request, params, user }) => {
    const result = await comparisonExport(params.slug, Object.fromEntries(new URL(request.url).searchParams), user.id);
    if ("pending" in result) return Response.json(result, { status: 202, headers: { "cache-control": "no-store", "retry-after": "5" } });
    const bytes = new TextEncoder().encode(result.text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    return attachmentResponse({ stream, fileName: result.fileName, contentType: "text/csv; charset=utf-8" });
  },
);
