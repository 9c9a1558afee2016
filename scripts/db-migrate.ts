// Applies prisma/migrations to the configured database: DATABASE_URL, or the embedded PGlite
// database under .yardstick/ when DATABASE_URL is not set.
import { applyMigrations } from "@/lib/db/schema-engine";
import { openDatabase } from "@/lib/db/database-url";

const database = await openDatabase();
try {
  const applied = await applyMigrations(database.url);
  console.log(applied.length ? `applied ${applied.length} migration(s): ${applied.join(", ")}` : "database is up to date");
} finally {
  await database.close();
}
process.exit(0);
