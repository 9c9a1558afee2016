import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { visitStudyDashboard } from "@/lib/dashboard/study-dashboard";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * The dashboard's figures as JSON, with the same search params as the page (tag, annotator,
 * encoding, level, ci), for notebooks and scripts. A large study's view that the job worker has
 * not computed yet answers 202 with `pending: true` and the live progress: ask again.
 */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], params: paramsSchema }, async ({ request, params }) => {
  const view = await visitStudyDashboard(params.slug, Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(view, { status: "pending" in view ? 202 : 200, headers: { "cache-control": "no-store", ...("pending" in view ? { "retry-after": "5" } : {}) } });
});
