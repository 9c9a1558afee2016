import { importJobReplySchema } from "@/lib/validations/api-replies";
import { route } from "@/lib/http/route";
import { importJobIdSchema } from "@/lib/validations/import";
import { getImportJobFor } from "@/lib/import/jobs";

/** GET: an import job's phase, progress and (once it ended) outcome; the import page polls it. Admins see every job, a researcher the jobs they started. */
export const GET = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "An import job's state, counts and outcome (poll until its state is terminal)",
    response: importJobReplySchema,
    params: importJobIdSchema,
  },
  async ({ params, user }) => Response.json({ job: await getImportJobFor(params.id, user) }, { headers: { "cache-control": "no-store" } }),
);
