import "server-only";
import type pg from "pg";
import { escapeLiteral } from "pg";
import { db } from "@/lib/db";
import { copyLineReader, copySupported, type CopyLineReader } from "@/lib/db/copy";
import { readDb, readPool } from "@/lib/db/read";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ExportFilter } from "@/lib/exports/filter";
import { csvBoolean, csvInteger, csvJson, csvJsonField, csvLine, csvNumber, csvText, csvTime, pseudonymousIdSql } from "@/lib/repos/sql-csv";

/**
 * Data access for study exports (docs/exports.md): the reads of each table in keyset pages (in
 * index order), the CSV lines of the large tables built in the database, and their raw columns
 * streamed by one COPY. Exports read lagging data: readDb and readPool, the replica when one is
 * configured (lib/db/read.ts). Which columns a table has and how records are written are
 * lib/exports/study-export.ts's.
 */

export type ExportStudyRow = { id: string; slug: string; pseudonymSalt: string };

export async function findStudyForExport(slug: string): Promise<ExportStudyRow | null> {
  return readDb.study.findUnique({ where: { slug }, select: { id: true, slug: true, pseudonymSalt: true } });
}

function itemFilterSql(filter: ExportFilter): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (filter.kind) parts.push(Prisma.sql`AND i.kind = ${filter.kind}`);
  if (filter.tag) {
    const [key, ...rest] = filter.tag.split("=");
    parts.push(Prisma.sql`AND i.tags ->> ${key} = ${rest.join("=")}`);
  }
  return parts.length > 0 ? Prisma.join(parts, " ") : Prisma.empty;
}

/** itemFilterSql as SQL text with literals, for a COPY's SELECT */
function itemFilterText(filter: ExportFilter): string {
  const parts: string[] = [];
  if (filter.kind) parts.push(`AND i.kind = ${escapeLiteral(filter.kind)}`);
  if (filter.tag) {
    const [key, ...rest] = filter.tag.split("=");
    parts.push(`AND i.tags ->> ${escapeLiteral(key)} = ${escapeLiteral(rest.join("="))}`);
  }
  return parts.join(" ");
}

/** a timestamp(3) column as Date.toISOString writes it (the CSV of the records writes the Date so) */
const isoSql = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Rows each export would hold (SQL counts), for the Exports page. */
export async function countExportRows(
  studyId: string,
  filter: ExportFilter,
): Promise<{ items: number; responses: number; events: number; annotators: number; predictions: number }> {
  const f = itemFilterSql(filter);
  const [row] = await readDb.$queryRaw<Array<{ items: bigint; responses: bigint; events: bigint; annotators: bigint; predictions: bigint }>>`
    SELECT
      (SELECT count(*) FROM "Item" i WHERE i."studyId" = ${studyId} ${f}) AS items,
      (SELECT count(*) FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId" WHERE a."studyId" = ${studyId} ${f}) AS responses,
      (SELECT count(*) FROM "Event" e JOIN "Assignment" a ON a.id = e."assignmentId" JOIN "Item" i ON i.id = a."itemId" WHERE a."studyId" = ${studyId} ${f}) AS events,
      (SELECT count(*) FROM (
        SELECT a."userId" FROM "Assignment" a JOIN "Item" i ON i.id = a."itemId" WHERE a."studyId" = ${studyId} ${f}
        UNION SELECT m."userId" FROM "StudyMember" m WHERE m."studyId" = ${studyId} AND ${filter.kind || filter.tag ? Prisma.sql`false` : Prisma.sql`true`}
      ) u) AS annotators,
      (SELECT count(*) FROM "ModelPrediction" p JOIN "ModelRun" m ON m.id = p."runId" JOIN "Item" i ON i.id = p."itemId" WHERE m."studyId" = ${studyId} ${f}) AS predictions`;
  return {
    items: Number(row.items),
    responses: Number(row.responses),
    events: Number(row.events),
    annotators: Number(row.annotators),
    predictions: Number(row.predictions),
  };
}

