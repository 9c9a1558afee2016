import { randomUUID } from "node:crypto";
import pg from "pg";
import { applyMigrations } from "../../lib/db/schema-engine";
import { hashPassword } from "../../lib/auth/passwords";

/**
 * Rows for the fault tests, written with pg into a database of the test's own: annotators,
 * and a study of GridWM-Judge items (the answer is a verdict, Success or Fail; the key says which).
 */

export async function migrate(databaseUrl: string): Promise<void> {
  await applyMigrations(databaseUrl);
}

export interface SeededUser {
  id: string;
  email: string;
  password: string;
}

export async function createUsers(
  pool: pg.Pool,
  count: number,
  role: "ANNOTATOR" | "RESEARCHER" | "ADMIN" = "ANNOTATOR",
  prefix = "fault",
): Promise<SeededUser[]> {
  const password = `${prefix}-password`;
  const hash = await hashPassword(password);
  const users: SeededUser[] = [];
  for (let i = 0; i < count; i++) {
    const id = `u_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
    const email = `${prefix}-${role.toLowerCase()}-${i}-${id.slice(2, 8)}@faults.test`;
    await pool.query(`INSERT INTO "User" (id, email, name, "passwordHash", role, "updatedAt") VALUES ($1, $2, $3, $4, $5, now())`, [
      id,
      email,
      `${prefix} ${role} ${i}`,
      hash,
      role,
    ]);
    users.push({ id, email, password });
  }
  return users;
}

export interface SeededStudy {
  id: string;
  slug: string;
  /** item id -> the right verdict */
  keys: Map<string, "Success" | "Fail">;
}

/** A Study row (columns whose defaults Prisma fills in, filled here). */
export async function createStudyRow(pool: pg.Pool, slug: string, title: string, overlap = 1): Promise<string> {
  const id = `st_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await pool.query(`INSERT INTO "Study" (id, slug, title, overlap, status, "pseudonymSalt", "updatedAt") VALUES ($1, $2, $3, $4, 'OPEN', $5, now())`, [
    id,
    slug,
    title,
    overlap,
    randomUUID(),
  ]);
  return id;
}

export async function createJudgeStudy(pool: pg.Pool, options: { items: number; overlap?: number; members: SeededUser[] }): Promise<SeededStudy> {
  const slug = `faults-${randomUUID().slice(0, 8)}`;
  const id = await createStudyRow(pool, slug, "Fault study", options.overlap ?? 1);
  const batchId = `ba_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await pool.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'faults', $3, $4)`, [
    batchId,
    id,
    randomUUID(),
    options.items,
  ]);
  const keys = new Map<string, "Success" | "Fail">();
  for (let i = 0; i < options.items; i++) {
    const itemId = `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
    const answer = i % 2 === 0 ? "Success" : "Fail";
    await pool.query(
      `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, "contentHash") VALUES ($1, $2, $3, $4, 'gridwm-judge', $5, $6, '{}', $7)`,
      [
        itemId,
        id,
        batchId,
        `judge-${i}`,
        JSON.stringify({ storyboard: `/api/assets/${"0".repeat(64)}`, mission: "get to the green goal square" }),
        JSON.stringify({ answer }),
        randomUUID(),
      ],
    );
    keys.set(itemId, answer);
  }
  for (const member of options.members) await pool.query(`INSERT INTO "StudyMember" ("studyId", "userId") VALUES ($1, $2)`, [id, member.id]);
  return { id, slug, keys };
}
