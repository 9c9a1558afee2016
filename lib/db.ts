import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { embeddedDatabaseUrl } from "@/lib/db/embedded-url";

export function createPrismaClient(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
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
