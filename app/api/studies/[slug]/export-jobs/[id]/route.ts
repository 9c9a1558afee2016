import { z } from "zod";
import { exportJobReplySchema } from "@/lib/validations/api-replies";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { jobIdSchema } from "@/lib/validations/jobs";
import { getExportJob } from "@/lib/exports/export-jobs";

const paramsSchema = z.object({ slug: studySlugSchema, id: jobIdSchema });

/** GET: an export job's status and progress (rows written of the table's rows, bytes); 404 for a job of another study. */
export const GET = route(
  { roles: ["ADMIN", "RESEARCHER"], response: exportJobReplySchema, params: paramsSchema, summary: "An export job's status and progress" },
  async ({ params }) => Response.json({ job: await getExportJob(params.slug, params.id) }, { headers: { "cache-control": "no-store" } }),
);