/** The tag names of the (filtered) items of the study, sorted: the tag_<key> columns. */
export async function listTagKeys(studyId: string, filter: ExportFilter): Promise<string[]> {
  const rows = await readDb.$queryRaw<Array<{ key: string }>>`
    SELECT DISTINCT jsonb_object_keys(i.tags) AS key FROM "Item" i
    WHERE i."studyId" = ${studyId} AND jsonb_typeof(i.tags) = 'object' ${itemFilterSql(filter)}`;
  return rows.map((r) => r.key).sort();
}

/**
 * The keys of the score objects of the (filtered) responses or predictions, sorted: the score_<key>
 * columns. For responses, the candidates are the keys recorded for the study's kinds in
 * "ResponseScoreKey" (kept by triggers as responses are stored), each kept when some response
 * of the filter still holds it: a key that occurs is found at its first response, so the header
 * is known in milliseconds instead of after a pass over every score (the download's
 * first byte). The keys are the same as DISTINCT jsonb_object_keys over all the scores: every key
 * stored is recorded (the triggers see every insert and update), and a recorded key is kept only
 * if it occurs.
 */
export async function listScoreKeys(studyId: string, filter: ExportFilter, table: "responses" | "predictions"): Promise<string[]> {
  const rows =
    table === "responses"
      ? await readDb.$queryRaw<Array<{ key: string }>>`
          SELECT k.key FROM (
            SELECT DISTINCT s.key FROM "ResponseScoreKey" s WHERE s."studyId" = ${studyId} ${filter.kind ? Prisma.sql`AND s.kind = ${filter.kind}` : Prisma.empty}
          ) k
          WHERE EXISTS (
            SELECT 1 FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" JOIN "Item" i ON i.id = a."itemId"
            WHERE a."studyId" = ${studyId} AND jsonb_typeof(r.score) = 'object' AND r.score ? k.key ${itemFilterSql(filter)}
          )`
      : await readDb.$queryRaw<Array<{ key: string }>>`
          SELECT DISTINCT jsonb_object_keys(p.score) AS key
          FROM "ModelPrediction" p JOIN "ModelRun" m ON m.id = p."runId" JOIN "Item" i ON i.id = p."itemId"
          WHERE m."studyId" = ${studyId} AND jsonb_typeof(p.score) = 'object' ${itemFilterSql(filter)}`;
  return rows.map((r) => r.key).sort();
}

// --- COPY: the raw columns of the large tables, streamed ---------------------------------------

/** Whether the read database streams COPY (PostgreSQL does; the embedded PGlite does not: lib/db/copy.ts). */
export function exportCopyAvailable(): Promise<boolean> {
  return copySupported(readPool());
}

export interface CopyRows {
  /** the next raw lines of the COPY (PostgreSQL's text format; at least one); null when it is done */
  next(): Promise<string[] | null>;
  /** ends the COPY early (the download was cancelled, or a line could not be written): the connection is destroyed, which stops the query */
  cancel(reason?: unknown): void;
}

/**
 * Runs `COPY (select) TO STDOUT` on a connection of the read pool. The connection is taken at the
 * first next() and given back when the COPY ends (or destroyed when it is cancelled or fails).
 */
function copyRows(select: string): CopyRows {
  const pool = readPool();
  let client: pg.PoolClient | null = null;
  let lines: CopyLineReader | null = null;
  let done = false;
  const finish = (error?: unknown) => {
    if (done) return;
    done = true;
    lines?.destroy();
    client?.release(error === undefined ? undefined : error instanceof Error ? error : new Error(String(error)));
    client = null;
  };
  return {
    async next() {
      if (done) return null;
      try {
        if (!lines) {
          client = await pool.connect();
          lines = copyLineReader(client, select);
        }
        const batch = await lines.next();
        if (!batch) finish();
        return batch;
      } catch (error) {
        finish(error);
        throw error;
      }
    },
    cancel(reason?: unknown) {
      finish(reason ?? new Error("export cancelled"));
    },
  };
}

/**
 * The (filtered) responses of the study by (item, user), as COPY lines of: response id, item
 * external id, kind, user id, agent, purpose, practice, answer, confidenceRaw, confidence,
 * correct, score, wallMs, activeMs, startedAt, submittedAt, createdAt (the times as
 * Date.toISOString writes them), item tags.
 */
