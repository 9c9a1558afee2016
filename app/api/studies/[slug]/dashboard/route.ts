import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * The dashboard's figures as JSON, with the same search params as the page (tag, annotator,
 * encoding, level, ci), for notebooks and scripts.
 */
export async function GET(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    await requireRole("ADMIN", "RESEARCHER");
    const url = new URL(request.url);
    return Response.json(await getStudyDashboard(slug, Object.fromEntries(url.searchParams)), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return toResponse(error);
  }
}
