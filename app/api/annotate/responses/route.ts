import { requireSessionUserId } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { submitResponse } from "@/lib/responses";
import { responseCreateSchema } from "@/lib/validations/annotate";
import { jsonResponse } from "@/lib/http/json";
import { assertSameSite } from "@/lib/security/csrf";

/**
 * POST /api/annotate/responses { assignmentId, clientId, answer, confidence, wallMs, activeMs, submitSeq }
 * -> 200 { responseId, assignmentId, clientId, duplicate, purpose, feedback? } (feedback: practice
 * items only). A retry with the same clientId returns the stored result; another clientId for an
 * answered assignment is 409; 422 for an answer or confidence that does not fit the item or scale.
 */
export async function POST(request: Request) {
  try {
    assertSameSite(request); // proxy.ts leaves the annotation API to its handlers (one function call less per request)
    const userId = await requireSessionUserId(); // the account is checked in the write's own statement
    const input = responseCreateSchema.parse(await readJsonBody(request));
    return jsonResponse(await submitResponse(userId, input));
  } catch (error) {
    return toResponse(error);
  }
}
