import { readFileSync, readdirSync, existsSync, statSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from "@prisma/driver-adapter-utils";

/*
 * Prisma's schema engine, compiled to WebAssembly, driven offline (no native engine download).
 * Workarounds for @prisma/adapter-pg under the schema engine are measured in STACK-NOTES.md:
 *  1. PostgreSQL's "char" (OID 18) columns, read while introspecting, are reported as Character;
 *  2. shadow databases are created and dropped by us (the adapter's factory reuses the main one);
 *  3. scripts go to the server as one simple query (the adapter splits on every ";").
 */

const CHAR_OID = 18;
const TEXT_OID = 25;

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "..", "..", "prisma", "migrations");
export const SCHEMA_PATH = path.resolve(import.meta.dirname, "..", "..", "prisma", "schema.prisma");

type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type QueryResult = { fields: Array<{ dataTypeID: number }>; rows: unknown[][] };

function patchAdapter(adapter: Adapter): Adapter {
  const charColumns = new WeakMap<object, number[]>();
  const patchable = adapter as unknown as {
    performIO(query: unknown): Promise<QueryResult>;
    queryRaw(query: unknown): Promise<{ columnTypes: number[]; rows: unknown[][] }>;
    executeScript(script: string): Promise<void>;
    client: pg.Pool;
  };
  const performIO = patchable.performIO.bind(adapter);
  patchable.performIO = async (query) => {
    const result = await performIO(query);
    const marked: number[] = [];
    result.fields.forEach((field, index) => {
      if (field.dataTypeID === CHAR_OID) {
        field.dataTypeID = TEXT_OID;
        marked.push(index);
      }
    });
    if (marked.length > 0) charColumns.set(result.rows, marked);
    return result;
  };
  const queryRaw = patchable.queryRaw.bind(adapter);
  patchable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const index of charColumns.get(result.rows) ?? []) result.columnTypes[index] = ColumnTypeEnum.Character;
    return result;
  };
  patchable.executeScript = async (script) => {
    await patchable.client.query(script);
  };
  return adapter;
}

function databaseUrlWith(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A migration-aware adapter factory for a PostgreSQL server, with shadow databases of our own. */
export function migrationAdapterFactory(connectionString: string, options: { shadow: "server" | "none" } = { shadow: "server" }) {
  const base = new PrismaPg({ connectionString });
  const opened: Adapter[] = [];
  return {
    provider: "postgres" as const,
    adapterName: base.adapterName,
    async connect() {
      const adapter = patchAdapter(await base.connect());
      opened.push(adapter);
      return adapter;
    },
    /** closes the connections the engine opened: it keeps them (and PostgreSQL's advisory lock) otherwise */
    async disposeAll() {
      await Promise.allSettled(opened.splice(0).map((adapter) => adapter.dispose()));
    },
    async connectToShadowDb() {
      if (options.shadow === "none") throw new Error("this database cannot host a shadow database");
      const admin = new pg.Client({ connectionString });
      await admin.connect();
      const database = `yardstick_shadow_${crypto.randomUUID().replaceAll("-", "")}`;
      await admin.query(`CREATE DATABASE "${database}"`);
      await admin.end();
      const shadow = new PrismaPg({ connectionString: databaseUrlWith(connectionString, database) });
      const adapter = patchAdapter(await shadow.connect());
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        const cleanup = new pg.Client({ connectionString });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
        await cleanup.end();
      };
      return adapter;
    },
  };
}

interface WasmEngine {
  diff(params: unknown): Promise<{ exitCode: number; stdout: string }>;
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  free(): void;
}

let glueLoaded: Promise<{ SchemaEngine: { new: (...args: unknown[]) => Promise<WasmEngine> } }> | null = null;

async function loadGlue() {
  if (!glueLoaded) {
    glueLoaded = (async () => {
      const require = createRequire(import.meta.url);
      const packageDir = path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
      const globals = globalThis as unknown as { PRISMA_WASM_PANIC_REGISTRY?: unknown };
      globals.PRISMA_WASM_PANIC_REGISTRY ??= {
        set_message(message: string) {
          console.error(`prisma schema engine panic: ${message}`);
        },
      };
      const glue = await import(/* webpackIgnore: true */ path.join(packageDir, "schema_engine_bg.js"));
      const bytes = readFileSync(path.join(packageDir, "schema_engine_bg.wasm"));
      const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue });
      glue.__wbg_set_wasm(instance.exports);
      (instance.exports as unknown as { __wbindgen_start(): void }).__wbindgen_start();
      return glue;
    })();
  }
  return glueLoaded;
}

export async function openSchemaEngine(factory: ReturnType<typeof migrationAdapterFactory>, schema = readFileSync(SCHEMA_PATH, "utf8")) {
  const glue = await loadGlue();
  return glue.SchemaEngine.new({ datamodels: [["schema.prisma", schema]] }, () => {}, bindMigrationAwareSqlAdapterFactory(factory as never));
}

const noFilters = { externalTables: [], externalEnums: [] };

export function readMigrationsList(dir = MIGRATIONS_DIR) {
  const lockPath = path.join(dir, "migration_lock.toml");
  const directories = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => statSync(path.join(dir, name)).isDirectory())
        .sort()
    : [];
  return {
    baseDir: dir,
    lockfile: { path: lockPath, content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: directories.map((name) => {
      const file = path.join(dir, name, "migration.sql");
      // relative to baseDir: the engine stores this as the migration's name, which must not depend on where the checkout lies
      return {
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: existsSync(file) ? { tag: "ok", value: readFileSync(file, "utf8") } : { tag: "error", value: "missing migration.sql" },
        },
      };
    }),
  };
}

/**
 * Versions before this one gave the engine each migration's full path, which it stored as the
 * migration's name, so a database migrated from one checkout looked unmigrated to another (and to
 * `prisma migrate deploy`). Such names become the folder's name, as Prisma writes them.
 */
async function nameMigrationsByFolder(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`DO $$ BEGIN
      IF to_regclass('_prisma_migrations') IS NOT NULL THEN
        UPDATE _prisma_migrations SET migration_name = regexp_replace(migration_name, '^.*/', '') WHERE migration_name LIKE '%/%';
      END IF;
    END $$`);
  } finally {
    await client.end();
  }
}

/** Applies every migration in prisma/migrations that the database has not had yet. */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  await nameMigrationsByFolder(connectionString);
  const factory = migrationAdapterFactory(connectionString, { shadow: "none" });
  const engine = await openSchemaEngine(factory);
  try {
    const result = await engine.applyMigrations({ migrationsList: readMigrationsList(), filters: noFilters });
    return result.appliedMigrationNames;
  } finally {
    engine.free();
    await factory.disposeAll();
  }
}

/**
 * SQL that takes a database built by the migrations to the schema in schema.prisma; empty when
 * they agree. Needs a PostgreSQL server on which it may create a throwaway shadow database.
 */
export async function diffMigrationsToSchema(serverUrl: string, schema = readFileSync(SCHEMA_PATH, "utf8")): Promise<{ inSync: boolean; sql: string }> {
  const factory = migrationAdapterFactory(serverUrl);
  const engine = await openSchemaEngine(factory, schema);
  try {
    const result = await engine.diff({
      from: { tag: "migrations", ...readMigrationsList() },
      to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: schema }] },
      script: true,
      exitCode: true,
      filters: noFilters,
    });
    return { inSync: result.exitCode === 0, sql: result.stdout };
  } finally {
    engine.free();
    await factory.disposeAll();
  }
}
