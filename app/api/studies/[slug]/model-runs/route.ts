import { z } from "zod";
import { requireRole } from "@/lib/session";
import { AppError, toResponse } from "@/lib/errors";
import { readFormBody } from "@/lib/http/body";
import { assertSameSite } from "@/lib/security/csrf";
import { studySlugSchema } from "@/lib/validations/study";
import { getStudyBySlug } from "@/lib/studies";
import { importModelRun, listModelRuns, modelRunNameSchema } from "@/lib/model-runs";

const paramsSchema = z.object({ slug: studySlugSchema });

/** Largest answers.jsonl accepted from the page (the CLI has no limit). */
const MAX_BYTES = 50 * 1024 * 1024;

export async function GET(_request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    await requireRole("ADMIN", "RESEARCHER");
    const study = await getStudyBySlug(slug);
    return Response.json({ runs: await listModelRuns(study.id) });
  } catch (error) {
    return toResponse(error);
  }
}

/**
 * Imports a model run from multipart form data: `name` and `file` (answers.jsonl). Re-importing
 * a name replaces that run. 422 with `details.errors` (file, line, field, message) when any line
 * is wrong; nothing is stored then.
 */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    assertSameSite(request); // proxy.ts leaves this upload to the handler (its body may pass the proxy's buffer)
    const user = await requireRole("ADMIN", "RESEARCHER");
    // the form around the file adds a little: allow 1 MiB for it
    const form = await readFormBody(request, MAX_BYTES + 1024 * 1024);
    const name = modelRunNameSchema.parse(form.get("name") ?? "");
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) throw new AppError("INVALID", "Choose an answers.jsonl file");
    if (file.size > MAX_BYTES) throw new AppError("TOO_LARGE", `answers.jsonl may be at most ${MAX_BYTES / 1024 / 1024} MB here`);
    const result = await importModelRun({ studySlug: slug, name, answersJsonl: await file.text(), fileName: file.name || "answers.jsonl", importedById: user.id });
    return Response.json(result, { status: 201 });
  } catch (error) {
    return toResponse(error);
  }
}
