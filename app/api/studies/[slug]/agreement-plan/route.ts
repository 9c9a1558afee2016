import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudyBySlug } from "@/lib/studies";
import { agreementPlanBuildSchema, buildAgreementPlan } from "@/lib/dashboard/agreement-plan";

const paramsSchema = z.object({ slug: studySlugSchema });

/** Builds (or tops up) the ENACT-style agreement plan; idempotent. Body: { perCell?: number, tag?: string }. */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const body = agreementPlanBuildSchema.parse(await readJsonBody(request, { whenEmpty: {} }));
    const study = await getStudyBySlug(slug);
    return Response.json(await buildAgreementPlan(study.id, { perCell: body.perCell, tagKey: body.tag }, user.id));
  } catch (error) {
    return toResponse(error);
  }
}
