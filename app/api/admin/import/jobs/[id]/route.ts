import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { importJobIdSchema } from "@/lib/validations/import";
import { getImportJob } from "@/lib/import/jobs";

/** GET: an import job's phase, progress and (once it ended) outcome; the import page polls it. */
export async function GET(_request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const { id } = importJobIdSchema.parse(await context.params);
    await requireRole("ADMIN");
    return Response.json({ job: await getImportJob(id) }, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return toResponse(error);
  }
}
