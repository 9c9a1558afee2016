import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { getAssignmentView } from "@/lib/annotate/assignment-view";
import { assignmentParamSchema } from "@/lib/validations/annotate";

/** GET /api/annotate/assignments/[id]: the item's public view and the stored trajectory; 403 for anyone but its annotator. */
export async function GET(_request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = assignmentParamSchema.parse(await context.params);
    const user = await requireRole();
    return Response.json(await getAssignmentView(id, user.id), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return toResponse(error);
  }
}
