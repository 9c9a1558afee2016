import { z } from "zod";
import { studySlugSchema } from "@/lib/validations/study";

export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

export const importUploadSchema = z.object({
  study: studySlugSchema,
});
