import { ZodError } from "zod";

export type AppErrorCode = "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "INVALID" | "CONFLICT" | "TOO_LARGE";

const statusByCode: Record<AppErrorCode, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  INVALID: 422,
  CONFLICT: 409,
  TOO_LARGE: 413,
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

/** One place that turns thrown errors into JSON responses. */
export function toResponse(error: unknown): Response {
  if (error instanceof ZodError) {
    return Response.json(
      { error: "Invalid request", issues: error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })) },
      { status: 422 },
    );
  }
  if (error instanceof AppError) {
    return Response.json({ error: error.message, code: error.code, details: error.details ?? undefined }, { status: statusByCode[error.code] });
  }
  console.error(error);
  return Response.json({ error: "Internal server error" }, { status: 500 });
}