export function copyResponses(studyId: string, filter: ExportFilter): CopyRows {
  return copyRows(`SELECT r.id, i."externalId", i.kind, a."userId", a.agent, a.purpose, (i.practice OR a.purpose = 'PRACTICE'), r.answer, r."confidenceRaw", r.confidence, r.correct,
          r.score, r."wallMs", r."activeMs", ${isoSql('a."startedAt"')}, ${isoSql('a."submittedAt"')}, ${isoSql('r."createdAt"')}, i.tags
        FROM "Assignment" a
        JOIN "Response" r ON r."assignmentId" = a.id
        JOIN "Item" i ON i.id = a."itemId"
        WHERE a."studyId" = ${escapeLiteral(studyId)} ${itemFilterText(filter)}
        ORDER BY a."itemId", a."userId"`);
}

/**
 * The (filtered) trajectory events of the study by (assignment, seq), as COPY lines of: event id,
 * item external id, kind, user id, agent, purpose, assignment id, seq, type, payload, clientTime,
 * serverTime (as Date.toISOString writes them).
 */
export function copyEvents(studyId: string, filter: ExportFilter): CopyRows {
  return copyRows(`SELECT e.id, i."externalId", i.kind, a."userId", a.agent, a.purpose, e."assignmentId", e.seq, e.type, e.payload, ${isoSql('e."clientTime"')}, ${isoSql('e."serverTime"')}
        FROM "Event" e
        JOIN "Assignment" a ON a.id = e."assignmentId"
        JOIN "Item" i ON i.id = a."itemId"
        WHERE a."studyId" = ${escapeLiteral(studyId)} ${itemFilterText(filter)}
        ORDER BY e."assignmentId", e.seq`);
}

// --- keyset pages -----------------------------------------------------------------------------

/** The (filtered) items of the study after the item id `after`, by id, with their batch's file name. */
export async function readItemsPage(studyId: string, filter: ExportFilter, after: string, limit: number) {
  return readDb.$queryRaw<
    Array<{
      id: string;
      externalId: string;
      kind: string;
      practice: boolean;
      gold: boolean;
      fileName: string;
      createdAt: Date;
      tags: unknown;
      public: unknown;
      key: unknown;
    }>
  >`
        SELECT i.id, i."externalId", i.kind, i.practice, i.gold, b."fileName", i."createdAt", i.tags, i.public, i.key
        FROM "Item" i JOIN "Batch" b ON b.id = i."batchId"
        WHERE i."studyId" = ${studyId} AND i.id > ${after} ${itemFilterSql(filter)}
        ORDER BY i.id LIMIT ${limit}`;
}

/** The (filtered) responses of the study after (item, user) `after`, by (item, user). */
export async function readResponsesPage(studyId: string, filter: ExportFilter, after: { itemId: string; userId: string }, limit: number) {
  return readDb.$queryRaw<
    Array<{
      id: string;
      itemId: string;
      userId: string;
      agent: boolean;
      externalId: string;
      kind: string;
      purpose: string;
      practice: boolean;
      answer: unknown;
      confidenceRaw: number;
      confidence: number;
      correct: boolean;
      score: unknown;
      wallMs: number;
      activeMs: number;
      startedAt: Date | null;
      submittedAt: Date | null;
      createdAt: Date;
      tags: unknown;
    }>
  >`
        SELECT r.id, a."itemId", a."userId", a.agent, i."externalId", i.kind, a.purpose::text AS purpose, (i.practice OR a.purpose = 'PRACTICE') AS practice,
               r.answer, r."confidenceRaw", r.confidence, r.correct, r.score, r."wallMs", r."activeMs", a."startedAt", a."submittedAt", r."createdAt", i.tags
        FROM "Assignment" a
        JOIN "Response" r ON r."assignmentId" = a.id
        JOIN "Item" i ON i.id = a."itemId"
        WHERE a."studyId" = ${studyId} AND (a."itemId", a."userId") > (${after.itemId}, ${after.userId}) ${itemFilterSql(filter)}
        ORDER BY a."itemId", a."userId" LIMIT ${limit}`;
}

