import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { importUploadSchema } from "@/lib/validations/import";
import { uploadToZip } from "@/lib/import/upload";
import { importBatch, readBatchSource } from "@/lib/import";

export const maxDuration = 300;

/** POST multipart/form-data: study=<slug>, files=<one .zip, or every file of a folder named by relative path>. */
export async function POST(request: Request) {
  try {
    const admin = await requireRole("ADMIN");
    const form = await request.formData();
    const { study } = importUploadSchema.parse({ study: form.get("study") });
    const files = form.getAll("files").filter((value): value is File => typeof value !== "string");
    const upload = await uploadToZip(files);
    const source = await readBatchSource(upload);
    const result = await importBatch({ source, studySlug: study, importedById: admin.id });
    return Response.json(result, { status: result.status === "imported" ? 201 : 200 });
  } catch (error) {
    return toResponse(error);
  }
}
