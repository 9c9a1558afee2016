import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudyBySlug } from "@/lib/studies/studies";
import { agreementPlanBuildSchema, buildAgreementPlan } from "@/lib/dashboard/agreement-plan";

const paramsSchema = z.object({ slug: studySlugSchema });

/** Builds (or tops up) the ENACT-style agreement plan; idempotent. Body: { perCell?: number, tag?: string }. */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "Build the agreement plan: sample each annotator's finished items for every other annotator",
    params: paramsSchema,
    body: agreementPlanBuildSchema,
    json: { whenEmpty: {} },
  },
  async ({ params, user, body }) => {
    const study = await getStudyBySlug(params.slug);
    return Response.json(await buildAgreementPlan(study.id, { perCell: body.perCell, tagKey: body.tag }, user.id));
  },
);
