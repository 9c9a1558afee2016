import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { replayStepLabelSchema } from "@/lib/validations/replay";
import { labelReplayStep } from "@/lib/annotate/research";

const paramsSchema = z.object({ slug: studySlugSchema });

/**
 * POST /api/studies/[slug]/step-labels { assignmentId, seq, label } -> { seq, label }: the
 * researcher's label of one step of a replayed trajectory, for kinds whose replay takes step labels
 * (the kind's replay hook checks the label; null removes it).
 */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "Label a step of a replayed trajectory (the kind's replay labels)",
    params: paramsSchema,
    body: replayStepLabelSchema,
  },
  async ({ params, user, body }) => Response.json(await labelReplayStep(params.slug, user.id, body)),
);
