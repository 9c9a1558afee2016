import "server-only";
import { escapeLiteral } from "pg";
import type pg from "pg";
import { copyLineReader, copySupported } from "@/lib/db/copy";
import { db } from "@/lib/db";
import { readDb, readPool } from "@/lib/db/read";

/**
 * Data access for the dashboard's snapshot (lib/dashboard/snapshot.ts reads it into columns): the
 * study's data version, its non-practice items and their submitted responses, read on the read
 * replica when there is one, in keyset pages (PGlite) or by COPY in one read-only transaction; and
 * the stored snapshot of a large study (DashboardSnapshot, lib/dashboard/snapshot-store.ts).
 */

/** The data version as text ("version:changedAt in epoch ms"), one row or none; $1 the study. */
const VERSION_SQL = `SELECT version::text || ':' || (extract(epoch FROM "changedAt") * 1000)::bigint AS version FROM "StudyDataVersion" WHERE "studyId" = $1`;

/** The study's data version ("version:changedAt in epoch ms"), undefined without a row. */
export async function findSnapshotVersion(studyId: string): Promise<string | undefined> {
  const [row] = await readDb.$queryRawUnsafe<Array<{ version: string }>>(VERSION_SQL, studyId);
  return row?.version;
}

/** Submitted answers of the study now (outside practice). */
export async function countResponsesOutsidePractice(studyId: string): Promise<bigint> {
  const [row] = await readDb.$queryRaw<Array<{ responses: bigint }>>`
    SELECT count(*) AS responses FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."studyId" = ${studyId} AND a.purpose <> 'PRACTICE'`;
  return row.responses;
}

/** The kinds of the study's items (practice included). */
export async function findItemKinds(studyId: string): Promise<string[]> {
  const kindRows = await readDb.$queryRaw<Array<{ kind: string }>>`SELECT DISTINCT kind FROM "Item" WHERE "studyId" = ${studyId}`;
  return kindRows.map((r) => r.kind);
}

/** One keyset page of the study's non-practice items after the id `after`: tags as text, the key as text for `keyKinds` only. */
export async function findSnapshotItemsPage(studyId: string, keyKinds: string[], after: string, limit: number) {
  return readDb.$queryRaw<Array<{ id: string; externalId: string; kind: string; tags: string; key: string | null }>>`
    SELECT id, "externalId", kind, tags::text AS tags, CASE WHEN kind = ANY(${keyKinds}) THEN key::text END AS key FROM "Item"
    WHERE "studyId" = ${studyId} AND NOT practice AND id > ${after}
    ORDER BY id LIMIT ${limit}`;
}

export interface ResponseRow {
  itemId: string;
  userId: string;
  agreement: boolean;
  condition: string | null;
  correct: boolean | null;
  confidence: number;
  wallMs: number;
  activeMs: number;
  createdAt: number;
  score: string;
  answer: string;
}

/**
 * One keyset page of the study's submitted answers outside practice after (item, annotator): jsonb
 * as text and times as epoch numbers (parsing them in the caller is cheaper than the driver's conversions).
 */
export async function findSnapshotResponsesPage(studyId: string, afterItem: string, afterUser: string, limit: number) {
  return readDb.$queryRaw<ResponseRow[]>`
    SELECT a."itemId", a."userId", (a.purpose = 'AGREEMENT') AS agreement, a.condition, r.correct, r.confidence, r."wallMs", r."activeMs",
           (extract(epoch FROM r."createdAt") * 1000)::float8 AS "createdAt", r.score::text AS score, r.answer::text AS answer
    FROM "Assignment" a
    JOIN "Response" r ON r."assignmentId" = a.id
    WHERE a."studyId" = ${studyId} AND a.purpose <> 'PRACTICE'
      AND (a."itemId", a."userId") > (${afterItem}, ${afterUser})
    ORDER BY a."itemId", a."userId"
    LIMIT ${limit}`;
}

/** Users' names, on the read replica. */
export async function findUserNamesForSnapshot(userIds: string[]) {
  return readDb.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } });
}

/** Whether the read connection takes COPY (PostgreSQL does; PGlite answers a statement whole). */
export function snapshotCopySupported(): Promise<boolean> {
  return copySupported(readPool());
}

/** Reads every line of `COPY (select) TO STDOUT` on `client` into `row`. */
async function copyEach(client: pg.ClientBase, select: string, row: (line: string) => void): Promise<void> {
  const reader = copyLineReader(client, select);
  try {
    for (let lines = await reader.next(); lines; lines = await reader.next()) for (const line of lines) row(line);
  } catch (error) {
    reader.destroy();
    throw error;
  }
}

