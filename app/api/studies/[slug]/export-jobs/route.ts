import { z } from "zod";
import { exportJobListReplySchema, exportJobReplySchema } from "@/lib/validations/api-replies";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { exportJobBodySchema } from "@/lib/exports/filter";
import { listExportJobs, startExportJob } from "@/lib/exports/export-jobs";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET: the study's exports prepared in the background (newest 20), with status, progress and download links. */
export const GET = route(
  { roles: ["ADMIN", "RESEARCHER"], response: exportJobListReplySchema, params: paramsSchema, summary: "The study's exports prepared in the background" },
  async ({ params }) => Response.json({ jobs: await listExportJobs(params.slug) }, { headers: { "cache-control": "no-store" } }),
);

/**
 * POST { table, format, kind?, tag?, externalIds? }: prepares the export of one table in the
 * background (lib/exports/export-jobs.ts): 202 { job } with its URL in Location; the worker writes
 * the same bytes as GET .../export/<table> into the file store. Audit-logged like a direct export.
 */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    response: exportJobReplySchema,
    status: 202,
    errors: [409],
    params: paramsSchema,
    body: exportJobBodySchema,
    summary: "Prepare an export in the background (202 with a job to poll, then download)",
  },
  async ({ params, body, user }) => {
    const job = await startExportJob(
      params.slug,
      { table: body.table, format: body.format, filter: { kind: body.kind, tag: body.tag }, externalIds: body.externalIds },
      user.id,
    );
    return Response.json({ job }, { status: 202, headers: { location: `/api/studies/${params.slug}/export-jobs/${job.id}` } });
  },
);
