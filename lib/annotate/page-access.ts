import "server-only";
import { forbidden, notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";

/** For pages: turn lib/ access errors into the 404 and 403 pages (handlers use toResponse instead). */
export async function orPageError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    if (isAppError(error) && error.code === "FORBIDDEN") forbidden();
    throw error;
  }
}
