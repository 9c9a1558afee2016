import { importJobReplySchema } from "@/lib/validations/api-replies";
import { route } from "@/lib/http/route";
import { importJobIdSchema } from "@/lib/validations/import";
import { getImportJob } from "@/lib/import/jobs";

/** GET: an import job's phase, progress and (once it ended) outcome; the import page polls it. */
export const GET = route({ roles: ["ADMIN"], response: importJobReplySchema, params: importJobIdSchema }, async ({ params }) =>
  Response.json({ job: await getImportJob(params.id) }, { headers: { "cache-control": "no-store" } }),
);
