// Writes prisma/migrations/<timestamp>_<name>/migration.sql: the SQL that takes the current
// migrations to prisma/schema.prisma. Needs a PostgreSQL server for a throwaway shadow database
// (DATABASE_URL's server, or 127.0.0.1:5432).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { diffMigrationsToSchema, MIGRATIONS_DIR } from "@/lib/db/schema-engine";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]+/gi, "_");
if (!name) {
  console.error("usage: npm run db:migration:new -- <name>");
  process.exit(2);
}
const server = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const { inSync, sql } = await diffMigrationsToSchema(server);
if (inSync) {
  console.log("prisma/schema.prisma and the migrations agree: nothing to write");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "migration.sql"), sql);
console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
process.exit(0);
