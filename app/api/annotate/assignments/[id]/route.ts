import { bearerTokenOf, route } from "@/lib/http/route";
import { getAssignmentView } from "@/lib/annotate/assignment-view";
import { assignmentParamSchema } from "@/lib/validations/annotate";
import { assignmentReplySchema } from "@/lib/validations/annotate-replies";
import { jsonResponse } from "@/lib/http/json";

/**
 * GET /api/annotate/assignments/[id]: the item's public view and the stored trajectory (with the
 * agent contract for a caller with an API token); 403 for anyone but its annotator.
 */
export const GET = route(
  { roles: "signed-in", params: assignmentParamSchema, response: assignmentReplySchema, summary: "One of your assignments: its public view and trajectory" },
  async ({ request, params, user }) => jsonResponse(await getAssignmentView(params.id, user.id, { withAgentContract: bearerTokenOf(request) !== null })),
);
