import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudyBySlug } from "@/lib/studies/studies";
import { deleteModelRun } from "@/lib/models/runs";

const paramsSchema = z.object({ slug: studySlugSchema, runId: z.string().min(1).max(64) });

export const DELETE = route(
  { roles: ["ADMIN", "RESEARCHER"], summary: "Delete a model run and its scores", status: 204, params: paramsSchema },
  async ({ params, user }) => {
    const study = await getStudyBySlug(params.slug);
    await deleteModelRun(study.id, params.runId, user.id);
    return new Response(null, { status: 204 });
  },
);
