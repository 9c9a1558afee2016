import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { withdrawFromStudy } from "@/lib/participants";
import { studySlugParamSchema } from "@/lib/validations/annotate";
import { assertSameSite } from "@/lib/security/csrf";

const withdrawSchema = z.object({ confirm: z.literal("withdraw", { message: 'type "withdraw" to confirm' }) });

/**
 * POST /api/annotate/studies/[slug]/withdraw { confirm: "withdraw" } -> 200 { assignments, responses, events }:
 * the participant's responses and events in the study are deleted (audit entry); the page signs them out.
 */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    assertSameSite(request); // proxy.ts leaves the annotation API to its handlers (one function call less per request)
    const { slug } = studySlugParamSchema.parse(await context.params);
    const user = await requireRole();
    withdrawSchema.parse(await readJsonBody(request));
    return Response.json(await withdrawFromStudy(slug, user.id));
  } catch (error) {
    return toResponse(error);
  }
}
