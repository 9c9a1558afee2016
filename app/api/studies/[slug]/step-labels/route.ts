import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { setStepLabel, stepLabelInputSchema } from "@/lib/esi/step-labels";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * POST /api/studies/[slug]/step-labels { assignmentId, seq, label } -> { seq, label }: the
 * researcher's label of one step of a replayed ESI-Bench trajectory ("redundant", "confirmatory",
 * "contrastive"; null removes it).
 */
export const POST = route({ roles: ["ADMIN", "RESEARCHER"], params: paramsSchema, body: stepLabelInputSchema }, async ({ params, user, body }) =>
  Response.json(await setStepLabel(params.slug, user.id, body)),
);
