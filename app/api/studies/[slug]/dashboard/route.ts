import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * The dashboard's figures as JSON, with the same search params as the page (tag, annotator,
 * encoding, level, ci), for notebooks and scripts.
 */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], params: paramsSchema }, async ({ request, params }) =>
  Response.json(await getStudyDashboard(params.slug, Object.fromEntries(new URL(request.url).searchParams)), { headers: { "cache-control": "no-store" } }),
);
