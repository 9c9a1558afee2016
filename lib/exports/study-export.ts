import "server-only";
import { createHash } from "node:crypto";
import { escapeLiteral } from "pg";
import { readDb, readPool } from "@/lib/db/read";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { FOCUS_LOSS_EVENT_TYPES, STREAM_BATCH_SIZE } from "@/lib/dashboard/constants";
import { csvRow } from "@/lib/exports/csv";
import { copySupported } from "@/lib/db/copy";
import { copyCsvReader, copyRowWriter, type CopyColumn, type CopyCsvReader } from "@/lib/exports/copy-csv";
import { csvBoolean, csvInteger, csvJson, csvJsonField, csvLine, csvNumber, csvText, csvTime, pseudonymousIdSql } from "@/lib/exports/sql-csv";
import { EXPORT_CONTENT_TYPES, exportFileName, type ExportFilter, type ExportFormat, type ExportWhat } from "@/lib/exports/filter";

/**
 * Study exports as streams: items, responses, events (trajectories), annotators and model
 * predictions, as CSV or JSONL, for a whole study or a kind / tag filter. The CSV of responses and
 * events is one COPY of the raw columns written as CSV in Node (lib/exports/copy-csv.ts); the rest
 * (and, on PGlite, those CSV too) is read in keyset-paginated batches (STREAM_BATCH_SIZE rows a
 * query, in index order). Either way it is written as it arrives: nothing holds a whole table in
 * memory. Columns: docs/exports.md.
 *
 * Annotators appear under a pseudonymous id (a hash of study and user, stable within the study,
 * different across studies); the annotators table adds names, never emails. The items table
 * includes the answer key: exports are for researchers and admins only (the route checks).
 */

/**
 * An external (recruitment-platform) id as exported on request: the first 16 hex digits of
 * sha256(pseudonymSalt + externalId), with the study's own salt (Study.pseudonymSalt), so that the
 * same participant has the same pseudonym in every export of the study and of its versions, and
 * the id cannot be looked up without the salt.
 */
export function pseudonymisedExternalId(salt: string, externalId: string): string {
  return createHash("sha256").update(`${salt}${externalId}`).digest("hex").slice(0, 16);
}

export interface ExportOptions {
  /** "pseudonymised": external ids as pseudonymisedExternalId; default as stored */
  externalIds?: "raw" | "pseudonymised";
  /**
   * how the CSV of the large tables (responses, events) is made: "copy" (default: one COPY of the
   * raw columns, written as CSV in Node; lib/exports/copy-csv.ts), "database" (keyset pages of
   * whole lines built in SQL; also where COPY is not available) or "records" (csvRow over the
   * records the JSONL export reads). The tests and the bench compare them byte for byte.
   */
  csvFrom?: "copy" | "database" | "records";
  /** who asked (the audit entry); omitted by scripts, the bench and the export jobs (audited when started) */
  actorId?: string | null;
  /** told the number of records (rows after the header) in each piece of the stream as it is read */
  onRows?: (rows: number) => void;
}

/** "ann_" + 12 hex digits of sha256(studyId:userId): the same annotator gets the same id in every export of a study. */
export function pseudonymousId(studyId: string, userId: string): string {
  return `ann_${createHash("sha256").update(`${studyId}:${userId}`).digest("hex").slice(0, 12)}`;
}

interface Source {
  columns: string[];
  /** next batch of records (column -> value), or [] when done */
  next(): Promise<Array<Record<string, unknown>>>;
  /**
   * the large tables: the next page of CSV records built in the database (the same bytes as
   * csvRow over next()'s records) and how many records it holds; "" when done
   */
  nextCsv?(): Promise<{ text: string; rows: number }>;
  /**
   * the large tables: one SELECT of raw columns (its values inlined as literals: COPY takes no
   * parameters) streamed by COPY and written as CSV in Node (lib/exports/copy-csv.ts)
   */
  copy?: { select: string; columns: CopyColumn[] };
}

