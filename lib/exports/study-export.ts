import "server-only";
import { createHash } from "node:crypto";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import { FOCUS_LOSS_EVENT_TYPES, STREAM_BATCH_SIZE } from "@/lib/dashboard/constants";
import { csvRow } from "@/lib/exports/csv";
import { copyCsvReader, copyRowWriter, type CopyColumn, type CopyCsvReader } from "@/lib/exports/copy-csv";
import { EXPORT_CONTENT_TYPES, exportFileName, type ExportFilter, type ExportFormat, type ExportWhat } from "@/lib/exports/filter";
import {
  copyEvents,
  copyResponses,
  countAnnotatorEvents,
  countAnnotatorWork,
  exportCopyAvailable,
  findStudyForExport,
  listMembersForExport,
  listScoreKeys,
  listTagKeys,
  listUsersForExport,
  readEventsCsvPage,
  readEventsPage,
  readItemsPage,
  readPredictionsPage,
  readResponsesCsvPage,
  readResponsesPage,
  type CopyRows,
} from "@/lib/repos/exports";

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
   * the large tables: their raw columns streamed by one COPY (`open`, lib/repos/exports.ts) and
   * written as CSV in Node by `columns`, one a column of the COPY in its order (lib/exports/copy-csv.ts)
   */
  copy?: { open: () => CopyRows; columns: CopyColumn[] };
}

/** Rows in the first page of a CSV built in the database: small, so that the download starts at once. */
const FIRST_CSV_PAGE = 500;

/**
 * Keyset pages of CSV text built in the database: `page(after, limit)` returns the page's text,
 * its row count and the last row's key; the pages grow from FIRST_CSV_PAGE to STREAM_BATCH_SIZE.
 */
function csvPages<K>(
  start: K,
  page: (after: K, limit: number) => Promise<{ csv: string | null; n: number; last: K }>,
): () => Promise<{ text: string; rows: number }> {
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
      const rows = await readItemsPage(studyId, filter, after, STREAM_BATCH_SIZE);
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

function responsesSource(studyId: string, filter: ExportFilter, tags: string[], scores: string[]): Source {
  let afterItem = "";
  let afterUser = "";
  let done = false;
  return {
    columns: [
      "response_id",
      "item_id",
      "kind",
      "annotator",
      "agent",
      "purpose",
      "practice",
      "answer",
      "confidence_raw",
      "confidence",
      "correct",
      ...scores.map((k) => `score_${k}`),
      "score",
      "wall_ms",
      "active_ms",
      "started_at",
      "submitted_at",
      "created_at",
      ...tags.map((k) => `tag_${k}`),
    ],
    async next() {
      if (done) return [];
      const rows = await readResponsesPage(studyId, filter, { itemId: afterItem, userId: afterUser }, STREAM_BATCH_SIZE);
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
      open: () => copyResponses(studyId, filter),
      columns: [
        { type: "text" },
        { type: "text" },
        { type: "text" },
        { type: "map", map: pseudonymsOf(studyId) },
        { type: "boolean" },
        { type: "text" },
        { type: "boolean" },
        { type: "json" },
        { type: "number" },
        { type: "number" },
        { type: "boolean" },
        { type: "json", fields: scores },
        { type: "integer" },
        { type: "integer" },
        { type: "iso" },
        { type: "iso" },
        { type: "iso" },
        { type: "json", fields: tags, own: false },
      ],
    },
    nextCsv: csvPages({ itemId: "", userId: "" }, (after, limit) => readResponsesCsvPage(studyId, filter, scores, tags, after, limit)),
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
      const rows = await readEventsPage(studyId, filter, { assignmentId: afterAssignment, seq: afterSeq }, STREAM_BATCH_SIZE);
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
      open: () => copyEvents(studyId, filter),
      columns: [
        { type: "integer" },
        { type: "text" },
        { type: "text" },
        { type: "map", map: pseudonymsOf(studyId) },
        { type: "boolean" },
        { type: "text" },
        { type: "text" },
        { type: "integer" },
        { type: "text" },
        { type: "json" },
        { type: "iso" },
        { type: "iso" },
      ],
    },
    nextCsv: csvPages({ assignmentId: "", seq: -1 }, (after, limit) => readEventsCsvPage(studyId, filter, after, limit)),
  };
}

