import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { getPlay, playStep } from "@/lib/play";
import { assignmentParamSchema, playStepSchema } from "@/lib/validations/annotate";
import { jsonResponse } from "@/lib/http/json";
import { assertSameSite } from "@/lib/security/csrf";


/** GET /api/annotate/assignments/[id]/play: the episode so far (started on the first call): { seq, view, steps }. */
export async function GET(_request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = assignmentParamSchema.parse(await context.params);
    const user = await requireRole();
    return jsonResponse(await getPlay(user.id, id));
  } catch (error) {
    return toResponse(error);
  }
}

/**
 * POST /api/annotate/assignments/[id]/play { seq, action } -> { seq, view, valid, message, duplicate }.
 * A retry of a stored seq returns the stored result; another out-of-order seq is 409 with
 * details.expectedSeq; 503 when a remote simulator is down.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    assertSameSite(request); // proxy.ts leaves the annotation API to its handlers (one function call less per request)
    const { id } = assignmentParamSchema.parse(await context.params);
    const user = await requireRole();
    const input = playStepSchema.parse(await readJsonBody(request));
    return jsonResponse(await playStep(user.id, id, input));
  } catch (error) {
    return toResponse(error);
  }
}
