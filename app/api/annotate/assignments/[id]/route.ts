import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { getAssignmentView } from "@/lib/annotate/assignment-view";
import { assignmentParamSchema } from "@/lib/validations/annotate";
import { jsonResponse } from "@/lib/http/json";

/** GET /api/annotate/assignments/[id]: the item's public view and the stored trajectory; 403 for anyone but its annotator. */
export async function GET(_request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = assignmentParamSchema.parse(await context.params);
    const user = await requireRole();
    return jsonResponse(await getAssignmentView(id, user.id));
  } catch (error) {
    return toResponse(error);
  }
}
