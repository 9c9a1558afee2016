import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ensureDatabase } from "@/lib/db/ensure-database";
import { applyMigrations } from "@/lib/db/schema-engine";

const serverUrl = inject("serverUrl");
const name = `yardstick_missing_${process.pid}_${Date.now().toString(36)}`;
const urlOf = (database: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

afterAll(async () => {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`DROP ROLE IF EXISTS yardstick_no_createdb`);
  await admin.end();
});

describe("ensureDatabase", () => {
  it("creates a database DATABASE_URL names that does not exist, so that the migrations apply", async () => {
    expect(await ensureDatabase(urlOf(name))).toBe("created");
    expect(await ensureDatabase(urlOf(name))).toBe("exists");
    expect((await applyMigrations(urlOf(name))).length).toBeGreaterThan(0);
  });

  it("says in one line what to run when it cannot create it", async () => {
    // a role that may log in but not create databases
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP ROLE IF EXISTS yardstick_no_createdb; CREATE ROLE yardstick_no_createdb LOGIN NOCREATEDB`);
    await admin.end();
    const url = new URL(urlOf(`${name}_x`));
    url.username = "yardstick_no_createdb";
    await expect(ensureDatabase(url.toString())).rejects.toThrow(
      new RegExp(
        `^The database "${name}_x" of DATABASE_URL does not exist and could not be created \\(permission denied.*\\); create it with: createdb -h .* -U yardstick_no_createdb ${name}_x$`,
      ),
    );
  });
});
