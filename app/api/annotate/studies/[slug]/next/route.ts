import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { nextForMember } from "@/lib/annotate/next";
import { nextAssignmentQuerySchema, studySlugParamSchema } from "@/lib/validations/annotate";
import { jsonResponse } from "@/lib/http/json";

/**
 * GET /api/annotate/studies/[slug]/next?exclude=<assignmentId>,...
 * The assignment to work on next (created on demand), skipping the ones the browser holds: the
 * item on screen when prefetching, and submissions not yet acknowledged.
 * 200 { status, progress, ... }: "item" (with the assignment), "done" / "quota" (with the
 *   completion), "wait" (ask again shortly), "closed" / "paused" / "full", "excluded" /
 *   "timed_out" / "returned" (with the reason), "consent" / "tutorial" (with the path): see
 *   NextView in lib/annotate/next.ts and the queue rules in lib/assignment (docs/assignment.md).
 * 403 when not a member; 503 with Retry-After when the database is busy or restarting (retry).
 */
export async function GET(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = studySlugParamSchema.parse(await context.params);
    const user = await requireRole();
    const { exclude } = nextAssignmentQuerySchema.parse({ exclude: new URL(request.url).searchParams.get("exclude") ?? undefined });
    return jsonResponse(await nextForMember(slug, user.id, exclude));
  } catch (error) {
    return toResponse(error);
  }
}
