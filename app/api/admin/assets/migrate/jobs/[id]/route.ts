import { route } from "@/lib/http/route";
import { assetMigrationJobParamsSchema } from "@/lib/validations/jobs";
import { getAssetMigrationJob } from "@/lib/assets/migrate-jobs";

/** GET: an asset migration job's progress (assets done / total, bytes, failures) and outcome, from any instance. */
export const GET = route(
  { roles: ["ADMIN"], params: assetMigrationJobParamsSchema, summary: "An asset migration job's progress and outcome" },
  async ({ params }) => Response.json({ job: await getAssetMigrationJob(params.id) }, { headers: { "cache-control": "no-store" } }),
);
