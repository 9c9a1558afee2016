import { route } from "@/lib/http/route";
import { assetMigrationBodySchema } from "@/lib/validations/jobs";
import { listAssetMigrationJobs, startAssetMigrationJob } from "@/lib/assets/migrate-jobs";

/** GET: where the assets are (counts) and the latest migration jobs with their progress. */
export const GET = route({ roles: ["ADMIN"], summary: "Asset counts by store and the latest asset migration jobs" }, async () =>
  Response.json(await listAssetMigrationJobs(), { headers: { "cache-control": "no-store" } }),
);

/**
 * POST { to: "s3", clearPostgres? }: `yardstick assets migrate --to s3` as a job (lib/assets/migrate-jobs.ts),
 * run by one worker with its own S3 settings: 202 { job } with its URL in Location, or 200 { job }
 * with the migration already queued or running. 409 when this server has no S3 settings.
 */
export const POST = route(
  {
    roles: ["ADMIN"],
    status: [200, 202],
    errors: [409],
    body: assetMigrationBodySchema,
    summary: "Start migrating every asset to the S3 bucket in the background (202 with a job to poll)",
  },
  async ({ body, user }) => {
    const { job, created } = await startAssetMigrationJob({ clearPostgres: body.clearPostgres, actorId: user.id });
    return Response.json({ job, created }, { status: created ? 202 : 200, headers: { location: `/api/admin/assets/migrate/jobs/${job.id}` } });
  },
);
