import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { isAppError, retryAfterOf } from "@/lib/errors";

/**
 * next-auth answers every refused credentials sign-in 401, with the refusal's words in the URL it
 * returns. A rate-limited study-link sign-in should say 429 with Retry-After (RFC 6585), so the
 * provider notes the refusal here and the auth route rewrites next-auth's reply.
 */
const refusalOfRequest = new AsyncLocalStorage<{ retryAfterSeconds: number | null }>();

/** Called by a credentials provider before it rethrows: remembers a rate limit for this request. */
export function noteSignInRefusal(error: unknown): void {
  const store = refusalOfRequest.getStore();
  if (store && isAppError(error) && error.code === "RATE_LIMITED") store.retryAfterSeconds = retryAfterOf(error) ?? 60;
}

/** Runs next-auth's handler; when a provider refused for a rate limit, answers 429 with Retry-After and `reason`. */
export async function answerSignInRefusals(handle: () => Promise<Response>): Promise<Response> {
  const store: { retryAfterSeconds: number | null } = { retryAfterSeconds: null };
  const response = await refusalOfRequest.run(store, handle);
  if (store.retryAfterSeconds === null || response.status !== 401) return response;
  const headers = new Headers(response.headers);
  headers.set("retry-after", String(store.retryAfterSeconds));
  if (!(headers.get("content-type") ?? "").includes("application/json")) return new Response(response.body, { status: 429, headers });
  const body = (await response.json()) as Record<string, unknown>;
  headers.delete("content-length");
  return Response.json({ ...body, reason: "rate-limited" }, { status: 429, headers });
}
