import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { embeddedDatabaseUrl } from "@/lib/db/embedded-url";

/**
 * The pg pool behind Prisma: DATABASE_POOL_SIZE connections (default 10, pg's default; raise it
 * only with the database's cores and max_connections in mind), and a request that finds no free
 * connection within DATABASE_POOL_TIMEOUT_MS (default 10 s) fails with a saturation error that
 * the routes answer 503 + Retry-After (lib/db/transient.ts) instead of hanging.
 */
export function databasePoolSize(): number {
  const size = Number(process.env.DATABASE_POOL_SIZE ?? "");
  return Number.isInteger(size) && size > 0 ? size : 10;
}

function poolOptions(): { max: number; connectionTimeoutMillis: number } {
  const timeout = Number(process.env.DATABASE_POOL_TIMEOUT_MS ?? "");
  return { max: databasePoolSize(), connectionTimeoutMillis: Number.isInteger(timeout) && timeout > 0 ? timeout : 10_000 };
}

export function createPrismaClient(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, ...poolOptions() }) });
}

const globalForPrisma = globalThis as unknown as { yardstickPrisma?: PrismaClient };

/** The one Prisma client of this process, created on first use from DATABASE_URL (or the embedded database). */
function client(): PrismaClient {
  globalForPrisma.yardstickPrisma ??= createPrismaClient(process.env.DATABASE_URL ?? embeddedDatabaseUrl());
  return globalForPrisma.yardstickPrisma;
}

export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const real = client();
    const value = Reflect.get(real, property);
    return typeof value === "function" ? value.bind(real) : value;
  },
});

export async function disconnectDb(): Promise<void> {
  if (globalForPrisma.yardstickPrisma) {
    await globalForPrisma.yardstickPrisma.$disconnect();
    globalForPrisma.yardstickPrisma = undefined;
  }
}

export type { PrismaClient };
