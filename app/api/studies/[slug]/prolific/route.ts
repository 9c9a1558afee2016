import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { createProlificDraft, draftBodySchema, getProlificStudyView } from "@/lib/recruitment/prolific/study";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/prolific: the study's Prolific study (state, reward, time, places, sync), its submissions and batches, and what a draft would take. */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], params: paramsSchema, summary: "The study's recruitment on Prolific" }, async ({ params, user }) =>
  Response.json(await getProlificStudyView(params.slug, user.id)),
);

/**
 * POST /api/studies/<slug>/prolific { description, hourlyRate, estimatedMinutes?, places? }: creates the Prolific study as a
 * draft. The study's owner only (their token, their workspace's money); 409 when there is one already.
 */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    errors: [409],
    params: paramsSchema,
    body: draftBodySchema,
    summary: "Create the study's Prolific draft (the study's owner)",
  },
  async ({ params, user, body }) => Response.json(await createProlificDraft(params.slug, body, user.id)),
);
