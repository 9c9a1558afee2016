import { z } from "zod";
import { studyVersionReplySchema } from "@/lib/validations/api-replies";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { createStudyVersion } from "@/lib/studies/versions";

const paramsSchema = z.object({ slug: studySlugSchema });

/** POST /api/studies/<slug>/versions -> 201 { id, slug, version }: a DRAFT copy (settings, batches, items, assets) as the next version. */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "Copy the study into a new version (items, settings, members; no answers)",
    response: studyVersionReplySchema,
    status: 201,
    params: paramsSchema,
  },
  async ({ params, user }) => Response.json(await createStudyVersion(params.slug, user.id), { status: 201 }),
);
