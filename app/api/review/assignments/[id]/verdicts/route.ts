import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { reviewAssignmentParamSchema, reviewSubmitSchema } from "@/lib/validations/review";
import { submitReview } from "@/lib/review/work";

/**
 * POST /api/review/assignments/<id>/verdicts { verdicts: [{ axis, pass, reason? }] }
 * The reviewer's verdicts on every axis of one item (a fail needs a reason). The same verdicts
 * again are a no-op; other verdicts for a submitted review are 409. 200 { stored, outcome, next }:
 * `next` is the reviewer's next item, so the page shows it at once. 403 for anyone but the
 * review's reviewer.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = reviewAssignmentParamSchema.parse(await context.params);
    const user = await requireRole();
    const input = reviewSubmitSchema.parse(await readJsonBody(request));
    return Response.json(await submitReview(id, user.id, input), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return toResponse(error);
  }
}
