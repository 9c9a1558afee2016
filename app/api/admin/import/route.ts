import { importStartReplySchema } from "@/lib/validations/api-replies";
import { route } from "@/lib/http/route";
import { readFormBody } from "@/lib/http/body";
import { importFormSchema, MAX_UPLOAD_BYTES } from "@/lib/validations/import";
import { uploadToZip } from "@/lib/import/upload";
import { startImportJob } from "@/lib/import/jobs";

export const maxDuration = 300;

/**
 * POST multipart/form-data: study=<slug>, files=<one .zip, or every file of a folder named by
 * relative path>[, background=1][, skipInvalid=1][, textOnly=1]. skipInvalid=1 imports the good
 * entries and skips (and lists) those that give no item; textOnly=1 imports release questions
 * without the media the batch lacks; both default to all or nothing. The import runs as a job (lib/import/jobs.ts). With
 * background=1 (the import page): 202 { job } at once, then GET /api/admin/import/jobs/<id> for
 * progress and outcome. Otherwise the answer waits for the outcome: 201/200 with the ImportResult,
 * or the error (422 with every issue, 413, 507 ...).
 */
// admins, and a study's owner into that study (lib/studies/managers.ts: 403 for other researchers)
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    response: importStartReplySchema,
    status: [200, 201, 202],
    errors: [409, 507],
    form: importFormSchema,
    summary: "Import a batch (a .zip or a folder's files; admins, and the study's owner); background=1 answers 202 with a job to poll",
  },
  async ({ request, user }) => {
    const form = await readFormBody(request, MAX_UPLOAD_BYTES + 1024 * 1024);
    const { study, background, skipInvalid, textOnly, files } = importFormSchema.parse({
      study: form.get("study"),
      background: form.get("background"),
      skipInvalid: form.get("skipInvalid"),
      textOnly: form.get("textOnly"),
      files: form.getAll("files").filter((value): value is File => typeof value !== "string"),
    });
    const upload = await uploadToZip(files);
    const { job, finished } = await startImportJob({
      ...upload,
      studySlug: study,
      actorId: user.id,
      actor: user,
      skipInvalid: skipInvalid === "1",
      textOnly: textOnly === "1",
    });
    if (background === "1") return Response.json({ job }, { status: 202, headers: { location: `/api/admin/import/jobs/${job.id}` } });
    const { outcome } = await finished;
    if (!outcome) return Response.json({ error: "The import ended without an outcome; check the study's batches", code: "UNAVAILABLE" }, { status: 503 });
    if (outcome.ok) return Response.json(outcome.result, { status: outcome.httpStatus });
    return Response.json(
      { error: outcome.error, code: outcome.code, details: outcome.details },
      { status: outcome.httpStatus, headers: outcome.retryAfter ? { "retry-after": outcome.retryAfter } : {} },
    );
  },
);
