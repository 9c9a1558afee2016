import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { listMemberStudies } from "@/lib/annotate/studies";

/** GET /api/annotate/studies: the studies the signed-in user is a member of, with progress. */
export async function GET() {
  try {
    const user = await requireRole();
    return Response.json({ studies: await listMemberStudies(user.id) });
  } catch (error) {
    return toResponse(error);
  }
}
