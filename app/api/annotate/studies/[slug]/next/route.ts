import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { nextForMember } from "@/lib/annotate/next";
import { nextAssignmentQuerySchema, studySlugParamSchema } from "@/lib/validations/annotate";

/**
 * GET /api/annotate/studies/[slug]/next?exclude=<assignmentId>,...
 * The assignment to work on next (created on demand), skipping the ones the browser holds: the
 * item on screen when prefetching, and submissions not yet acknowledged.
 * 200 { status: "item", assignment, progress } | { status: "done", progress, completionCode }
 *   | { status: "wait", progress } | { status: "closed", progress }; 403 when not a member.
 */
export async function GET(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = studySlugParamSchema.parse(await context.params);
    const user = await requireRole();
    const { exclude } = nextAssignmentQuerySchema.parse({ exclude: new URL(request.url).searchParams.get("exclude") ?? undefined });
    return Response.json(await nextForMember(slug, user.id, exclude), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return toResponse(error);
  }
}
