import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { studyProgressSchema } from "@/lib/validations/api-replies";
import { getStudyBySlug } from "@/lib/studies/studies";
import { getStudyProgress } from "@/lib/dashboard/progress";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * GET /api/studies/<slug>/progress: the study's progress figures alone (the dashboard's `progress`:
 * done of expected, items complete, per annotator, per day, active now), read from the tallies the
 * database keeps (lib/dashboard/progress.ts), so a poller need not fetch the whole dashboard.
 */
export const GET = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    params: paramsSchema,
    response: studyProgressSchema,
    summary: "The study's progress: responses done of expected, items complete, per annotator and day",
  },
  async ({ params }) => {
    const study = await getStudyBySlug(params.slug);
    return Response.json(await getStudyProgress(study.id, study.overlap), { headers: { "cache-control": "no-store" } });
  },
);