/**
 * The next `limit` (filtered) responses after (item, user) `after` as CSV records built in the
 * database (the same bytes as csvRow over the records of readResponsesPage, with the score_<key>
 * columns of `scores` and the tag_<key> columns of `tags`), their count and the last key.
 */
export async function readResponsesCsvPage(
  studyId: string,
  filter: ExportFilter,
  scores: string[],
  tags: string[],
  after: { itemId: string; userId: string },
  limit: number,
) {
  const line = csvLine([
    csvText(Prisma.sql`r.id`),
    csvText(Prisma.sql`i."externalId"`),
    csvText(Prisma.sql`i.kind`),
    pseudonymousIdSql(studyId, Prisma.sql`a."userId"`),
    csvBoolean(Prisma.sql`a.agent`),
    csvText(Prisma.sql`a.purpose`),
    csvBoolean(Prisma.sql`i.practice OR a.purpose = 'PRACTICE'`),
    csvJson(Prisma.sql`r.answer`),
    csvNumber(Prisma.sql`r."confidenceRaw"`),
    csvNumber(Prisma.sql`r.confidence`),
    csvBoolean(Prisma.sql`r.correct`),
    ...scores.map((k) => csvJsonField(Prisma.sql`r.score`, k)),
    csvJson(Prisma.sql`r.score`),
    csvInteger(Prisma.sql`r."wallMs"`),
    csvInteger(Prisma.sql`r."activeMs"`),
    csvTime(Prisma.sql`a."startedAt"`),
    csvTime(Prisma.sql`a."submittedAt"`),
    csvTime(Prisma.sql`r."createdAt"`),
    ...tags.map((k) => csvJsonField(Prisma.sql`i.tags`, k)),
  ]);
  const [row] = await readDb.$queryRaw<Array<{ csv: string | null; n: number; itemId: string | null; userId: string | null }>>`
        SELECT string_agg(p.line, '' ORDER BY p."itemId", p."userId") AS csv, count(*)::int AS n,
          (array_agg(p."itemId" ORDER BY p."itemId" DESC, p."userId" DESC))[1] AS "itemId",
          (array_agg(p."userId" ORDER BY p."itemId" DESC, p."userId" DESC))[1] AS "userId"
        FROM (
          SELECT a."itemId", a."userId", ${line} AS line
          FROM "Assignment" a
          JOIN "Response" r ON r."assignmentId" = a.id
          JOIN "Item" i ON i.id = a."itemId"
          WHERE a."studyId" = ${studyId} AND (a."itemId", a."userId") > (${after.itemId}, ${after.userId}) ${itemFilterSql(filter)}
          ORDER BY a."itemId", a."userId" LIMIT ${limit}
        ) p`;
  return { csv: row.csv, n: row.n, last: { itemId: row.itemId ?? "", userId: row.userId ?? "" } };
}

/** The (filtered) trajectory events of the study after (assignment, seq) `after`, by (assignment, seq). */
export async function readEventsPage(studyId: string, filter: ExportFilter, after: { assignmentId: string; seq: number }, limit: number) {
  return readDb.$queryRaw<
    Array<{
      id: bigint;
      assignmentId: string;
      seq: number;
      type: string;
      payload: unknown;
      clientTime: Date;
      serverTime: Date;
      userId: string;
      agent: boolean;
      purpose: string;
      externalId: string;
      kind: string;
    }>
  >`
        SELECT e.id, e."assignmentId", e.seq, e.type, e.payload, e."clientTime", e."serverTime", a."userId", a.agent, a.purpose::text AS purpose, i."externalId", i.kind
        FROM "Event" e
        JOIN "Assignment" a ON a.id = e."assignmentId"
        JOIN "Item" i ON i.id = a."itemId"
        WHERE a."studyId" = ${studyId} AND (e."assignmentId", e.seq) > (${after.assignmentId}, ${after.seq}) ${itemFilterSql(filter)}
        ORDER BY e."assignmentId", e.seq LIMIT ${limit}`;
}

