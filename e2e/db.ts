import pg from "pg";

/** A pg pool on the run's database (DATABASE_URL, set by scripts/test.sh). Specs read the database back to assert. */
let pool: pg.Pool | null = null;

export function e2eDb(): pg.Pool {
  if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL is not set: run the end-to-end tests through npm test (scripts/test.sh)");
  pool ??= new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  return pool;
}

export async function closeE2eDb(): Promise<void> {
  await pool?.end();
  pool = null;
}
