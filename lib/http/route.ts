import type { z } from "zod";
import { toResponse } from "@/lib/errors";
import { readJsonBody, type JsonBodyOptions } from "@/lib/http/body";
import { assertSameSite } from "@/lib/security/csrf";
import { requireRole, requireSessionUserId, type CurrentUser } from "@/lib/auth/session";
import type { Role } from "@/lib/generated/prisma/enums";

/**
 * Who may call a handler:
 * - a list of roles: a signed-in user with one of them (401 signed out, 403 another role);
 * - "signed-in": any signed-in, enabled user;
 * - "session-token": only the session token's user id, without reading the account (the two
 *   busiest annotation handlers, whose own write statement checks the account: lib/auth/session.ts);
 * - "public": no session needed.
 */
export type RouteAccess = readonly [Role, ...Role[]] | "signed-in" | "session-token" | "public";

type CallerOf<A extends RouteAccess> = A extends "public" ? null : A extends "session-token" ? { id: string } : CurrentUser;

export interface RouteOptions<A extends RouteAccess, P extends z.ZodType | undefined, B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  roles: A;
  /** the path parameters (422 when they do not parse) */
  params?: P;
  /** the JSON body, read with readJsonBody's limits (lib/http/body.ts) */
  body?: B;
  /** limits of the JSON body (size, the value of an empty body) */
  json?: JsonBodyOptions;
  /** the query string, as an object of its parameters (the last value of a repeated one) */
  query?: Q;
}

type Parsed<S extends z.ZodType | undefined> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<A extends RouteAccess, P extends z.ZodType | undefined, B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  request: Request;
  user: CallerOf<A>;
  params: Parsed<P>;
  body: Parsed<B>;
  query: Parsed<Q>;
}

/** What Next.js calls: the request and a promise of the path's parameters. */
export type RouteHandler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;

async function callerFor(access: RouteAccess): Promise<CurrentUser | { id: string } | null> {
  if (access === "public") return null;
  if (access === "session-token") return { id: await requireSessionUserId() };
  if (access === "signed-in") return requireRole();
  return requireRole(...access);
}

/**
 * Every route handler under app/api: checks, in this order, that a state-changing request comes
 * from this site (lib/security/csrf.ts; the proxy does not see every route), the path parameters,
 * the caller's session and role, the JSON body and the query string, then runs the handler; any
 * error it throws becomes the JSON error answer of lib/errors.ts (toResponse).
 */
export function route<A extends RouteAccess, P extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  options: RouteOptions<A, P, B, Q>,
  handler: (input: RouteInput<A, P, B, Q>) => Promise<Response> | Response,
): RouteHandler {
  return async (request, context) => {
    try {
      assertSameSite(request);
      const params = (options.params ? options.params.parse(await context.params) : undefined) as Parsed<P>;
      const user = (await callerFor(options.roles)) as CallerOf<A>;
      const body = (options.body ? options.body.parse(await readJsonBody(request, options.json)) : undefined) as Parsed<B>;
      const query = (options.query ? options.query.parse(Object.fromEntries(new URL(request.url).searchParams)) : undefined) as Parsed<Q>;
      return await handler({ request, user, params, body, query });
    } catch (error) {
      return toResponse(error);
    }
  };
}
