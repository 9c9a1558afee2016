import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { studyStatusChangeSchema } from "@/lib/validations/study-settings";
import { changeStudyStatus } from "@/lib/studies/settings";

const paramsSchema = z.object({ slug: studySlugSchema });

/** POST /api/studies/<slug>/status { status: OPEN|PAUSED|CLOSED } -> 200 { status }; 409 for a step the lifecycle does not allow. */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "Change the study's status (draft, open, paused, closed)",
    errors: [409],
    params: paramsSchema,
    body: studyStatusChangeSchema,
  },
  async ({ params, user, body }) => Response.json(await changeStudyStatus(params.slug, body.status, user.id)),
);
