import { ZodError } from "zod";
import { isDbSaturation, SATURATION_RETRY_AFTER_SECONDS } from "@/lib/db/transient";
import { databaseFailureOf, isUnstorableTextError, type DatabaseFailure } from "@/lib/db/errors";

export type AppErrorCode = "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "INVALID" | "CONFLICT" | "TOO_LARGE" | "RATE_LIMITED" | "UNAVAILABLE";

const statusByCode: Record<AppErrorCode, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  INVALID: 422,
  CONFLICT: 409,
  TOO_LARGE: 413,
  /** too many attempts in a window: details.retryAfterSeconds becomes the Retry-After header */
  RATE_LIMITED: 429,
  /** a service the request needs is down for now (a remote simulator, the database): retry later */
  UNAVAILABLE: 503,
};

/** An error that lib/ code throws for the route layer to map to an HTTP status. */
export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** The whole seconds a refused client should wait, when the error says (details.retryAfterSeconds). */
export function retryAfterOf(error: AppError): number | null {
  const seconds = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : null;
}

/** Most zod issues a reply lists (with `issueCount` when there were more), and the longest path and message of each. */
export const MAX_REPORTED_ISSUES = 20;
const MAX_ISSUE_TEXT = 300;

function cut(text: string): string {
  return text.length > MAX_ISSUE_TEXT ? `${text.slice(0, MAX_ISSUE_TEXT - 1)}…` : text;
}

/** One place that turns thrown errors into JSON responses. */
export function toResponse(error: unknown): Response {
  if (error instanceof ZodError) {
    // an unknown-keys issue names every key: the reply stays small whatever the input
    const issues = error.issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => ({ path: cut(issue.path.join(".")), message: cut(issue.message) }));
    return Response.json(
      { error: "Invalid request", issues, ...(error.issues.length > issues.length ? { issueCount: error.issues.length } : {}) },
      { status: 422 },
    );
  }
  if (error instanceof AppError) {
    const retryAfterSeconds = retryAfterOf(error);
    return Response.json(
      { error: error.message, code: error.code, details: error.details ?? undefined },
      { status: statusByCode[error.code], headers: retryAfterSeconds ? { "retry-after": String(retryAfterSeconds) } : {} },
    );
  }
  const failure = databaseFailureOf(error);
  if (failure) {
    console.error(`database failure (${failure}):`, error instanceof Error ? error.message.split("\n").filter(Boolean).pop() : error);
    const { status, message, retryAfterSeconds } = databaseFailureResponses[failure];
    return Response.json(
      { error: message, code: failure === "disk-full" ? "STORAGE_FULL" : "UNAVAILABLE" },
      { status, headers: retryAfterSeconds ? { "retry-after": String(retryAfterSeconds) } : {} },
    );
  }
  if (isUnstorableTextError(error)) {
    return Response.json(
      { error: "The request holds text that cannot be stored (a NUL character or an unpaired surrogate); nothing was written.", code: "INVALID" },
      { status: 422 },
    );
  }
  if (isDbSaturation(error)) {
    // no connection or transaction slot in time (lib/db/transient.ts): the client retries
    console.error(`database saturated (503): ${error instanceof Error ? error.message.split("\n").filter(Boolean).pop() : String(error)}`);
    return Response.json(
      { error: "The server is busy; nothing was written. Try again in a moment (retrying is safe).", code: "UNAVAILABLE" },
      { status: 503, headers: { "retry-after": String(SATURATION_RETRY_AFTER_SECONDS) } },
    );
  }
  console.error(error);
  return Response.json({ error: "Internal server error" }, { status: 500 });
}

/** What a request that met a database failure (lib/db/errors.ts) gets: never a stack trace, a retry hint where waiting helps. */
const databaseFailureResponses: Record<DatabaseFailure, { status: number; message: string; retryAfterSeconds?: number }> = {
  unavailable: { status: 503, message: "The database cannot be reached right now; try again in a few seconds (retrying is safe).", retryAfterSeconds: 5 },
  "read-only": { status: 503, message: "The database takes no changes right now (read-only); nothing was written. Try again later.", retryAfterSeconds: 30 },
  conflict: { status: 503, message: "The request collided with another one and was rolled back; try again (retrying is safe).", retryAfterSeconds: 1 },
  "disk-full": { status: 507, message: "The database server is out of disk space; nothing was written. Ask an administrator to free space, then try again." },
};
