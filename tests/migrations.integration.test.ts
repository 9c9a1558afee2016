import { inject, describe, expect, it } from "vitest";
import pg from "pg";
import { diffMigrationsToSchema, applyMigrations } from "@/lib/db/schema-engine";

describe("migrations", () => {
  it("prisma/migrations produce exactly prisma/schema.prisma (no drift)", async () => {
    const { inSync, sql } = await diffMigrationsToSchema(inject("serverUrl"));
    expect(sql.replace(/--.*$/gm, "").trim(), "run `npm run db:migration:new -- <name>` to write the missing migration").toBe("");
    expect(inSync).toBe(true);
  });

  it("detects drift when the schema gains a model the migrations lack", async () => {
    const { readFileSync } = await import("node:fs");
    const { SCHEMA_PATH } = await import("@/lib/db/schema-engine");
    const schema = readFileSync(SCHEMA_PATH, "utf8") + "\nmodel DriftProbe {\n  id Int @id\n}\n";
    const { inSync, sql } = await diffMigrationsToSchema(inject("serverUrl"), schema);
    expect(inSync).toBe(false);
    expect(sql).toContain('CREATE TABLE "DriftProbe"');
  });

  it("applying the migrations twice applies nothing the second time, in Prisma's own history table", async () => {
    const again = await applyMigrations(inject("databaseUrl"));
    expect(again).toEqual([]);
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    const { rows } = await client.query(`SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name`);
    await client.end();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.finished_at).not.toBeNull();
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});
