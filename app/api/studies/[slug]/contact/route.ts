import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { studyContactChangeSchema } from "@/lib/validations/study-settings";
import { updateStudyContact } from "@/lib/studies/contact";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * PATCH /api/studies/<slug>/contact { contactName, contactEmail } (each a string, or null / ""
 * for none) -> 200 the same: how participants reach the research team, named on the pages that
 * tell them to write to it. Allowed once the study has answers (it steers nothing of the work).
 */
export const PATCH = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    params: paramsSchema,
    body: studyContactChangeSchema,
    response: studyContactChangeSchema,
    summary: "How participants reach the research team (a name and an email address)",
  },
  async ({ params, user, body }) => Response.json(await updateStudyContact(params.slug, body, user.id)),
);
