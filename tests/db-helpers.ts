import { db } from "@/lib/db";
import { hashPassword } from "@/lib/passwords";
import type { Role } from "@/lib/generated/prisma/enums";

/** Empties every table (integration tests start from a known state). */
export async function resetDatabase(): Promise<void> {
  const tables = await db.$queryRawUnsafe<Array<{ tablename: string }>>(
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
  );
  if (tables.length === 0) return;
  await db.$executeRawUnsafe(`TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(", ")} RESTART IDENTITY CASCADE`);
}

let counter = 0;

export async function createUser(role: Role, overrides: { email?: string; name?: string; password?: string } = {}) {
  counter += 1;
  return db.user.create({
    data: {
      role,
      email: overrides.email ?? `${role.toLowerCase()}${counter}-${Date.now()}@test.local`,
      name: overrides.name ?? `${role.toLowerCase()} ${counter}`,
      passwordHash: await hashPassword(overrides.password ?? "password"),
    },
  });
}

export async function createStudy(overrides: { slug?: string; overlap?: number; createdById?: string } = {}) {
  counter += 1;
  return db.study.create({
    data: {
      slug: overrides.slug ?? `study-${counter}-${Date.now().toString(36)}`,
      title: `Test study ${counter}`,
      overlap: overrides.overlap ?? 1,
      createdById: overrides.createdById,
    },
  });
}