/** The next `limit` (filtered) events after (assignment, seq) `after` as CSV records built in the database, their count and the last key. */
export async function readEventsCsvPage(studyId: string, filter: ExportFilter, after: { assignmentId: string; seq: number }, limit: number) {
  const line = csvLine([
    csvInteger(Prisma.sql`e.id`),
    csvText(Prisma.sql`i."externalId"`),
    csvText(Prisma.sql`i.kind`),
    pseudonymousIdSql(studyId, Prisma.sql`a."userId"`),
    csvBoolean(Prisma.sql`a.agent`),
    csvText(Prisma.sql`a.purpose`),
    csvText(Prisma.sql`e."assignmentId"`),
    csvInteger(Prisma.sql`e.seq`),
    csvText(Prisma.sql`e.type`),
    csvJson(Prisma.sql`e.payload`),
    csvTime(Prisma.sql`e."clientTime"`),
    csvTime(Prisma.sql`e."serverTime"`),
  ]);
  const [row] = await readDb.$queryRaw<Array<{ csv: string | null; n: number; assignmentId: string | null; seq: number | null }>>`
        SELECT string_agg(p.line, '' ORDER BY p."assignmentId", p.seq) AS csv, count(*)::int AS n,
          (array_agg(p."assignmentId" ORDER BY p."assignmentId" DESC, p.seq DESC))[1] AS "assignmentId",
          (array_agg(p.seq ORDER BY p."assignmentId" DESC, p.seq DESC))[1] AS seq
        FROM (
          SELECT e."assignmentId", e.seq, ${line} AS line
          FROM "Event" e
          JOIN "Assignment" a ON a.id = e."assignmentId"
          JOIN "Item" i ON i.id = a."itemId"
          WHERE a."studyId" = ${studyId} AND (e."assignmentId", e.seq) > (${after.assignmentId}, ${after.seq}) ${itemFilterSql(filter)}
          ORDER BY e."assignmentId", e.seq LIMIT ${limit}
        ) p`;
  return { csv: row.csv, n: row.n, last: { assignmentId: row.assignmentId ?? "", seq: row.seq ?? -1 } };
}

/** The (filtered) model predictions of the study after (run, item) `after`, by (run, item), with their run's name and time. */
export async function readPredictionsPage(studyId: string, filter: ExportFilter, after: { runId: string; itemId: string }, limit: number) {
  return readDb.$queryRaw<
    Array<{
      runId: string;
      itemId: string;
      name: string;
      createdAt: Date;
      externalId: string;
      kind: string;
      practice: boolean;
      answer: unknown;
      correct: boolean;
      score: unknown;
      tags: unknown;
    }>
  >`
        SELECT p."runId", p."itemId", m.name, m."createdAt", i."externalId", i.kind, i.practice, p.answer, p.correct, p.score, i.tags
        FROM "ModelPrediction" p JOIN "ModelRun" m ON m.id = p."runId" JOIN "Item" i ON i.id = p."itemId"
        WHERE m."studyId" = ${studyId} AND (p."runId", p."itemId") > (${after.runId}, ${after.itemId}) ${itemFilterSql(filter)}
        ORDER BY p."runId", p."itemId" LIMIT ${limit}`;
}

// --- annotators -------------------------------------------------------------------------------

