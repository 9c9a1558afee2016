import { z } from "zod";

/**
 * POST /api/studies/[slug]/step-labels: a researcher's label of one recorded step of a replayed
 * trajectory (null removes it). Which labels a step takes is the item's kind's (its replay hook,
 * lib/tasks/<kind>/replay.ts), which refuses others.
 */
export const replayStepLabelSchema = z.strictObject({
  assignmentId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, "an assignment id"),
  seq: z.number().int().min(1).max(100_000),
  label: z.string().min(1).max(40).nullable(),
});
export type ReplayStepLabelInput = z.infer<typeof replayStepLabelSchema>;
