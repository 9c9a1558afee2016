import { route } from "@/lib/http/route";
import { submitResponse } from "@/lib/responses/responses";
import { responseCreateSchema } from "@/lib/validations/annotate";
import { jsonResponse } from "@/lib/http/json";

/**
 * POST /api/annotate/responses { assignmentId, clientId, answer, confidence, wallMs, activeMs, submitSeq }
 * -> 200 { responseId, assignmentId, clientId, duplicate, purpose, feedback? } (feedback: practice
 * items only). A retry with the same clientId returns the stored result; another clientId for an
 * answered assignment is 409; 422 for an answer or confidence that does not fit the item or scale.
 * The account is checked in the write's own statement.
 */
export const POST = route(
  {
    roles: "session-token",
    summary: "Submit the answer and confidence of an assignment (scored on the server; stored once)",
    errors: [409],
    body: responseCreateSchema,
  },
  async ({ user, body }) => jsonResponse(await submitResponse(user.id, body)),
);
