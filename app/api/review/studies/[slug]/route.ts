import { route } from "@/lib/http/route";
import { reviewSlugParamSchema, reviewStudyUpdateSchema } from "@/lib/validations/review";
import { updateReviewStudy } from "@/lib/review/studies";

/** PATCH /api/review/studies/<slug> { status: "OPEN" | "CLOSED" }: a closed review study takes no more verdicts (staff). */
export const PATCH = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "Open or close a review (a closed review takes no more verdicts)",
    params: reviewSlugParamSchema,
    body: reviewStudyUpdateSchema,
  },
  async ({ params, user, body }) => Response.json(await updateReviewStudy(params.slug, body, user.id)),
);
