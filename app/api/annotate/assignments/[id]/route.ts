import { route } from "@/lib/http/route";
import { getAssignmentView } from "@/lib/annotate/assignment-view";
import { assignmentParamSchema } from "@/lib/validations/annotate";
import { jsonResponse } from "@/lib/http/json";

/** GET /api/annotate/assignments/[id]: the item's public view and the stored trajectory; 403 for anyone but its annotator. */
export const GET = route({ roles: "signed-in", params: assignmentParamSchema }, async ({ params, user }) => jsonResponse(await getAssignmentView(params.id, user.id)));
