import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { acceptConsent } from "@/lib/participants";
import { studySlugParamSchema } from "@/lib/validations/annotate";
import { assertSameSite } from "@/lib/security/csrf";

const consentSchema = z.object({ version: z.number().int().min(1), accept: z.literal(true, { message: "tick the box to accept" }) });

/**
 * POST /api/annotate/studies/[slug]/consent { version, accept: true } -> 200 { consentVersion, consentedAt }.
 * 409 when the consent text changed since the page was shown (its version differs).
 */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    assertSameSite(request); // proxy.ts leaves the annotation API to its handlers (one function call less per request)
    const { slug } = studySlugParamSchema.parse(await context.params);
    const user = await requireRole();
    const { version } = consentSchema.parse(await readJsonBody(request));
    return Response.json(await acceptConsent(slug, user.id, version));
  } catch (error) {
    return toResponse(error);
  }
}
