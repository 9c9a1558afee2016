import { z } from "zod";
import { route } from "@/lib/http/route";
import { acceptConsent } from "@/lib/participants/participants";
import { studySlugParamSchema } from "@/lib/validations/annotate";

const consentSchema = z.object({ version: z.number().int().min(1), accept: z.literal(true, { message: "tick the box to accept" }) });

/**
 * POST /api/annotate/studies/[slug]/consent { version, accept: true } -> 200 { consentVersion, consentedAt }.
 * 409 when the consent text changed since the page was shown (its version differs).
 */
export const POST = route(
  { roles: "signed-in", summary: "Accept the study's current consent text", errors: [409], params: studySlugParamSchema, body: consentSchema },
  async ({ params, user, body }) => Response.json(await acceptConsent(params.slug, user.id, body.version)),
);
