import { bearerTokenOf, route } from "@/lib/http/route";
import { nextForMember } from "@/lib/annotate/next";
import { nextAssignmentQuerySchema, studySlugParamSchema } from "@/lib/validations/annotate";
import { nextReplySchema } from "@/lib/validations/annotate-replies";
import { jsonResponse } from "@/lib/http/json";

/**
 * GET /api/annotate/studies/[slug]/next?exclude=<assignmentId>,...
 * The assignment to work on next (created on demand), skipping the ones the browser holds: the
 * item on screen when prefetching, and submissions not yet acknowledged.
 * 200 { status, progress, ... }: "item" (with the assignment), "done" / "quota" (with the
 *   completion), "wait" (ask again shortly), "closed" / "paused" / "full", "excluded" /
 *   "timed_out" / "returned" (with the reason), "consent" / "tutorial" (with the path): see
 *   NextView in lib/annotate/next.ts and the queue rules in lib/assignment (docs/assignment.md).
 *   A caller with an API token (an agent) gets the agent contract with the assignment
 *   (`assignment.agent`, docs/api.md); the browser does not need it.
 * 403 when not a member; 503 with Retry-After when the database is busy or restarting (retry).
 */
export const GET = route(
  {
    roles: "signed-in",
    params: studySlugParamSchema,
    query: nextAssignmentQuerySchema,
    response: nextReplySchema,
    summary: "The next item to work on (with the agent contract for API tokens)",
  },
  async ({ request, params, user, query }) =>
    jsonResponse(await nextForMember(params.slug, user.id, query.exclude, { withAgentContract: bearerTokenOf(request) !== null })),
);