function annotatorsSource(studyId: string, filter: ExportFilter, externalIdOf: (externalId: string | null) => string | null): Source {
  // link participants are named after their external id ("Prolific <id>"): the name follows the id
  const nameOf = (name: string, externalId: string | null) =>
    externalId && name.includes(externalId) ? name.replaceAll(externalId, externalIdOf(externalId) ?? "") : name;
  let done = false;
  return {
    columns: [
      "annotator",
      "agent",
      "name",
      "member",
      "main_assigned",
      "main_submitted",
      "agreement_assigned",
      "agreement_submitted",
      "practice_submitted",
      "responses",
      "correct",
      "without_correctness",
      "mean_confidence",
      "median_active_ms",
      "median_wall_ms",
      "events",
      "focus_losses",
      "first_response_at",
      "last_response_at",
      "external_source",
      "external_id",
      "participant_status",
      "status_reason",
      "consented_at",
      "consent_version",
    ],
    async next() {
      if (done) return [];
      done = true;
      const counts = await countAnnotatorWork(studyId, filter);
      const events = await countAnnotatorEvents(studyId, filter, FOCUS_LOSS_EVENT_TYPES as string[]);
      const members = await listMembersForExport(studyId);
      const memberIds = new Set(members.map((m) => m.userId));
      const memberOf = new Map(members.map((m) => [m.userId, m]));
      const byUser = new Map(counts.map((c) => [c.userId, c]));
      const eventsByUser = new Map(events.map((e) => [e.userId, e]));
      const userIds = new Set([...byUser.keys(), ...(filter.kind || filter.tag ? [] : memberIds)]);
      const users = await listUsersForExport([...userIds]);
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
    columns: [
      "model",
      "run_id",
      "item_id",
      "kind",
      "practice",
      "answer",
      "correct",
      ...scores.map((k) => `score_${k}`),
      "score",
      "imported_at",
      ...tags.map((k) => `tag_${k}`),
    ],
    async next() {
      if (done) return [];
      const rows = await readPredictionsPage(studyId, filter, { runId: afterRun, itemId: afterItem }, STREAM_BATCH_SIZE);
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
      return itemsSource(studyId, filter, await listTagKeys(studyId, filter));
    case "responses":
      return responsesSource(studyId, filter, await listTagKeys(studyId, filter), await listScoreKeys(studyId, filter, "responses"));
    case "events":
      return eventsSource(studyId, filter);
    case "annotators":
      return annotatorsSource(studyId, filter, externalIdOf);
    case "predictions":
      return predictionsSource(studyId, filter, await listTagKeys(studyId, filter), await listScoreKeys(studyId, filter, "predictions"));
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
export async function createStudyExport(
  studySlug: string,
  what: ExportWhat,
  format: ExportFormat,
  filter: ExportFilter = {},
  options: ExportOptions = {},
): Promise<StudyExport> {
  const study = await findStudyForExport(studySlug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${studySlug}"`);
  const pseudonymise = options.externalIds === "pseudonymised";
  const externalIdOf = (externalId: string | null) =>
    externalId === null ? null : pseudonymise ? pseudonymisedExternalId(study.pseudonymSalt, externalId) : externalId;
  // the columns (tag and score keys) are looked up while the response's headers go out: the
  // download starts at once, and its first bytes follow when the header row is known
  const sourceReady = sourceFor(study.id, what, filter, externalIdOf);
  sourceReady.catch(() => undefined); // awaited (and its error reported) in pull
  if (options.actorId !== undefined) {
    await recordAudit(options.actorId, "study.export", `study:${study.id}`, {
      slug: study.slug,
      what,
      format,
      kind: filter.kind ?? null,
      tag: filter.tag ?? null,
      externalIds: pseudonymise ? "pseudonymised" : "raw",
    });
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
        if (format === "csv" && source.copy && csvFrom === "copy" && (copy || (await exportCopyAvailable()))) {
          copy ??= copyCsvReader(source.copy.open(), copyRowWriter(source.copy.columns));
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
