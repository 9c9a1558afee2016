import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { confirmBatch, confirmBodySchema } from "@/lib/recruitment/prolific/batches";

const paramsSchema = z.object({ slug: studySlugSchema });

/** POST /api/studies/<slug>/prolific/batches/confirm { batchId }: runs a previewed batch once (a repeated confirm answers its outcome). The study's owner only. */
export const POST = route(
  { roles: ["ADMIN", "RESEARCHER"], errors: [409], params: paramsSchema, body: confirmBodySchema, summary: "Confirm a previewed batch (runs once)" },
  async ({ params, user, body }) => Response.json(await confirmBatch(params.slug, body, user.id)),
);
