import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { setStudyArchived, studyArchiveSchema } from "@/lib/studies/archive";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * POST /api/studies/<slug>/archive { archived: boolean } -> 200 { archived, archivedAt }.
 * Archived: hidden from the study lists and closed to participants; false restores it. Its owner or an admin. Audited.
 */
export const POST = route(
  { roles: ["ADMIN", "RESEARCHER"], params: paramsSchema, body: studyArchiveSchema, summary: "Archive a study (or restore it)" },
  async ({ params, user, body }) => Response.json(await setStudyArchived(params.slug, body.archived, user)),
);
