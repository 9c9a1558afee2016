import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { visitStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { dashboardReplySchema } from "@/lib/validations/dashboard-reply";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * The dashboard's figures as JSON, with the same search params as the page (tag, annotator,
 * encoding, level, ci), for notebooks and scripts, with the interval method (`method`) and people
 * against each model on the same items (`comparison`). A large study's view that the job worker has
 * not computed yet answers 202 with `pending: true` and the live progress: ask again.
 */
export const GET = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    status: [200, 202],
    params: paramsSchema,
    response: dashboardReplySchema,
    summary: "The dashboard's figures, with the interval method and people against each model on the same items",
  },
  async ({ request, params }) => {
    const view = await visitStudyDashboard(params.slug, Object.fromEntries(new URL(request.url).searchParams));
    return Response.json(view, {
      status: "pending" in view ? 202 : 200,
      headers: { "cache-control": "no-store", ...("pending" in view ? { "retry-after": "5" } : {}) },
    });
  },
);