/** Rows in the first page of a CSV built in the database: small, so that the download starts at once. */
const FIRST_CSV_PAGE = 500;

/**
 * Keyset pages of CSV text built in the database: `page(after, limit)` returns the page's text,
 * its row count and the last row's key; the pages grow from FIRST_CSV_PAGE to STREAM_BATCH_SIZE.
 */
function csvPages<K>(start: K, page: (after: K, limit: number) => Promise<{ csv: string | null; n: number; last: K }>): () => Promise<{ text: string; rows: number }> {
  let after = start;
  let limit = FIRST_CSV_PAGE;
  let done = false;
  return async () => {
    if (done) return { text: "", rows: 0 };
    const result = await page(after, limit);
    if (result.n < limit) done = true;
    if (result.n > 0) after = result.last;
    limit = Math.min(STREAM_BATCH_SIZE, limit * 4);
    return { text: result.csv ?? "", rows: result.n };
  };
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

/** pseudonymousId of one study, memoised by user (a table names few annotators, many times each) */
function pseudonymsOf(studyId: string): (userId: string) => string {
  const known = new Map<string, string>();
  return (userId) => {
    let id = known.get(userId);
    if (id === undefined) {
      id = pseudonymousId(studyId, userId);
      known.set(userId, id);
    }
    return id;
  };
}

/** a timestamp(3) column as Date.toISOString writes it (the CSV of the records writes the Date so) */
const isoSql = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

async function tagKeys(studyId: string, filter: ExportFilter): Promise<string[]> {
  const rows = await readDb.$queryRaw<Array<{ key: string }>>`
    SELECT DISTINCT jsonb_object_keys(i.tags) AS key FROM "Item" i
    WHERE i."studyId" = ${studyId} AND jsonb_typeof(i.tags) = 'object' ${itemFilterSql(filter)}`;
  return rows.map((r) => r.key).sort();
}

function flattenTags(tags: unknown, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // only an object has named tags (an array's indices are no tag names), as the header's keys and the other paths read them
  const record = tags && typeof tags === "object" && !Array.isArray(tags) ? (tags as Record<string, unknown>) : {};
  for (const key of keys) out[`tag_${key}`] = record[key] ?? null;
  return out;
}

function flattenScore(score: unknown, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const record = score && typeof score === "object" && !Array.isArray(score) ? (score as Record<string, unknown>) : {};
  for (const key of keys) out[`score_${key}`] = record[key] ?? null;
  return out;
}

function itemsSource(studyId: string, filter: ExportFilter, tags: string[]): Source {
  let after = "";
  let done = false;
  return {
    columns: ["item_id", "kind", "practice", "gold", "batch_file", "created_at", ...tags.map((k) => `tag_${k}`), "tags", "public", "key"],
    async next() {
      if (done) return [];
      const rows = await readDb.$queryRaw<Array<{ id: string; externalId: string; kind: string; practice: boolean; gold: boolean; fileName: string; createdAt: Date; tags: unknown; public: unknown; key: unknown }>>`
        SELECT i.id, i."externalId", i.kind, i.practice, i.gold, b."fileName", i."createdAt", i.tags, i.public, i.key
        FROM "Item" i JOIN "Batch" b ON b.id = i."batchId"
        WHERE i."studyId" = ${studyId} AND i.id > ${after} ${itemFilterSql(filter)}
        ORDER BY i.id LIMIT ${STREAM_BATCH_SIZE}`;
      if (rows.length < STREAM_BATCH_SIZE) done = true;
      if (rows.length > 0) after = rows[rows.length - 1].id;
      return rows.map((r) => ({
        item_id: r.externalId,
        kind: r.kind,
        practice: r.practice,
        gold: r.gold,
        batch_file: r.fileName,
        created_at: r.createdAt,
        ...flattenTags(r.tags, tags),
        tags: r.tags,
        public: r.public,
        key: r.key,
      }));
    },
  };
}

/**
 * The keys of the score objects of the (filtered) responses or predictions, sorted: the score_<key>
 * columns. For responses, the candidates are the keys recorded for the study's kinds in
 * "ResponseScoreKey" (kept by triggers as responses are stored), each kept when some response
 * of the filter still holds it: a key that occurs is found at its first response, so the header
 * is known in milliseconds instead of after a pass over every score (issue 21: the download's
 * first byte). The keys are the same as DISTINCT jsonb_object_keys over all the scores: every key
 * stored is recorded (the triggers see every insert and update), and a recorded key is kept only
 * if it occurs.
 */
async function scoreKeys(studyId: string, filter: ExportFilter, table: "responses" | "predictions"): Promise<string[]> {
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

function responsesSource(studyId: string, filter: ExportFilter, tags: string[], scores: string[]): Source {
  let afterItem = "";
  let afterUser = "";
  let done = false;
  return {
    columns: [
      "response_id", "item_id", "kind", "annotator", "agent", "purpose", "practice", "answer", "confidence_raw", "confidence", "correct",
      ...scores.map((k) => `score_${k}`), "score", "wall_ms", "active_ms", "started_at", "submitted_at", "created_at", ...tags.map((k) => `tag_${k}`),
    ],
    async next() {
      if (done) return [];
      const rows = await readDb.$queryRaw<Array<{
        id: string; itemId: string; userId: string; agent: boolean; externalId: string; kind: string; purpose: string; practice: boolean; answer: unknown;
        confidenceRaw: number; confidence: number; correct: boolean; score: unknown; wallMs: number; activeMs: number;
        startedAt: Date | null; submittedAt: Date | null; createdAt: Date; tags: unknown;
      }>>`
        SELECT r.id, a."itemId", a."userId", a.agent, i."externalId", i.kind, a.purpose::text AS purpose, (i.practice OR a.purpose = 'PRACTICE') AS practice,
               r.answer, r."confidenceRaw", r.confidence, r.correct, r.score, r."wallMs", r."activeMs", a."startedAt", a."submittedAt", r."createdAt", i.tags
        FROM "Assignment" a
        JOIN "Response" r ON r."assignmentId" = a.id
        JOIN "Item" i ON i.id = a."itemId"
        WHERE a."studyId" = ${studyId} AND (a."itemId", a."userId") > (${afterItem}, ${afterUser}) ${itemFilterSql(filter)}
        ORDER BY a."itemId", a."userId" LIMIT ${STREAM_BATCH_SIZE}`;
      if (rows.length < STREAM_BATCH_SIZE) done = true;
      if (rows.length > 0) {
        afterItem = rows[rows.length - 1].itemId;
        afterUser = rows[rows.length - 1].userId;
      }
      return rows.map((r) => ({
        response_id: r.id,
        item_id: r.externalId,
        kind: r.kind,
        annotator: pseudonymousId(studyId, r.userId),
        agent: r.agent,
        purpose: r.purpose,
        practice: r.practice,
        answer: r.answer,
        confidence_raw: r.confidenceRaw,
        confidence: r.confidence,
        correct: r.correct,
        ...flattenScore(r.score, scores),
        score: r.score,
        wall_ms: r.wallMs,
        active_ms: r.activeMs,
        started_at: r.startedAt,
        submitted_at: r.submittedAt,
        created_at: r.createdAt,
        ...flattenTags(r.tags, tags),
      }));
    },
    copy: {
      select: `SELECT r.id, i."externalId", i.kind, a."userId", a.agent, a.purpose, (i.practice OR a.purpose = 'PRACTICE'), r.answer, r."confidenceRaw", r.confidence, r.correct,
          r.score, r."wallMs", r."activeMs", ${isoSql('a."startedAt"')}, ${isoSql('a."submittedAt"')}, ${isoSql('r."createdAt"')}, i.tags
        FROM "Assignment" a
        JOIN "Response" r ON r."assignmentId" = a.id
        JOIN "Item" i ON i.id = a."itemId"
        WHERE a."studyId" = ${escapeLiteral(studyId)} ${itemFilterText(filter)}
        ORDER BY a."itemId", a."userId"`,
      columns: [
        { type: "text" }, { type: "text" }, { type: "text" }, { type: "map", map: pseudonymsOf(studyId) }, { type: "boolean" }, { type: "text" }, { type: "boolean" },
        { type: "json" }, { type: "number" }, { type: "number" }, { type: "boolean" }, { type: "json", fields: scores },
        { type: "integer" }, { type: "integer" }, { type: "iso" }, { type: "iso" }, { type: "iso" }, { type: "json", fields: tags, own: false },
      ],
    },
    nextCsv: csvPages({ itemId: "", userId: "" }, async (after, limit) => {
      const line = csvLine([
        csvText(Prisma.sql`r.id`), csvText(Prisma.sql`i."externalId"`), csvText(Prisma.sql`i.kind`), pseudonymousIdSql(studyId, Prisma.sql`a."userId"`), csvBoolean(Prisma.sql`a.agent`),
        csvText(Prisma.sql`a.purpose`), csvBoolean(Prisma.sql`i.practice OR a.purpose = 'PRACTICE'`), csvJson(Prisma.sql`r.answer`),
        csvNumber(Prisma.sql`r."confidenceRaw"`), csvNumber(Prisma.sql`r.confidence`), csvBoolean(Prisma.sql`r.correct`),
        ...scores.map((k) => csvJsonField(Prisma.sql`r.score`, k)), csvJson(Prisma.sql`r.score`),
        csvInteger(Prisma.sql`r."wallMs"`), csvInteger(Prisma.sql`r."activeMs"`), csvTime(Prisma.sql`a."startedAt"`), csvTime(Prisma.sql`a."submittedAt"`), csvTime(Prisma.sql`r."createdAt"`),
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
    }),
  };
}

function eventsSource(studyId: string, filter: ExportFilter): Source {
  let afterAssignment = "";
  let afterSeq = -1;
  let done = false;
  return {
    columns: ["event_id", "item_id", "kind", "annotator", "agent", "purpose", "assignment_id", "seq", "type", "payload", "client_time", "server_time"],
    async next() {
      if (done) return [];
      const rows = await readDb.$queryRaw<Array<{ id: bigint; assignmentId: string; seq: number; type: string; payload: unknown; clientTime: Date; serverTime: Date; userId: string; agent: boolean; purpose: string; externalId: string; kind: string }>>`
        SELECT e.id, e."assignmentId", e.seq, e.type, e.payload, e."clientTime", e."serverTime", a."userId", a.agent, a.purpose::text AS purpose, i."externalId", i.kind
        FROM "Event" e
        JOIN "Assignment" a ON a.id = e."assignmentId"
        JOIN "Item" i ON i.id = a."itemId"
        WHERE a."studyId" = ${studyId} AND (e."assignmentId", e.seq) > (${afterAssignment}, ${afterSeq}) ${itemFilterSql(filter)}
        ORDER BY e."assignmentId", e.seq LIMIT ${STREAM_BATCH_SIZE}`;
      if (rows.length < STREAM_BATCH_SIZE) done = true;
      if (rows.length > 0) {
        afterAssignment = rows[rows.length - 1].assignmentId;
        afterSeq = rows[rows.length - 1].seq;
      }
      return rows.map((r) => ({
        event_id: r.id.toString(),
        item_id: r.externalId,
        kind: r.kind,
        annotator: pseudonymousId(studyId, r.userId),
        agent: r.agent,
        purpose: r.purpose,
        assignment_id: r.assignmentId,
        seq: r.seq,
        type: r.type,
        payload: r.payload,
        client_time: r.clientTime,
        server_time: r.serverTime,
      }));
    },
    copy: {
      select: `SELECT e.id, i."externalId", i.kind, a."userId", a.agent, a.purpose, e."assignmentId", e.seq, e.type, e.payload, ${isoSql('e."clientTime"')}, ${isoSql('e."serverTime"')}
        FROM "Event" e
        JOIN "Assignment" a ON a.id = e."assignmentId"
        JOIN "Item" i ON i.id = a."itemId"
        WHERE a."studyId" = ${escapeLiteral(studyId)} ${itemFilterText(filter)}
        ORDER BY e."assignmentId", e.seq`,
      columns: [
        { type: "integer" }, { type: "text" }, { type: "text" }, { type: "map", map: pseudonymsOf(studyId) }, { type: "boolean" }, { type: "text" },
        { type: "text" }, { type: "integer" }, { type: "text" }, { type: "json" }, { type: "iso" }, { type: "iso" },
      ],
    },
    nextCsv: csvPages({ assignmentId: "", seq: -1 }, async (after, limit) => {
      const line = csvLine([
        csvInteger(Prisma.sql`e.id`), csvText(Prisma.sql`i."externalId"`), csvText(Prisma.sql`i.kind`), pseudonymousIdSql(studyId, Prisma.sql`a."userId"`), csvBoolean(Prisma.sql`a.agent`),
        csvText(Prisma.sql`a.purpose`), csvText(Prisma.sql`e."assignmentId"`), csvInteger(Prisma.sql`e.seq`), csvText(Prisma.sql`e.type`), csvJson(Prisma.sql`e.payload`),
        csvTime(Prisma.sql`e."clientTime"`), csvTime(Prisma.sql`e."serverTime"`),
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
    }),
  };
}

function annotatorsSource(studyId: string, filter: ExportFilter, externalIdOf: (externalId: string | null) => string | null): Source {
  // link participants are named after their external id ("Prolific <id>"): the name follows the id
  const nameOf = (name: string, externalId: string | null) => (externalId && name.includes(externalId) ? name.replaceAll(externalId, externalIdOf(externalId) ?? "") : name);
  let done = false;
  return {
    columns: [
      "annotator", "agent", "name", "member", "main_assigned", "main_submitted", "agreement_assigned", "agreement_submitted", "practice_submitted",
      "responses", "correct", "without_correctness", "mean_confidence", "median_active_ms", "median_wall_ms", "events", "focus_losses", "first_response_at", "last_response_at",
      "external_source", "external_id", "participant_status", "status_reason", "consented_at", "consent_version",
    ],
    async next() {
      if (done) return [];
      done = true;
      const counts = await readDb.$queryRaw<Array<{
        userId: string; mainAssigned: bigint; mainSubmitted: bigint; agreementAssigned: bigint; agreementSubmitted: bigint; practiceSubmitted: bigint;
        responses: bigint; correct: bigint; withoutCorrectness: bigint; meanConfidence: number | null; medianActive: number | null; medianWall: number | null; first: Date | null; last: Date | null;
      }>>`
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
      const events = await readDb.$queryRaw<Array<{ userId: string; events: bigint; losses: bigint }>>`
        SELECT a."userId", count(*) AS events, count(*) FILTER (WHERE e.type = ANY(${FOCUS_LOSS_EVENT_TYPES as string[]})) AS losses
        FROM "Event" e JOIN "Assignment" a ON a.id = e."assignmentId" JOIN "Item" i ON i.id = a."itemId"
        WHERE a."studyId" = ${studyId} ${itemFilterSql(filter)}
        GROUP BY 1`;
      const members = await readDb.studyMember.findMany({ where: { studyId }, select: { userId: true, status: true, statusReason: true, consentedAt: true, consentVersion: true } });
      const memberIds = new Set(members.map((m) => m.userId));
      const memberOf = new Map(members.map((m) => [m.userId, m]));
      const byUser = new Map(counts.map((c) => [c.userId, c]));
      const eventsByUser = new Map(events.map((e) => [e.userId, e]));
      const userIds = new Set([...byUser.keys(), ...(filter.kind || filter.tag ? [] : memberIds)]);
      const users = await readDb.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, name: true, isAgent: true, externalSource: true, externalId: true }, orderBy: { name: "asc" } });
      const num = (v: bigint | undefined) => Number(v ?? 0);
      return users.map((u) => {
        const c = byUser.get(u.id);
        const e = eventsByUser.get(u.id);
        return {
          annotator: pseudonymousId(studyId, u.id),
          agent: u.isAgent,
          name: nameOf(u.name, u.externalId),
          member: memberIds.has(u.id),
          main_assigned: num(c?.mainAssigned),
          main_submitted: num(c?.mainSubmitted),
          agreement_assigned: num(c?.agreementAssigned),
          agreement_submitted: num(c?.agreementSubmitted),
          practice_submitted: num(c?.practiceSubmitted),
          responses: num(c?.responses),
          correct: num(c?.correct),
          without_correctness: num(c?.withoutCorrectness),
          mean_confidence: c?.meanConfidence ?? null,
          median_active_ms: c?.medianActive ?? null,
          median_wall_ms: c?.medianWall ?? null,
          events: num(e?.events),
          focus_losses: num(e?.losses),
          first_response_at: c?.first ?? null,
          last_response_at: c?.last ?? null,
          external_source: u.externalSource,
          external_id: externalIdOf(u.externalId),
          participant_status: memberOf.get(u.id)?.status ?? null,
          status_reason: memberOf.get(u.id)?.statusReason ?? null,
          consented_at: memberOf.get(u.id)?.consentedAt ?? null,
          consent_version: memberOf.get(u.id)?.consentVersion ?? null,
        };
      });
    },
  };
}

function predictionsSource(studyId: string, filter: ExportFilter, tags: string[], scores: string[]): Source {
  let afterRun = "";
  let afterItem = "";
  let done = false;
  return {
    columns: ["model", "run_id", "item_id", "kind", "practice", "answer", "correct", ...scores.map((k) => `score_${k}`), "score", "imported_at", ...tags.map((k) => `tag_${k}`)],
    async next() {
      if (done) return [];
      const rows = await readDb.$queryRaw<Array<{ runId: string; itemId: string; name: string; createdAt: Date; externalId: string; kind: string; practice: boolean; answer: unknown; correct: boolean; score: unknown; tags: unknown }>>`
        SELECT p."runId", p."itemId", m.name, m."createdAt", i."externalId", i.kind, i.practice, p.answer, p.correct, p.score, i.tags
        FROM "ModelPrediction" p JOIN "ModelRun" m ON m.id = p."runId" JOIN "Item" i ON i.id = p."itemId"
        WHERE m."studyId" = ${studyId} AND (p."runId", p."itemId") > (${afterRun}, ${afterItem}) ${itemFilterSql(filter)}
        ORDER BY p."runId", p."itemId" LIMIT ${STREAM_BATCH_SIZE}`;
      if (rows.length < STREAM_BATCH_SIZE) done = true;
      if (rows.length > 0) {
        afterRun = rows[rows.length - 1].runId;
        afterItem = rows[rows.length - 1].itemId;
      }
      return rows.map((r) => ({
        model: r.name,
        run_id: r.runId,
        item_id: r.externalId,
        kind: r.kind,
        practice: r.practice,
        answer: r.answer,
        correct: r.correct,
        ...flattenScore(r.score, scores),
        score: r.score,
        imported_at: r.createdAt,
        ...flattenTags(r.tags, tags),
      }));
    },
  };
}

async function sourceFor(studyId: string, what: ExportWhat, filter: ExportFilter, externalIdOf: (externalId: string | null) => string | null): Promise<Source> {
  switch (what) {
    case "items":
      return itemsSource(studyId, filter, await tagKeys(studyId, filter));
    case "responses":
      return responsesSource(studyId, filter, await tagKeys(studyId, filter), await scoreKeys(studyId, filter, "responses"));
    case "events":
      return eventsSource(studyId, filter);
    case "annotators":
      return annotatorsSource(studyId, filter, externalIdOf);
    case "predictions":
      return predictionsSource(studyId, filter, await tagKeys(studyId, filter), await scoreKeys(studyId, filter, "predictions"));
  }
}

/** JSONL wants nested values as they are; BigInt is not JSON: write it as a string. */
function jsonLine(record: Record<string, unknown>, columns: string[]): string {
  const ordered: Record<string, unknown> = {};
  for (const column of columns) {
    if (column.startsWith("tag_") || column.startsWith("score_")) continue; // nested in tags/score already
    const value = record[column];
    ordered[column] = typeof value === "bigint" ? value.toString() : value;
  }
  return `${JSON.stringify(ordered)}\n`;
}

export interface StudyExport {
  stream: ReadableStream<Uint8Array>;
  fileName: string;
  contentType: string;
}

/** The export of one table of a study as a byte stream, with its file name and content type. */
export async function createStudyExport(studySlug: string, what: ExportWhat, format: ExportFormat, filter: ExportFilter = {}, options: ExportOptions = {}): Promise<StudyExport> {
  const study = await readDb.study.findUnique({ where: { slug: studySlug }, select: { id: true, slug: true, pseudonymSalt: true } });
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${studySlug}"`);
  const pseudonymise = options.externalIds === "pseudonymised";
  const externalIdOf = (externalId: string | null) => (externalId === null ? null : pseudonymise ? pseudonymisedExternalId(study.pseudonymSalt, externalId) : externalId);
  // the columns (tag and score keys) are looked up while the response's headers go out: the
  // download starts at once, and its first bytes follow when the header row is known
  const sourceReady = sourceFor(study.id, what, filter, externalIdOf);
  sourceReady.catch(() => undefined); // awaited (and its error reported) in pull
  if (options.actorId !== undefined) {
    await recordAudit(options.actorId, "study.export", `study:${study.id}`, { slug: study.slug, what, format, kind: filter.kind ?? null, tag: filter.tag ?? null, externalIds: pseudonymise ? "pseudonymised" : "raw" });
  }
  const encoder = new TextEncoder();
  let headerSent = format !== "csv";
  const csvFrom = options.csvFrom ?? "copy";
  let copy: CopyCsvReader | null = null;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const source = await sourceReady;
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(csvRow(source.columns)));
          return;
        }
        if (format === "csv" && source.copy && csvFrom === "copy" && (copy || (await copySupported(readPool())))) {
          copy ??= copyCsvReader(readPool(), source.copy.select, copyRowWriter(source.copy.columns));
          if (cancelled) copy.cancel();
          const { text, rows } = await copy.next();
          if (text === "") controller.close();
          else {
            options.onRows?.(rows);
            controller.enqueue(encoder.encode(text));
          }
          return;
        }
        if (format === "csv" && source.nextCsv && csvFrom !== "records") {
          const { text, rows } = await source.nextCsv();
          if (text === "") controller.close();
          else {
            options.onRows?.(rows);
            controller.enqueue(encoder.encode(text));
          }
          return;
        }
        const records = await source.next();
        if (records.length === 0) {
          controller.close();
          return;
        }
        options.onRows?.(records.length);
        const text = records.map((record) => (format === "csv" ? csvRow(source.columns.map((c) => record[c])) : jsonLine(record, source.columns))).join("");
        controller.enqueue(encoder.encode(text));
      } catch (error) {
        controller.error(error);
      }
    },
    cancel(reason) {
      // the download was cancelled (the client went away): a COPY under way stops with its connection
      cancelled = true;
      copy?.cancel(reason);
    },
  });
  return { stream, fileName: exportFileName(study.slug, what, format, filter), contentType: EXPORT_CONTENT_TYPES[format] };
}
