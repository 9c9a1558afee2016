import "server-only";
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";

/**
 * Reading `COPY (SELECT ...) TO STDOUT` in PostgreSQL's text format: one query, no paging, the rows
 * streamed as the server produces them. Used by the streamed CSV exports (lib/exports/copy-csv.ts)
 * and the dashboard's snapshot (lib/dashboard/snapshot.ts).
 */

/** PostgreSQL's COPY text format: a field's escapes (CopyAttributeOutText writes \b \f \n \r \t \v \\). */
export function unescapeCopy(text: string): string {
  if (text.indexOf("\\") < 0) return text;
  return text.replace(/\\(.)/g, (_, ch: string) => {
    switch (ch) {
      case "b":
        return "\b";
      case "f":
        return "\f";
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "t":
        return "\t";
      case "v":
        return "\v";
      default:
        return ch;
    }
  });
}

/** A NULL field in COPY's text format. */
export const COPY_NULL = "\\N";

export interface CopyLineReader {
  /** the next complete rows of the COPY, as raw tab-separated lines (at least one); null when it is done */
  next(): Promise<string[] | null>;
  /**
   * stops reading: destroys the stream. A COPY left half read leaves the connection mid-protocol:
   * its client must then be released with an error (destroyed), not given back to the pool.
   */
  destroy(): void;
}

/**
 * Runs `COPY (select) TO STDOUT` on `client` and reads it as the raw lines of PostgreSQL's text
 * format (fields separated by tabs, escaped as unescapeCopy undoes, NULL as COPY_NULL), as many as
 * each chunk received holds. The client stays the caller's.
 */
export function copyLineReader(client: pg.ClientBase, select: string): CopyLineReader {
  let stream: ReturnType<typeof copyTo> | null = null;
  let iterator: AsyncIterator<Buffer> | null = null;
  let rest: Buffer = Buffer.alloc(0);
  let ended = false;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  return {
    async next() {
      if (ended) return null;
      if (!iterator) {
        stream = client.query(copyTo(`COPY (${select}) TO STDOUT`));
        iterator = stream[Symbol.asyncIterator]();
      }
      for (;;) {
        const { value, done } = await iterator.next();
        if (done) {
          if (rest.length > 0) throw new Error("COPY ended inside a row");
          ended = true;
          return null;
        }
        const chunk = rest.length > 0 ? Buffer.concat([rest, value]) : value;
        const end = chunk.lastIndexOf(10); // "\n" never occurs inside a multi-byte UTF-8 character
        if (end < 0) {
          rest = chunk;
          continue;
        }
        rest = chunk.subarray(end + 1);
        return decoder.decode(chunk.subarray(0, end)).split("\n");
      }
    },
    destroy() {
      ended = true;
      stream?.destroy();
    },
  };
}

const copyChecked = new WeakMap<pg.Pool, Promise<boolean>>();

/**
 * Whether the pool's server streams COPY: PostgreSQL does; the embedded PGlite behind
 * pglite-socket (`npm run demo`) is asked once and told apart by its version string: it answers a statement
 * whole, so its exports and dashboard snapshots read keyset pages instead.
 */
export function copySupported(pool: pg.Pool): Promise<boolean> {
  let known = copyChecked.get(pool);
  if (!known) {
    known = pool.query<{ version: string }>("SELECT version()").then((r) => !/PGlite/i.test(r.rows[0]?.version ?? ""));
    known.catch(() => copyChecked.delete(pool));
    copyChecked.set(pool, known);
  }
  return known;
}
