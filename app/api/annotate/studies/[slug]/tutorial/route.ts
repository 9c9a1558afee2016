import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { completeTutorial } from "@/lib/participants";
import { studySlugParamSchema } from "@/lib/validations/annotate";
import { assertSameSite } from "@/lib/security/csrf";

/** POST /api/annotate/studies/[slug]/tutorial -> 204: the participant read the tutorial pages. */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    assertSameSite(request); // proxy.ts leaves the annotation API to its handlers (one function call less per request)
    const { slug } = studySlugParamSchema.parse(await context.params);
    const user = await requireRole();
    await completeTutorial(slug, user.id);
    return new Response(null, { status: 204 });
  } catch (error) {
    return toResponse(error);
  }
}
