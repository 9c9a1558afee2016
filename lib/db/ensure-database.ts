import pg from "pg";

/**
 * Makes sure the database a PostgreSQL URL names exists: a first start with DATABASE_URL pointing
 * at a database nobody created yet should create it, not fail inside the migration engine. Connects
 * to the server's `postgres` database to run CREATE DATABASE; when that is not allowed, the error
 * says in one line what to run.
 */
export async function ensureDatabase(url: string): Promise<"exists" | "created"> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ""));
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return "exists";
  } catch (error) {
    if ((error as { code?: string }).code !== "3D000" || !name) throw error;
  } finally {
    await probe.end().catch(() => undefined);
  }
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    return "created";
  } catch (error) {
    if ((error as { code?: string }).code === "42P04") return "exists";
    throw new Error(
      `The database "${name}" of DATABASE_URL does not exist and could not be created (${(error as Error).message}); create it with: createdb -h ${target.hostname} -p ${target.port || 5432} ${target.username ? `-U ${decodeURIComponent(target.username)} ` : ""}${name}`,
      { cause: error },
    );
  } finally {
    await admin.end().catch(() => undefined);
  }
}
