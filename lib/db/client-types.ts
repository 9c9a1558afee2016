import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";

/**
 * The one transaction-client type: what `db.$transaction(async (tx) => ...)` gives its
 * callback, for functions that must run inside a transaction (they take locks or read what the
 * transaction wrote).
 */
export type Tx = Prisma.TransactionClient;

/** The process's client (`db`) or a transaction's: for functions that run in either. */
export type DbClient = PrismaClient | Tx;
