import { randomBytes } from "node:crypto";
import { Prisma } from "@/lib/generated/prisma/client";

/** now() as the timestamp(3) columns store it (UTC, like Prisma). */
export const sqlNow = Prisma.sql`(now() AT TIME ZONE 'UTC')`;

/** An id like Prisma's cuid() defaults (rows inserted with SQL get no Prisma default). */
export function newRowId(): string {
  return `c${Date.now().toString(36)}${randomBytes(10).toString("hex")}`;
}
