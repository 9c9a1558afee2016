import { z } from "zod";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { modelRunImportedReplySchema, modelRunListReplySchema } from "@/lib/validations/api-replies";
import { readFormBody } from "@/lib/http/body";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudyBySlug } from "@/lib/studies/studies";
import { importModelRun, listModelRuns, modelRunNameSchema } from "@/lib/models/runs";

const paramsSchema = z.object({ slug: studySlugSchema });
/** the multipart form: the run's name and its answers.jsonl (checked below, with its own messages) */
const formSchema = z.object({ name: modelRunNameSchema, file: z.file() });

/** Largest answers.jsonl accepted from the page (the CLI has no limit). */
const MAX_BYTES = 50 * 1024 * 1024;

export const GET = route(
  { roles: ["ADMIN", "RESEARCHER"], response: modelRunListReplySchema, params: paramsSchema, summary: "The study's model runs" },
  async ({ params }) => {
    const study = await getStudyBySlug(params.slug);
    return Response.json({ runs: await listModelRuns(study.id) });
  },
);

/**
 * Imports a model run from multipart form data: `name` and `file` (answers.jsonl). Re-importing
 * a name replaces that run. 422 with `details.errors` (file, line, field, message) when any line
 * is wrong; nothing is stored then.
 */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    status: 201,
    response: modelRunImportedReplySchema,
    params: paramsSchema,
    form: formSchema,
    summary: "Import a model run (name, answers.jsonl); a name again replaces that run",
  },
  async ({ request, params, user }) => {
    // the form around the file adds a little: allow 1 MiB for it
    const form = await readFormBody(request, MAX_BYTES + 1024 * 1024);
    const name = formSchema.shape.name.parse(form.get("name") ?? "");
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) throw new AppError("INVALID", "Choose an answers.jsonl file");
    if (file.size > MAX_BYTES) throw new AppError("TOO_LARGE", `answers.jsonl may be at most ${MAX_BYTES / 1024 / 1024} MB here`);
    const result = await importModelRun({
      studySlug: params.slug,
      name,
      answersJsonl: await file.text(),
      fileName: file.name || "answers.jsonl",
      importedById: user.id,
    });
    return Response.json(result, { status: 201 });
  },
);
