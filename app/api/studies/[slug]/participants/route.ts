import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { actOnParticipant, listParticipants, participantActionSchema } from "@/lib/participants/participants";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/participants: every participant with status, reason, times and counts. */
export const GET = route(
  { roles: ["ADMIN", "RESEARCHER"], summary: "The study's participants with their state, progress and recruitment source", params: paramsSchema },
  async ({ params }) => Response.json(await listParticipants(params.slug)),
);

/**
 * POST /api/studies/<slug>/participants { action: "return" | "reinclude", userId, reason? } -> 200 { status, released }.
 * return: RETURNED, open assignments RELEASED; reinclude: an EXCLUDED participant becomes ACTIVE. Audited.
 */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "Mark a participant returned (their place freed) or include them again",
    errors: [409],
    params: paramsSchema,
    body: participantActionSchema,
  },
  async ({ params, user, body }) => Response.json(await actOnParticipant(params.slug, body, user.id)),
);