/** The reads of one snapshot by COPY, of one moment (readSnapshotByCopy's transaction). */
export interface SnapshotCopyReads {
  version(): Promise<string | undefined>;
  itemKinds(): Promise<string[]>;
  /** each non-practice item as a line of COPY's text format: id, externalId, kind, tags, key (of `keyKinds` only, else null) */
  copyItems(keyKinds: string[], row: (line: string) => void): Promise<void>;
  /** each submitted answer outside practice, in (item, annotator) order: itemId, userId, agreement, condition, correct, confidence, wallMs, activeMs, createdAt (epoch ms), score, answer */
  copyResponses(row: (line: string) => void): Promise<void>;
  userNames(userIds: string[]): Promise<Array<{ id: string; name: string }>>;
}

/**
 * Runs `read` in one read-only REPEATABLE READ transaction on a connection of the read pool, so
 * that the version, items, answers and names it reads are of one moment. A COPY left half read
 * leaves the connection mid-protocol: on an error it is not given back to the pool.
 */
export async function readSnapshotByCopy<T>(studyId: string, read: (reads: SnapshotCopyReads) => Promise<T>): Promise<T> {
  const study = escapeLiteral(studyId);
  const client = await readPool().connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const result = await read({
      version: async () => (await client.query<{ version: string }>(VERSION_SQL, [studyId])).rows[0]?.version,
      itemKinds: async () => (await client.query<{ kind: string }>(`SELECT DISTINCT kind FROM "Item" WHERE "studyId" = $1`, [studyId])).rows.map((r) => r.kind),
      copyItems: (keyKinds, row) => {
        const key = keyKinds.length ? `CASE WHEN kind IN (${keyKinds.map(escapeLiteral).join(", ")}) THEN key END` : "NULL";
        return copyEach(client, `SELECT id, "externalId", kind, tags, ${key} FROM "Item" WHERE "studyId" = ${study} AND NOT practice ORDER BY id`, row);
      },
      copyResponses: (row) =>
        copyEach(
          client,
          `SELECT a."itemId", a."userId", a.purpose = 'AGREEMENT', a.condition, r.correct, r.confidence, r."wallMs", r."activeMs", (extract(epoch FROM r."createdAt") * 1000)::float8, r.score, r.answer
       FROM "Assignment" a JOIN "Response" r ON r."assignmentId" = a.id
       WHERE a."studyId" = ${study} AND a.purpose <> 'PRACTICE'
       ORDER BY a."itemId", a."userId"`,
          row,
        ),
      userNames: async (userIds) =>
        userIds.length ? (await client.query<{ id: string; name: string }>(`SELECT id, name FROM "User" WHERE id = ANY($1)`, [userIds])).rows : [],
    });
    await client.query("COMMIT");
    client.release();
    return result;
  } catch (error) {
    client.release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

/** The reads of a stored snapshot, of one moment (readStoredSnapshotRows's transaction). */
export interface StoredSnapshotReads {
  /** the bytes of the study's stored snapshot of this version and format, in parts by order; none when there is none */
  parts(version: string, format: number): Promise<Buffer[]>;
  userNames(userIds: string[]): Promise<Array<{ id: string; name: string }>>;
}

/** Runs `read` in one read-only REPEATABLE READ transaction on a connection of the read pool (rolled back on an error, which is thrown on). */
export async function readStoredSnapshotRows<T>(studyId: string, read: (reads: StoredSnapshotReads) => Promise<T>): Promise<T> {
  const client = await readPool().connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const result = await read({
      parts: async (version, format) => {
        // (bytea arrives as hex text, which pg turns into bytes natively; its binary mode reads bytes as text)
        const { rows } = await client.query<{ data: Buffer }>(
          `SELECT p.data FROM "DashboardSnapshot" s JOIN "DashboardSnapshotPart" p ON p."studyId" = s."studyId"
     WHERE s."studyId" = $1 AND s.version = $2 AND s.format = $3 ORDER BY p.part`,
          [studyId, version, format],
        );
        return rows.map((row) => row.data);
      },
      userNames: async (userIds) =>
        userIds.length ? (await client.query<{ id: string; name: string }>(`SELECT id, name FROM "User" WHERE id = ANY($1)`, [userIds])).rows : [],
    });
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Keeps a study's snapshot bytes for its version in `parts` rows, replacing the one stored before, one store of a study at a time. */
export async function writeStoredSnapshot(studyId: string, version: string, format: number, parts: Uint8Array[]): Promise<void> {
  await db.$transaction(
    async (tx) => {
      // one store of a study at a time (two processes may read one version at once)
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`dashboard-snapshot:${studyId}`}, 0))`;
      await tx.$executeRaw`DELETE FROM "DashboardSnapshot" WHERE "studyId" = ${studyId}`;
      await tx.$executeRaw`INSERT INTO "DashboardSnapshot" ("studyId", version, format, parts) VALUES (${studyId}, ${version}, ${format}, ${parts.length})`;
      for (const [part, bytes] of parts.entries())
        await tx.$executeRaw`INSERT INTO "DashboardSnapshotPart" ("studyId", part, data) VALUES (${studyId}, ${part}, ${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)})`;
    },
    { timeout: 60_000, maxWait: 60_000 },
  ); // in the background: waiting for a connection holds up no one
}
