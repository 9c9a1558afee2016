import { z } from "zod";
import { studySlugSchema } from "@/lib/validations/study";

/**
 * Item verification (docs/review.md): what researchers send to create and settle review studies,
 * and what reviewers send as verdicts. Shared by the route handlers and the browser forms.
 */

/** The ESI-Bench axes (../shared/benchmarks/esi.md), the default of every new review study. */
export const DEFAULT_REVIEW_AXES = [
  { key: "correctness", label: "Correctness", description: "The reference answer is right." },
  { key: "answerability", label: "Answerability", description: "The item can be answered from what the annotator will see." },
  { key: "non_triviality", label: "Non-triviality", description: "It cannot be answered without looking." },
] as const;

export const DEFAULT_REVIEWERS_PER_ITEM = 3;

/** "new" is a page (/review/new), not a review study. */
export const reviewSlugSchema = studySlugSchema.refine((slug) => slug !== "new", "“new” is reserved; choose another slug");

export const reviewAxisSchema = z.object({
  key: z
    .string()
    .trim()
    .min(1, "an axis needs a key")
    .max(40, "at most 40 characters")
    .regex(/^[a-z][a-z0-9_]*$/, "lowercase letters, digits and underscores, starting with a letter, e.g. correctness"),
  label: z.string().trim().min(1, "an axis needs a label").max(60, "at most 60 characters"),
  description: z.string().trim().max(300, "at most 300 characters").default(""),
});
export type ReviewAxisInput = z.infer<typeof reviewAxisSchema>;

const idSchema = z.string().trim().min(1).max(100);

export const reviewStudyCreateSchema = z
  .object({
    title: z.string().trim().min(2, "at least 2 characters").max(120),
    slug: reviewSlugSchema,
    instructions: z.string().max(50_000).default(""),
    batchIds: z.array(idSchema).min(1, "pick at least one batch").max(200),
    axes: z
      .array(reviewAxisSchema)
      .min(1, "at least one axis")
      .max(9, "at most 9 axes (one digit key each)")
      .default(() => DEFAULT_REVIEW_AXES.map((axis) => ({ ...axis }))),
    reviewersPerItem: z.coerce.number().int().min(1, "at least 1 reviewer per item").max(15).default(DEFAULT_REVIEWERS_PER_ITEM),
    keepRule: z.enum(["MAJORITY_ALL_AXES", "UNANIMOUS_ALL_AXES"]).default("MAJORITY_ALL_AXES"),
    tieRule: z.enum(["CONTESTED", "FAIL", "PASS"]).default("CONTESTED"),
    reviewerIds: z.array(idSchema).min(1, "pick the reviewers").max(500),
  })
  .superRefine((input, ctx) => {
    const keys = new Set<string>();
    input.axes.forEach((axis, i) => {
      if (keys.has(axis.key)) ctx.addIssue({ code: "custom", path: ["axes", i, "key"], message: `the axis key "${axis.key}" is used twice` });
      keys.add(axis.key);
    });
    const reviewers = new Set(input.reviewerIds).size;
    if (reviewers < input.reviewersPerItem) {
      ctx.addIssue({
        code: "custom",
        path: ["reviewerIds"],
        message: `${input.reviewersPerItem} reviewers per item need at least ${input.reviewersPerItem} reviewers; ${reviewers} picked`,
      });
    }
  });
export type ReviewStudyCreateInput = z.infer<typeof reviewStudyCreateSchema>;

export const reviewStudyUpdateSchema = z.object({ status: z.enum(["OPEN", "CLOSED"]) });
export type ReviewStudyUpdateInput = z.infer<typeof reviewStudyUpdateSchema>;

export const reviewSlugParamSchema = z.object({ slug: reviewSlugSchema });
export const reviewAssignmentParamSchema = z.object({ id: idSchema });

/** One verdict: pass or fail on one axis; a fail needs a reason (ESI-Bench's "optional reason", required on fail). */
export const reviewVerdictSchema = z
  .object({
    axis: z.string().trim().min(1).max(40),
    pass: z.boolean(),
    /** "" counts as no reason */
    reason: z.string().trim().max(2000, "at most 2000 characters").optional(),
  })
  .superRefine((verdict, ctx) => {
    if (!verdict.pass && !verdict.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: `say why "${verdict.axis}" fails` });
  });

export const reviewSubmitSchema = z.object({
  verdicts: z.array(reviewVerdictSchema).min(1).max(9),
});
export type ReviewSubmitInput = z.infer<typeof reviewSubmitSchema>;

export const reviewNextQuerySchema = z.object({
  exclude: z
    .string()
    .max(400)
    .optional()
    .transform((text) => (text ? text.split(",").filter(Boolean).slice(0, 5) : [])),
});

export const reviewDecisionSchema = z.object({
  reviewItemId: idSchema,
  decision: z.enum(["KEEP", "EXCLUDE"]),
  note: z.string().trim().min(3, "say why, in a few words").max(2000, "at most 2000 characters"),
});
export type ReviewDecisionInput = z.infer<typeof reviewDecisionSchema>;

export const reviewExportQuerySchema = z.object({ format: z.enum(["csv", "jsonl"]).default("csv") });

export const reviewOutcomeFilterSchema = z.enum(["all", "PENDING", "KEPT", "EXCLUDED", "CONTESTED", "split"]);
export const reviewResultsQuerySchema = z.object({
  outcome: reviewOutcomeFilterSchema.default("all"),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type ReviewResultsQuery = z.infer<typeof reviewResultsQuerySchema>;
