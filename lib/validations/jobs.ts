import { z } from "zod";

/** The id of a background job's row in a path (a cuid). */
export const jobIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "a job id");

/** POST /api/admin/assets/migrate: `yardstick assets migrate --to s3 [--clear-postgres]` as a job. */
export const assetMigrationBodySchema = z.strictObject({
  to: z.literal("s3", { error: 'to: "s3" (the only target)' }),
  /** clear the PostgreSQL copy of every asset verified in the bucket at the end */
  clearPostgres: z.boolean().default(false),
});

export const assetMigrationJobParamsSchema = z.object({ id: jobIdSchema });
