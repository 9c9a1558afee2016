import { z } from "zod";

export const studySlugSchema = z
  .string()
  .trim()
  .min(2, "at least 2 characters")
  .max(60, "at most 60 characters")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lowercase letters, digits and single dashes, e.g. enact-pilot");

export const studyCreateSchema = z.object({
  title: z.string().trim().min(2, "at least 2 characters").max(120),
  slug: studySlugSchema,
  instructions: z.string().max(50_000).default(""),
  overlap: z.coerce.number().int().min(1, "at least 1 annotator per item").max(50),
  confidenceScale: z.enum(["LIKERT_5", "PERCENT"]).default("LIKERT_5"),
});
export type StudyCreateInput = z.infer<typeof studyCreateSchema>;

export const itemFilterSchema = z.object({
  kind: z.string().trim().max(60).optional(),
  tag: z
    .string()
    .regex(/^[^=]{1,60}=.{0,120}$/, "tag filter is key=value")
    .optional(),
  page: z.coerce.number().int().min(1).default(1),
});
export type ItemFilter = z.infer<typeof itemFilterSchema>;
