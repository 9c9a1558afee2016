import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudySettings, updateStudySettings } from "@/lib/studies/settings";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/settings: every setting, whether the study is frozen, the kinds' settings forms. */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], params: paramsSchema }, async ({ params }) => Response.json(await getStudySettings(params.slug)));

/**
 * PATCH /api/studies/<slug>/settings { ...every setting } (lib/validations/study-settings.ts) -> 200 the settings.
 * 422 with issues naming each field; 409 once the study has responses (frozen: create a new version).
 * The body is checked by updateStudySettings, against the study's own kinds.
 */
export const PATCH = route({ roles: ["ADMIN", "RESEARCHER"], params: paramsSchema, body: z.unknown() }, async ({ params, user, body }) =>
  Response.json(await updateStudySettings(params.slug, body, user.id)),
);
