import { z } from "zod";
import { route } from "@/lib/http/route";
import { withdrawFromStudy } from "@/lib/participants/participants";
import { studySlugParamSchema } from "@/lib/validations/annotate";

const withdrawSchema = z.object({ confirm: z.literal("withdraw", { message: 'type "withdraw" to confirm' }) });

/**
 * POST /api/annotate/studies/[slug]/withdraw { confirm: "withdraw" } -> 200 { assignments, responses, events }:
 * the participant's responses and events in the study are deleted (audit entry); the page signs them out.
 */
export const POST = route(
  {
    roles: "signed-in",
    summary: "Withdraw from the study: the person's answers and events are deleted",
    errors: [409],
    params: studySlugParamSchema,
    body: withdrawSchema,
  },
  async ({ params, user }) => Response.json(await withdrawFromStudy(params.slug, user.id)),
);
