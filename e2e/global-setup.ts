import { randomUUID } from "node:crypto";
import { e2eDb, closeE2eDb } from "./db";
import { e2eUsers } from "./users";
import { hashPassword } from "../lib/auth/passwords";

/** Seeds the accounts of e2e/users.ts into the run's fresh database. */
export default async function globalSetup() {
  const db = e2eDb();
  for (const user of Object.values(e2eUsers)) {
    await db.query(
      `INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt") VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (email) DO UPDATE SET "passwordHash" = EXCLUDED."passwordHash", role = EXCLUDED.role, disabled = false`,
      [randomUUID(), user.email, user.name, await hashPassword(user.password), user.role],
    );
  }
  await closeE2eDb();
}
