import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { studyActionBodySchema, transitionProlificStudy } from "@/lib/recruitment/prolific/study";

const paramsSchema = z.object({ slug: studySlugSchema });

/** POST /api/studies/<slug>/prolific/transition { action: PUBLISH | PAUSE | START | STOP }: the study's owner moves the Prolific study. */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    errors: [409],
    params: paramsSchema,
    body: studyActionBodySchema,
    summary: "Publish, pause, start or stop the Prolific study (the study's owner)",
  },
  async ({ params, user, body }) => Response.json(await transitionProlificStudy(params.slug, body.action, user.id)),
);
