import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { previewBatch, previewBodySchema } from "@/lib/recruitment/prolific/batches";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * POST /api/studies/<slug>/prolific/batches { action: approve | reject | bonus, ... } -> the batch's preview (who, what, how
 * much), stored to confirm; nothing is sent to Prolific. The study's owner only.
 */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    errors: [409],
    params: paramsSchema,
    body: previewBodySchema,
    summary: "Preview a batch action on the Prolific submissions",
  },
  async ({ params, user, body }) => Response.json(await previewBatch(params.slug, body, user.id)),
);
