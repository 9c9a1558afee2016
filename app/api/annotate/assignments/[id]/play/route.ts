import { bearerTokenOf, route } from "@/lib/http/route";
import { getPlay, playStep } from "@/lib/annotate/play";
import { assignmentParamSchema, playStepSchema } from "@/lib/validations/annotate";
import { playStateReplySchema, playStepReplySchema } from "@/lib/validations/annotate-replies";
import { jsonResponse } from "@/lib/http/json";

/**
 * GET /api/annotate/assignments/[id]/play: the episode so far (started on the first call): { seq, view, steps }.
 * A caller with an API token also gets `canAct` and `exampleAction`: whether the episode takes another action, and the
 * kind's trivial next action (the agent contract; docs/api.md).
 */
export const GET = route(
  {
    roles: "signed-in",
    params: assignmentParamSchema,
    response: playStateReplySchema,
    summary: "An interactive item's episode so far (started on the first call)",
  },
  async ({ request, params, user }) => jsonResponse(await getPlay(user.id, params.id, { withPlayAdvice: bearerTokenOf(request) !== null })),
);

/**
 * POST /api/annotate/assignments/[id]/play { seq, action } -> { seq, view, valid, message, duplicate } (and `canAct`, `exampleAction` for an API token).
 * A retry of a stored seq returns the stored result; another out-of-order seq is 409 with
 * details.expectedSeq; 503 when a remote simulator is down.
 */
export const POST = route(
  {
    roles: "signed-in",
    errors: [409],
    params: assignmentParamSchema,
    body: playStepSchema,
    response: playStepReplySchema,
    summary: "One action in an interactive item",
  },
  async ({ request, params, user, body }) => jsonResponse(await playStep(user.id, params.id, body, { withPlayAdvice: bearerTokenOf(request) !== null })),
);
