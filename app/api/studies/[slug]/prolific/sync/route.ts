import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { syncProlificStudyBySlug } from "@/lib/recruitment/prolific/sync";

const paramsSchema = z.object({ slug: studySlugSchema });

/** POST /api/studies/<slug>/prolific/sync: reads the submissions from Prolific now (returned and timed-out ones free their places). */
export const POST = route(
  { roles: ["ADMIN", "RESEARCHER"], errors: [409], params: paramsSchema, summary: "Sync the Prolific submissions now" },
  async ({ params, user }) => Response.json(await syncProlificStudyBySlug(params.slug, user.id)),
);
