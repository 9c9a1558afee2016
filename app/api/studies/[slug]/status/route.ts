import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { studySlugSchema } from "@/lib/validations/study";
import { studyStatusChangeSchema } from "@/lib/validations/study-settings";
import { changeStudyStatus } from "@/lib/study-settings";

const paramsSchema = z.object({ slug: studySlugSchema });

/** POST /api/studies/<slug>/status { status: OPEN|PAUSED|CLOSED } -> 200 { status }; 409 for a step the lifecycle does not allow. */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const { status } = studyStatusChangeSchema.parse(await readJsonBody(request));
    return Response.json(await changeStudyStatus(slug, status, user.id));
  } catch (error) {
    return toResponse(error);
  }
}
