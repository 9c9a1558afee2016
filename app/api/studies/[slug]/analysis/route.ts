import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { studyAnalysisChangeSchema } from "@/lib/validations/study-settings";
import { updateStudyAnalysis } from "@/lib/studies/settings";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * PATCH /api/studies/<slug>/analysis { generaliseOver: "people+items" | "items" } -> 200 the same:
 * what the dashboards' intervals generalise over. Allowed once the study has answers (it changes
 * the analysis, not the work); the dashboard's stored views are recomputed.
 */
export const PATCH = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    errors: [409],
    params: paramsSchema,
    body: studyAnalysisChangeSchema,
    response: studyAnalysisChangeSchema,
    summary: "What the dashboard's intervals generalise over (people and items, or items only)",
  },
  async ({ params, user, body }) => Response.json(await updateStudyAnalysis(params.slug, body, user.id)),
);
