import { route } from "@/lib/http/route";
import { reviewAssignmentParamSchema, reviewSubmitSchema } from "@/lib/validations/review";
import { submitReview } from "@/lib/review/work";

/**
 * POST /api/review/assignments/<id>/verdicts { verdicts: [{ axis, pass, reason? }] }
 * The reviewer's verdicts on every axis of one item (a fail needs a reason). The same verdicts
 * again are a no-op; other verdicts for a submitted review are 409. 200 { stored, outcome, next }:
 * `next` is the reviewer's next item, so the page shows it at once. 403 for anyone but the
 * review's reviewer.
 */
export const POST = route(
  { roles: "signed-in", summary: "Submit a reviewer's verdicts on one item", errors: [409], params: reviewAssignmentParamSchema, body: reviewSubmitSchema },
  async ({ params, user, body }) => Response.json(await submitReview(params.id, user.id, body), { headers: { "cache-control": "no-store" } }),
);
