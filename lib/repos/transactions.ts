import "server-only";
import { databasePoolSize, db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";

/**
 * Transactions for services. A service whose rule spans several reads and writes opens one here
 * and hands the `tx` it gets to repository functions (each takes it as its first parameter when
 * it must run inside a transaction, or as an optional last `client` when it may run in either);
 * the service itself never queries with it.
 */

export interface TransactionOptions {
  /** how long to wait for a connection, in ms (Prisma's default 2 s) */
  maxWait?: number;
  /** how long the transaction may run, in ms (Prisma's default 5 s) */
  timeout?: number;
}

/** Runs `work` in one interactive transaction on the primary: committed when it resolves, rolled back when it throws. */
export function inTransaction<T>(work: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> {
  return options === undefined ? db.$transaction(work) : db.$transaction(work, options);
}

/** Connections in this process's pool to the primary (DATABASE_POOL_SIZE), for services that share them out. */
export function connectionPoolSize(): number {
  return databasePoolSize();
}
