import "server-only";
import pg from "pg";
import { createPrismaClient, databasePoolSize, db, type PrismaClient } from "@/lib/db";
import { embeddedDatabaseUrl } from "@/lib/db/embedded-url";

/**
 * Reads that may lag: dashboards and exports. With DATABASE_REPLICA_URL set (a streaming replica
 * of DATABASE_URL's database, docs/scaling.md) they go to the replica, so that a large study's
 * figures do not load the primary that assignment and answers need; without it, to the primary.
 * Writes, assignment and anything read to decide a write stay on `db` (the primary): a replica
 * lags, and refuses writes.
 */

const holder = globalThis as unknown as { yardstickReadPrisma?: PrismaClient; yardstickReadPool?: { url: string; pool: pg.Pool } };

export function replicaConfigured(): boolean {
  return Boolean(process.env.DATABASE_REPLICA_URL);
}

function client(): PrismaClient {
  if (!replicaConfigured()) return db;
  holder.yardstickReadPrisma ??= createPrismaClient(process.env.DATABASE_REPLICA_URL!);
  return holder.yardstickReadPrisma;
}

/** The client for lagging reads: the replica when one is configured, else the primary. */
export const readDb: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const real = client();
    const value = Reflect.get(real, property);
    return typeof value === "function" ? value.bind(real) : value;
  },
});

/**
 * A plain pg pool on the database readDb reads (the replica when configured), for what Prisma
 * cannot do: the `COPY ... TO STDOUT` of the streamed exports and the dashboard's snapshot
 * (lib/db/copy.ts). Its own connections (DATABASE_POOL_SIZE at most, idle ones closed after 10 s),
 * created on first use.
 */
export function readPool(): pg.Pool {
  const url = replicaConfigured() ? process.env.DATABASE_REPLICA_URL! : (process.env.DATABASE_URL ?? embeddedDatabaseUrl());
  if (holder.yardstickReadPool?.url !== url) {
    void holder.yardstickReadPool?.pool.end().catch(() => undefined);
    const timeout = Number(process.env.DATABASE_POOL_TIMEOUT_MS ?? "");
    const pool = new pg.Pool({
      connectionString: url,
      max: databasePoolSize(),
      connectionTimeoutMillis: Number.isInteger(timeout) && timeout > 0 ? timeout : 10_000,
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
      // doubles as their shortest round-trip digits (the default since PostgreSQL 12, whatever the
      // server's setting): the exports write them as JavaScript's String(x) of the exact value. A
      // start-up parameter, not a query on "connect" (which queues ahead of the caller's first query)
      options: "-c extra_float_digits=1",
    });
    pool.on("error", () => undefined); // an idle connection that the server closed: the pool drops it
    holder.yardstickReadPool = { url, pool };
  }
  return holder.yardstickReadPool.pool;
}

export interface ReadFreshness {
  /** figures are read from a replica */
  replica: boolean;
  /**
   * the instant the replica's data is current to (ms since epoch): now when it has replayed all
   * it received, else the commit time of the last transaction it replayed; null on the primary
   */
  asOf: number | null;
}

/** How fresh lagging reads are (the dashboard's "figures as of" note). */
export async function readFreshness(): Promise<ReadFreshness> {
  if (!replicaConfigured()) return { replica: false, asOf: null };
  const [row] = await client().$queryRaw<Array<{ caughtUp: boolean | null; replay: Date | null; now: Date }>>`
    SELECT pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() AS "caughtUp", pg_last_xact_replay_timestamp() AS replay, now() AS now`;
  if (!row) return { replica: true, asOf: null };
  // caught up: as fresh as the last WAL received (streaming keeps that within moments of the primary)
  if (row.caughtUp) return { replica: true, asOf: row.now.getTime() };
  return { replica: true, asOf: row.replay ? row.replay.getTime() : null };
}

export async function disconnectReadDb(): Promise<void> {
  if (holder.yardstickReadPool) {
    const { pool } = holder.yardstickReadPool;
    holder.yardstickReadPool = undefined;
    await pool.end();
  }
  if (holder.yardstickReadPrisma) {
    await holder.yardstickReadPrisma.$disconnect();
    holder.yardstickReadPrisma = undefined;
  }
}
