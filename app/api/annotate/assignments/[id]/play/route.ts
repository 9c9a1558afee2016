import { route } from "@/lib/http/route";
import { getPlay, playStep } from "@/lib/annotate/play";
import { assignmentParamSchema, playStepSchema } from "@/lib/validations/annotate";
import { jsonResponse } from "@/lib/http/json";

/** GET /api/annotate/assignments/[id]/play: the episode so far (started on the first call): { seq, view, steps }. */
export const GET = route({ roles: "signed-in", params: assignmentParamSchema }, async ({ params, user }) => jsonResponse(await getPlay(user.id, params.id)));

/**
 * POST /api/annotate/assignments/[id]/play { seq, action } -> { seq, view, valid, message, duplicate }.
 * A retry of a stored seq returns the stored result; another out-of-order seq is 409 with
 * details.expectedSeq; 503 when a remote simulator is down.
 */
export const POST = route({ roles: "signed-in", params: assignmentParamSchema, body: playStepSchema }, async ({ params, user, body }) =>
  jsonResponse(await playStep(user.id, params.id, body)),
);
