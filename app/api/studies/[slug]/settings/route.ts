import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudySettings, studySettingsBodySchema, updateStudySettings } from "@/lib/studies/settings";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/settings: every setting, whether the study is frozen, the kinds' settings forms. */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], summary: "The study's settings", params: paramsSchema }, async ({ params }) =>
  Response.json(await getStudySettings(params.slug)),
);

/**
 * PATCH /api/studies/<slug>/settings { ...any settings } (lib/validations/study-settings.ts, with
 * `taskSettings` of each registered kind checked by its settingsSchema: studySettingsBodySchema)
 * -> 200 the settings. A partial change: only the fields sent are checked and change (e.g.
 * `{ "itemsPerParticipant": 4 }`), the rules between settings on the result. 422 with issues naming each field; 409 once the study has responses
 * (frozen: create a new version).
 */
export const PATCH = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    errors: [409],
    params: paramsSchema,
    body: studySettingsBodySchema(),
    summary: "Change some of the study's settings (only the fields sent)",
  },
  async ({ params, user, body }) => Response.json(await updateStudySettings(params.slug, body, user.id)),
);
