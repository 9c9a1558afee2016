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

  it("names each migration by its folder, not by where this checkout lies, and takes over a history written with full paths", async () => {
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    try {
      const names = async () =>
        (await client.query<{ migration_name: string }>(`SELECT migration_name FROM _prisma_migrations ORDER BY migration_name`)).rows.map(
          (row) => row.migration_name,
        );
      const stored = await names();
      expect(
        stored.filter((name) => name.includes("/")),
        "names as `prisma migrate deploy` writes them: the folder's name",
      ).toEqual([]);
      // a database migrated from another checkout, by a version that stored full paths
      await client.query(`UPDATE _prisma_migrations SET migration_name = '/elsewhere/app/prisma/migrations/' || migration_name`);
      expect(await applyMigrations(inject("databaseUrl"))).toEqual([]);
      expect(await names()).toEqual(stored);
    } finally {
      await client.end();
    }
  });
});
