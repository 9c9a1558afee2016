import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { MIGRATIONS_DIR } from "@/lib/db/schema-engine";
import { kindSettings } from "@/lib/tasks";

/**
 * The migration that moves Study.probeMinGap into GridWM-Judge's kind settings: run on a
 * database built by the migrations before it, with studies stored as they were, it keeps each
 * study's spacing (as the kind reads it through kindSettings) and the other kinds' settings.
 */
const MIGRATION = "gridwm_probe_min_gap_setting";

describe("migration: probeMinGap into the kind's settings", () => {
  const name = `yardstick_mig_${process.pid}_${Date.now().toString(36)}`;
  let client: pg.Client;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: inject("serverUrl") });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = new URL(inject("serverUrl"));
    url.pathname = `/${name}`;
    client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    const admin = new pg.Client({ connectionString: inject("serverUrl") });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it("moves each study's value into taskSettings and drops the column", async () => {
    const dirs = readdirSync(MIGRATIONS_DIR)
      .filter((dir) => /^\d+_/.test(dir))
      .sort();
    const at = dirs.findIndex((dir) => dir.endsWith(`_${MIGRATION}`));
    expect(at).toBeGreaterThan(0);
    const sqlOf = (dir: string) => readFileSync(path.join(MIGRATIONS_DIR, dir, "migration.sql"), "utf8");
    for (const dir of dirs.slice(0, at)) await client.query(sqlOf(dir));

    await client.query(`INSERT INTO "User" (id, name, "updatedAt") VALUES ('u1', 'R', now())`);
    const study = (id: string, gap: number, taskSettings: unknown) =>
      client.query(`INSERT INTO "Study" (id, slug, title, "probeMinGap", "taskSettings", "updatedAt") VALUES ($1, $1, $1, $2, $3::jsonb, now())`, [
        id,
        gap,
        JSON.stringify(taskSettings),
      ]);
    await study("judge-default", 5, {});
    await study("judge-eight", 8, { "explore-scene": { freeText: true } });
    await study("other-three", 3, {});
    await study("other-default", 5, { "explore-scene": { freeText: true } });
    await study("judge-kept", 2, { "gridwm-judge": { probeMinGap: 9 } });
    await client.query(
      `INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ('b1', 'judge-default', 'x.jsonl', 'c', 1), ('b2', 'judge-eight', 'x.jsonl', 'c', 1)`,
    );
    await client.query(`INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, "contentHash")
      VALUES ('i1', 'judge-default', 'b1', 'a', 'gridwm-judge', '{}', '{}', 'h1'), ('i2', 'judge-eight', 'b2', 'a', 'gridwm-judge', '{}', '{}', 'h2')`);

    await client.query(sqlOf(dirs[at]!));

    const { rows } = await client.query<{ id: string; taskSettings: Record<string, unknown> }>(`SELECT id, "taskSettings" FROM "Study" ORDER BY id`);
    const settings = Object.fromEntries(rows.map((row) => [row.id, row.taskSettings]));
    expect(settings).toEqual({
      "judge-default": { "gridwm-judge": { probeMinGap: 5 } },
      "judge-eight": { "explore-scene": { freeText: true }, "gridwm-judge": { probeMinGap: 8 } },
      "other-three": { "gridwm-judge": { probeMinGap: 3 } },
      "other-default": { "explore-scene": { freeText: true } },
      // the column was the value the assignment read; a stored kind setting could not exist before
      "judge-kept": { "gridwm-judge": { probeMinGap: 2 } },
    });
    const gaps = Object.fromEntries(rows.map((row) => [row.id, kindSettings(row.taskSettings, "gridwm-judge").probeMinGap]));
    expect(gaps).toEqual({ "judge-default": 5, "judge-eight": 8, "other-three": 3, "other-default": 5, "judge-kept": 2 });
    const { rows: columns } = await client.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'Study' AND column_name = 'probeMinGap'`,
    );
    expect(columns).toEqual([]);
  });
});
