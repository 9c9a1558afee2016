/**
 * Saturation errors: the app has no database connection or transaction slot for a request in
 * time (a burst of load, every pool connection busy). Retrying a moment later works, so the
 * route layer answers them 503 with Retry-After (lib/errors.ts toResponse), like the database
 * failures of lib/db/errors.ts (server down, restarting, conflicts). Nothing was written: the
 * request never got a connection, or its transaction was rolled back.
 *
 * Duck-typed (no Prisma import), since lib/errors.ts is imported everywhere:
 * - Prisma P2028 "Transaction API error" (could not start a transaction within maxWait, or it
 *   expired), P2024 (timed out fetching a connection from the pool), P2034 (write conflict or
 *   deadlock), P2037 (too many connections): https://www.prisma.io/docs/orm/reference/error-reference
 * - pg-pool's "timeout exceeded when trying to connect" (connectionTimeoutMillis, lib/db.ts).
 */
const SATURATION_CODES = new Set(["P2024", "P2028", "P2034", "P2037", "SATURATED"]);

/** Thrown by the app itself when it refuses work it has no room for (lib/assignment next-item slots). */
export class DbSaturatedError extends Error {
  readonly code = "SATURATED";
  constructor(message: string) {
    super(message);
    this.name = "DbSaturatedError";
  }
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

/** Whether a thrown error means "the database had no room for this request right now". */
export function isDbSaturation(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== "object" || depth > 4) return false;
  const code = field(error, "code");
  if (typeof code === "string" && SATURATION_CODES.has(code)) return true;
  const message = field(error, "message");
  if (typeof message === "string" && /timeout exceeded when trying to connect|Unable to start a transaction in the given time/i.test(message)) return true;
  const cause = field(error, "cause");
  return cause !== error && isDbSaturation(cause, depth + 1);
}

/** Seconds a client should wait before retrying a request refused for saturation. */
export const SATURATION_RETRY_AFTER_SECONDS = 1;
