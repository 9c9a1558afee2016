import { route } from "@/lib/http/route";
import { claimWriter } from "@/lib/responses/writer";
import { assignmentParamSchema, writerClaimSchema } from "@/lib/validations/annotate";
import { jsonResponse } from "@/lib/http/json";

/**
 * POST /api/annotate/assignments/[id]/writer { writer, takeOver } -> 200 { writer, nextSeq }: this
 * tab writes the item from now on (lib/responses/writer.ts). 409 with details.reason "writer" when
 * another tab or device writes it (unless `takeOver`), "submitted" when it was answered already.
 */
export const POST = route(
  {
    roles: "session-token",
    errors: [409],
    params: assignmentParamSchema,
    body: writerClaimSchema,
    summary: "Write this item from this tab (take it over from another)",
  },
  async ({ params, user, body }) => jsonResponse(await claimWriter(user.id, params.id, body.writer, { takeOver: body.takeOver })),
);
