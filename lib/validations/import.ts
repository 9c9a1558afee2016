import { z } from "zod";
import { studySlugSchema } from "@/lib/validations/study";

export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

export const importUploadSchema = z.object({
  study: studySlugSchema,
  /** "1": answer 202 with the job at once (the import page polls it); otherwise the answer waits for the import's outcome */
  background: z.enum(["0", "1"]).nullish(),
  /** "1": import the good entries and skip those that give no item, listed in the result; otherwise all or nothing */
  skipInvalid: z.enum(["0", "1"]).nullish(),
  /** "1": import release questions without the media the batch lacks; otherwise missing media refuses the batch, naming the files */
  textOnly: z.enum(["0", "1"]).nullish(),
});

/** The whole multipart form of POST /api/admin/import, as the handler reads it: the fields above and the files (one .zip, or a folder's files named by relative path). */
export const importFormSchema = importUploadSchema.extend({ files: z.array(z.file()) });

export const importJobIdSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, "an import job id"),
});
