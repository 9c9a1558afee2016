import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { jobIdSchema } from "@/lib/validations/jobs";
import { exportJobDownload } from "@/lib/exports/export-jobs";

const paramsSchema = z.object({ slug: studySlugSchema, id: jobIdSchema });

/**
 * GET: the file an export job prepared, as an attachment with HTTP Range (206) and its sha256 as
 * ETag; 409 while it is not ready, 404 once its retention ended or for a job of another study.
 * Researchers and admins, as the direct export; every download is audit-logged.
 */
export const GET = route(
  { roles: ["ADMIN", "RESEARCHER"], params: paramsSchema, summary: "Download a prepared export (HTTP Range)" },
  async ({ request, params, user }) => exportJobDownload(request, params.slug, params.id, user.id),
);
