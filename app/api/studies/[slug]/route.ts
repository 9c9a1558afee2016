import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { deleteStudy, studyDeleteSchema } from "@/lib/studies/archive";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * DELETE /api/studies/<slug> { confirm: "<slug>" } -> 200 { slug, items, participants, assignments, responses, events, exportFiles }.
 * The study and everything of it (lib/studies/archive.ts); its owner or an admin; 422 without the typed slug. Audited.
 */
export const DELETE = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    params: paramsSchema,
    body: studyDeleteSchema,
    summary: "Delete a study and everything of it (the slug typed as confirmation)",
  },
  async ({ params, user, body }) => Response.json(await deleteStudy(params.slug, body.confirm, user)),
);
