import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readFormBody } from "@/lib/http/body";
import { assertSameSite } from "@/lib/security/csrf";
import { importUploadSchema, MAX_UPLOAD_BYTES } from "@/lib/validations/import";
import { uploadToZip } from "@/lib/import/upload";
import { importBatch, readBatchSource } from "@/lib/import";

export const maxDuration = 300;

/** POST multipart/form-data: study=<slug>, files=<one .zip, or every file of a folder named by relative path>. */
export async function POST(request: Request) {
  try {
    assertSameSite(request); // proxy.ts leaves this upload to the handler (its body may pass the proxy's buffer)
    const admin = await requireRole("ADMIN");
    const form = await readFormBody(request, MAX_UPLOAD_BYTES + 1024 * 1024);
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
