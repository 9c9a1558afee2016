import "server-only";
import { COPY_NULL, unescapeCopy } from "@/lib/db/copy";
import { csvField } from "@/lib/exports/csv";
import type { CopyRows } from "@/lib/repos/exports";

/**
 * The large CSV exports (responses, events) streamed by one `COPY (SELECT ...) TO STDOUT` of the
 * raw columns (PostgreSQL's text format), turned into CSV in Node by csvField itself, so that the
 * bytes are the CSV written from the records by construction. One query, no paging:
 * the server sends rows as it reads them and the first bytes leave at once; the socket is read
 * only as fast as the download takes the text (backpressure), and a download that is cancelled
 * destroys the connection, which ends the query.
 *
 * Why Node and not SQL: measured at 10,000 x 5 (bench/dashboard.ts), the CSV lines built by the
 * plpgsql writers of the migration 20261127144500_csv_functions cost about 18 us a row in the
 * database (1.1 s for 50,000 responses in one COPY), the raw columns 3.7 us (185 ms), and
 * csvField over the parsed columns 2-3.5 us a row in Node, which runs beside the server's work.
 */

/** How a column of the COPY's SELECT becomes its CSV field (or fields). */
export type CopyColumn =
  /** text or enum: csvField of the string */
  | { type: "text" }
  /** integer (int2/4/8): its digits, as csvField writes the number (or, for int8, the string of it) */
  | { type: "integer" }
  /** double precision: csvField(Number(text)) (the server writes the shortest round-trip digits) */
  | { type: "number" }
  /** boolean: true / false */
  | { type: "boolean" }
  /** a timestamp written by the SELECT as Date.toISOString does (to_char): as it is */
  | { type: "iso" }
  /**
   * jsonb: csvField of each `record[key] ?? null` of the parsed value for the keys in `fields`
   * (the flattened score_* / tag_* columns), then csvField of the value itself unless `own` is false
   */
  | { type: "json"; fields?: readonly string[]; own?: boolean }
  /** any text turned into the field by a function (e.g. a user id into its pseudonymous id), memoised by value */
  | { type: "map"; map: (text: string) => string };

const JSON_CACHE_SIZE = 4096;

/** record[key] ?? null of a parsed jsonb, as flattenScore / flattenTags do (null unless a plain object). */
function fieldOf(value: unknown, key: string): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  return (value as Record<string, unknown>)[key] ?? null;
}

/**
 * The function that writes one CSV record (with its CRLF) from the tab-separated text of one COPY
 * row. Each column keeps its last raw text and the fields it gave: the rows come in item order, so
 * an item's columns (id, kind, tags) repeat from row to row and are written once.
 */
export function copyRowWriter(columns: readonly CopyColumn[]): (line: string) => string {
  const lastRaw: Array<string | undefined> = columns.map(() => undefined);
  const lastOut: string[] = columns.map(() => "");
  // a json column with no fields and own: false writes nothing (not even its comma)
  const writes = columns.map((c) => !(c.type === "json" && c.own === false && (c.fields ?? []).length === 0));
  const write = (column: CopyColumn, raw: string): string => {
    const isNull = raw === COPY_NULL;
    switch (column.type) {
      case "text":
        return isNull ? "" : csvField(unescapeCopy(raw));
      case "integer":
      case "iso":
        return isNull ? "" : raw;
      case "number":
        return isNull ? "" : csvField(Number(raw));
      case "boolean":
        return isNull ? "" : raw === "t" ? "true" : "false";
      case "map":
        return isNull ? "" : csvField(column.map(unescapeCopy(raw)));
      case "json": {
        const value: unknown = isNull ? null : JSON.parse(unescapeCopy(raw));
        const fields = (column.fields ?? []).map((key) => csvField(fieldOf(value, key)));
        if (column.own !== false) fields.push(csvField(value));
        return fields.join(",");
      }
    }
  };
  // JSON values repeat (a kind's scores take few shapes, most payloads are {}): each json column
  // keeps the fields of up to JSON_CACHE_SIZE texts, emptied when full (a parse and a stringify
  // cost about ten times a lookup)
  const caches = columns.map((c) => (c.type === "json" ? new Map<string, string>() : null));
  const writeCached = (c: number, raw: string): string => {
    const cache = caches[c];
    if (!cache) return write(columns[c], raw);
    let out = cache.get(raw);
    if (out === undefined) {
      out = write(columns[c], raw);
      if (cache.size >= JSON_CACHE_SIZE) cache.clear();
      cache.set(raw, out);
    }
    return out;
  };
  // each written column's text with the comma before it (all but the first written), so that a
  // record is one concatenation per column; a column's raw text is compared in place and cut out
  // of the line only when it changed (an item's columns repeat over its answers)
  const firstWritten = writes.indexOf(true);
  const lead = columns.map((_, c) => (c === firstWritten ? "" : ","));
  return (line: string) => {
    let out = "";
    let start = 0;
    for (let c = 0; c < columns.length; c++) {
      let end = line.indexOf("\t", start);
      if (end < 0) end = line.length;
      if (c < columns.length - 1 ? end === line.length : end !== line.length)
        throw new Error(`COPY row with ${line.split("\t").length} fields where ${columns.length} were expected`);
      if (writes[c]) {
        const last = lastRaw[c];
        if (last === undefined || end - start !== last.length || !line.startsWith(last, start)) {
          const raw = line.slice(start, end);
          lastRaw[c] = raw;
          lastOut[c] = lead[c] + writeCached(c, raw);
        }
        out += lastOut[c];
      }
      start = end + 1;
    }
    return `${out}\r\n`;
  };
}

export interface CopyCsvReader {
  /** the next piece of CSV text and the number of records in it; "" when the COPY is done */
  next(): Promise<{ text: string; rows: number }>;
  /** ends the COPY early (the download was cancelled): the connection is destroyed, which stops the query */
  cancel(reason?: unknown): void;
}

/**
 * Reads the lines of a COPY (lib/repos/exports.ts copyResponses, copyEvents) as CSV records
 * written by `writeRow`. A line that cannot be written ends the COPY (its connection is
 * destroyed) before the error goes on.
 */
export function copyCsvReader(rows: CopyRows, writeRow: (line: string) => string): CopyCsvReader {
  return {
    async next() {
      const batch = await rows.next();
      if (!batch) return { text: "", rows: 0 };
      try {
        let text = "";
        for (const line of batch) text += writeRow(line);
        return { text, rows: batch.length };
      } catch (error) {
        rows.cancel(error);
        throw error;
      }
    },
    cancel(reason?: unknown) {
      rows.cancel(reason);
    },
  };
}
