import { attachmentResponse } from "@/lib/http/attachment";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { createSubmission, submissionParamsSchema, submissionQuerySchema } from "@/lib/exports/submission";

const paramsSchema = submissionParamsSchema.extend({ slug: studySlugSchema });

/**
 * GET /api/studies/<slug>/submission/<format>?who=majority|<annotator id>
 * People's answers as a benchmark's submission file (a kind's submission formats, e.g.
 * EgoSchema's {q_uid: answer} JSON), for benchmarks that withhold their test answers. Staff only;
 * audited.
 */
export const GET = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "The people's answers (their majority, or one annotator's) in a benchmark's own submission format",
    params: paramsSchema,
    query: submissionQuerySchema,
  },
  async ({ params, user, query }) => {
    return attachmentResponse(await createSubmission(params.slug, params.format, query.who, user.id));
  },
);
