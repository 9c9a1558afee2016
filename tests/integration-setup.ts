import pg from "pg";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "../lib/db/schema-engine";

/**
 * Integration tests run against a real PostgreSQL server: YARDSTICK_TEST_PG_URL (set by
 * scripts/test.sh, possibly a throwaway cluster) or the machine's server on 127.0.0.1:5432.
 * Each run gets a database of its own, created here and dropped at the end.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.YARDSTICK_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const name = `yardstick_it_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  project.provide("databaseUrl", url.toString());
  project.provide("serverUrl", serverUrl);

  return async () => {
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await cleanup.end();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    serverUrl: string;
  }
}
