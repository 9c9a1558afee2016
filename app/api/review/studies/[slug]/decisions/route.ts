import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { reviewDecisionSchema, reviewSlugParamSchema } from "@/lib/validations/review";
import { decideReviewItem } from "@/lib/review/decisions";

/**
 * POST /api/review/studies/<slug>/decisions { reviewItemId, decision: "KEEP" | "EXCLUDE", note }
 * A researcher's final decision on an item (settles a contested one, or overrides the rules);
 * recorded in the audit log. 200 { reviewItemId, decision, outcome, ruleOutcome }.
 */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = reviewSlugParamSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const input = reviewDecisionSchema.parse(await readJsonBody(request));
    return Response.json(await decideReviewItem(slug, input, user.id));
  } catch (error) {
    return toResponse(error);
  }
}
