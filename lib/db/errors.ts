/**
 * Database failures that are not the request's fault, recognised from what Prisma 7 with the pg
 * driver adapter throws (PrismaClientKnownRequestError with `code` P1001 "can't reach", or P20xx
 * with `meta.driverAdapterError.cause` carrying the adapter's `kind` and PostgreSQL's SQLSTATE),
 * plus pg's and Node's own connection errors. Structural checks only, so lib/errors.ts can use
 * this without loading Prisma.
 *
 * SQLSTATEs: PostgreSQL documentation, Appendix A "PostgreSQL Error Codes".
 */
export type DatabaseFailure =
  /** the server is down, restarting, or refusing connections: retry in a moment */
  | "unavailable"
  /** the storage is full (53100 disk_full) */
  | "disk-full"
  /** the database takes no writes (25006 read_only_sql_transaction: a standby, or read-only mode) */
  | "read-only"
  /** a serialization failure or deadlock: the transaction was rolled back, retrying it works */
  | "conflict";

const prismaUnavailable = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const adapterUnavailable = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections", "TlsConnectionError"]);
const nodeUnavailable = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

function sqlStateFailure(state: string): DatabaseFailure | null {
  // class 08 connection exception; 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now; 53300 too_many_connections
  if (state.startsWith("08") || state === "57P01" || state === "57P02" || state === "57P03" || state === "53300") return "unavailable";
  if (state === "53100") return "disk-full";
  if (state === "25006") return "read-only";
  if (state === "40001" || state === "40P01") return "conflict";
  return null;
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : null;
}

/** The kind of database failure behind `error`, or null when it is something else. */
export function databaseFailureOf(error: unknown, depth = 0): DatabaseFailure | null {
  const err = record(error);
  if (!err || depth > 4) return null;
  const code = typeof err.code === "string" ? err.code : "";
  if (prismaUnavailable.has(code) || nodeUnavailable.has(code)) return "unavailable";
  if (/^[0-9A-Z]{5}$/.test(code) && !code.startsWith("P")) {
    const byState = sqlStateFailure(code);
    if (byState) return byState;
  }
  const cause = adapterCause(err);
  if (cause) {
    if (typeof cause.kind === "string" && adapterUnavailable.has(cause.kind)) return "unavailable";
    if (cause.kind === "TransactionWriteConflict") return "conflict";
    const state = typeof cause.originalCode === "string" ? cause.originalCode : typeof cause.code === "string" ? cause.code : "";
    const byState = state ? sqlStateFailure(state) : null;
    if (byState) return byState;
  }
  // pg's own words when the socket goes away mid-query (they arrive wrapped as unknown request errors)
  const message = typeof err.message === "string" ? err.message : "";
  if (
    /Connection terminated unexpectedly|Connection terminated due to connection timeout|Client has encountered a connection error|terminating connection due to administrator command|the database system is (shutting down|starting up|in recovery mode)/.test(
      message,
    )
  ) {
    return "unavailable";
  }
  return databaseFailureOf(err.cause, depth + 1);
}

/** The driver adapter's own error under a Prisma error (or the adapter error itself): kind, code, originalCode. */
function adapterCause(err: Record<string, unknown>): Record<string, unknown> | null {
  return record(record(record(err.meta)?.driverAdapterError)?.cause) ?? (err.name === "DriverAdapterError" ? record(err.cause) : null);
}

/** What names one kind of refusal in each of the forms it arrives in: Prisma's code, the adapter's kind, PostgreSQL's SQLSTATE. */
interface Refusal {
  prismaCodes?: readonly string[];
  adapterKinds?: readonly string[];
  sqlStates: readonly string[];
}

/** Whether `error`, or an error it wraps (its cause chain, a few deep), is this refusal. */
function refusedAs(refusal: Refusal, error: unknown, depth = 0): boolean {
  const err = record(error);
  if (!err || depth > 4) return false;
  const cause = adapterCause(err);
  const codes = [err.code, cause?.originalCode, cause?.code];
  if (codes.some((code) => typeof code === "string" && (refusal.sqlStates.includes(code) || (refusal.prismaCodes?.includes(code) ?? false)))) return true;
  if (typeof cause?.kind === "string" && (refusal.adapterKinds?.includes(cause.kind) ?? false)) return true;
  return refusedAs(refusal, err.cause, depth + 1);
}

/**
 * PostgreSQL refused text it cannot store: 22021 character_not_in_repertoire (a NUL byte, "invalid
 * byte sequence for encoding UTF8: 0x00") or 22P05 untranslatable_character. The request's fault,
 * wherever the text came from (a path parameter, say): JSON bodies and batches are checked before
 * this (lib/validations/storable-text.ts), this catches what reaches a query another way.
 */
export function isUnstorableTextError(error: unknown): boolean {
  return refusedAs({ sqlStates: ["22021", "22P05"] }, error);
}

/**
 * A row referred to another that was gone: 23503 foreign_key_violation (Prisma's P2003, or a raw
 * statement's adapter error). In a statement that checked the other row first, it means that row
 * was deleted by a transaction that committed while the statement ran.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return refusedAs({ prismaCodes: ["P2003"], adapterKinds: ["ForeignKeyConstraintViolation"], sqlStates: ["23503"] }, error);
}

/** A unique key already taken: 23505 unique_violation (Prisma's P2002, or a raw statement's adapter error). */
export function isUniqueViolation(error: unknown): boolean {
  return refusedAs({ prismaCodes: ["P2002"], adapterKinds: ["UniqueConstraintViolation"], sqlStates: ["23505"] }, error);
}
