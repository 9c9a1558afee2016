import { route } from "@/lib/http/route";
import { reviewDecisionSchema, reviewSlugParamSchema } from "@/lib/validations/review";
import { decideReviewItem } from "@/lib/review/decisions";

/**
 * POST /api/review/studies/<slug>/decisions { reviewItemId, decision: "KEEP" | "EXCLUDE", note }
 * A researcher's final decision on an item (settles a contested one, or overrides the rules);
 * recorded in the audit log. 200 { reviewItemId, decision, outcome, ruleOutcome }.
 */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "Settle a contested item (keep or exclude), overriding the rule",
    params: reviewSlugParamSchema,
    body: reviewDecisionSchema,
  },
  async ({ params, user, body }) => Response.json(await decideReviewItem(params.slug, body, user.id)),
);