/** Per user of the study: their (filtered) work by purpose, answers, correctness, confidence, median times, first and last answer. */
export async function countAnnotatorWork(studyId: string, filter: ExportFilter) {
  return readDb.$queryRaw<
    Array<{
      userId: string;
      mainAssigned: bigint;
      mainSubmitted: bigint;
      agreementAssigned: bigint;
      agreementSubmitted: bigint;
      practiceSubmitted: bigint;
      responses: bigint;
      correct: bigint;
      withoutCorrectness: bigint;
      meanConfidence: number | null;
      medianActive: number | null;
      medianWall: number | null;
      first: Date | null;
      last: Date | null;
    }>
  >`
        SELECT a."userId",
          count(*) FILTER (WHERE a.purpose = 'MAIN' AND NOT i.practice) AS "mainAssigned",
          count(r.id) FILTER (WHERE a.purpose = 'MAIN' AND NOT i.practice) AS "mainSubmitted",
          count(*) FILTER (WHERE a.purpose = 'AGREEMENT' AND NOT i.practice) AS "agreementAssigned",
          count(r.id) FILTER (WHERE a.purpose = 'AGREEMENT' AND NOT i.practice) AS "agreementSubmitted",
          count(r.id) FILTER (WHERE a.purpose = 'PRACTICE' OR i.practice) AS "practiceSubmitted",
          count(r.id) FILTER (WHERE a.purpose <> 'PRACTICE' AND NOT i.practice) AS responses,
          count(r.id) FILTER (WHERE a.purpose <> 'PRACTICE' AND NOT i.practice AND r.correct) AS correct,
          count(r.id) FILTER (WHERE a.purpose <> 'PRACTICE' AND NOT i.practice AND r.correct IS NULL) AS "withoutCorrectness",
          avg(r.confidence) FILTER (WHERE a.purpose <> 'PRACTICE' AND NOT i.practice) AS "meanConfidence",
          percentile_cont(0.5) WITHIN GROUP (ORDER BY r."activeMs") FILTER (WHERE r.id IS NOT NULL AND a.purpose <> 'PRACTICE' AND NOT i.practice) AS "medianActive",
          percentile_cont(0.5) WITHIN GROUP (ORDER BY r."wallMs") FILTER (WHERE r.id IS NOT NULL AND a.purpose <> 'PRACTICE' AND NOT i.practice) AS "medianWall",
          min(r."createdAt") AS first, max(r."createdAt") AS last
        FROM "Assignment" a
        JOIN "Item" i ON i.id = a."itemId"
        LEFT JOIN "Response" r ON r."assignmentId" = a.id
        WHERE a."studyId" = ${studyId} ${itemFilterSql(filter)}
        GROUP BY 1`;
}

/** Per user of the study: their (filtered) trajectory events, and how many of them are of the `focusLossTypes`. */
export async function countAnnotatorEvents(studyId: string, filter: ExportFilter, focusLossTypes: string[]) {
  return readDb.$queryRaw<Array<{ userId: string; events: bigint; losses: bigint }>>`
        SELECT a."userId", count(*) AS events, count(*) FILTER (WHERE e.type = ANY(${focusLossTypes})) AS losses
        FROM "Event" e JOIN "Assignment" a ON a.id = e."assignmentId" JOIN "Item" i ON i.id = a."itemId"
        WHERE a."studyId" = ${studyId} ${itemFilterSql(filter)}
        GROUP BY 1`;
}

export async function listMembersForExport(studyId: string) {
  return readDb.studyMember.findMany({
    where: { studyId },
    select: { userId: true, status: true, statusReason: true, consentedAt: true, consentVersion: true },
  });
}

/** These users by name, with what the annotators table shows of them (never an email). */
export async function listUsersForExport(userIds: string[]) {
  return readDb.user.findMany({
    where: { id: { in: userIds } },
    select: { id: true, name: true, isAgent: true, externalSource: true, externalId: true },
    orderBy: { name: "asc" },
  });
}

// --- benchmark submission files (read on the primary) -----------------------------------------

/** The study's non-practice items that carry a `source` tag, counted by kind and source. */
export async function countItemsBySource(studyId: string): Promise<Array<{ kind: string; source: string; n: bigint }>> {
  return db.$queryRaw<Array<{ kind: string; source: string; n: bigint }>>`
    SELECT kind, tags->>'source' AS source, count(*) AS n FROM "Item"
    WHERE "studyId" = ${studyId} AND NOT practice AND tags ? 'source'
    GROUP BY kind, tags->>'source'`;
}

/** The study's non-practice items of the kind whose `source` tag is `source`, by external id, each with every assignment's user and answer. */
export async function listItemsWithAnswers(studyId: string, kind: string, source: string) {
  return db.$queryRaw<
    Array<{ externalId: string; public: unknown; tags: Record<string, string | number | boolean> | null; userId: string | null; answer: unknown }>
  >`
    SELECT i."externalId", i.public, i.tags, a."userId", r.answer
    FROM "Item" i
    LEFT JOIN "Assignment" a ON a."itemId" = i.id
    LEFT JOIN "Response" r ON r."assignmentId" = a.id
    WHERE i."studyId" = ${studyId} AND i.kind = ${kind} AND NOT i.practice AND i.tags->>'source' = ${source}
    ORDER BY i."externalId"`;
}
