import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudySettings, updateStudySettings } from "@/lib/study-settings";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/settings: every setting, whether the study is frozen, the kinds' settings forms. */
export async function GET(_request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    await requireRole("ADMIN", "RESEARCHER");
    return Response.json(await getStudySettings(slug));
  } catch (error) {
    return toResponse(error);
  }
}

/**
 * PATCH /api/studies/<slug>/settings { ...every setting } (lib/validations/study-settings.ts) -> 200 the settings.
 * 422 with issues naming each field; 409 once the study has responses (frozen: create a new version).
 */
export async function PATCH(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    return Response.json(await updateStudySettings(slug, await readJsonBody(request), user.id));
  } catch (error) {
    return toResponse(error);
  }
}
