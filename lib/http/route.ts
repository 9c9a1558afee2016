import type { z } from "zod";
import { AppError, toResponse } from "@/lib/errors";
import { readJsonBody, type JsonBodyOptions } from "@/lib/http/body";
import { assertSameSite } from "@/lib/security/csrf";
import { requireRole, requireSessionUserId, type CurrentUser } from "@/lib/auth/session";
import type { Role } from "@/lib/generated/prisma/enums";
import { authenticateBearer, takeRateToken } from "@/lib/auth/api-tokens";
import { defaultScope, type RouteScope } from "@/lib/http/scopes";

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
  /**
   * The scope an API token needs here (lib/http/scopes.ts); by default "play" for participants'
   * routes, "read" for staff GETs and "manage" for staff changes; "none" takes no token.
   */
  scope?: RouteScope;
  /** for the OpenAPI document (lib/http/openapi.ts): one line on what the route does */
  summary?: string;
  /** for the OpenAPI document: the fields of a multipart/form-data body, which the handler reads itself with this schema */
  form?: z.ZodType;
  /**
   * for the OpenAPI document: the JSON of a success answer (not checked at run time; the tests of the
   * route parse its real answers with it, e.g. lib/validations/annotate-replies.ts)
   */
  response?: z.ZodType;
  /**
   * for the OpenAPI document: the status of a success (200 by default; 201 for a creation, 202 for
   * a background job, 204 without content; several when the route answers either, e.g. [200, 202])
   */
  status?: SuccessStatus | readonly SuccessStatus[];
  /**
   * for the OpenAPI document: the error statuses the handler itself gives (e.g. 409) beyond those
   * of the wrapper, which the document adds by itself (401/403/429 by access, 422 with a schema,
   * 404 with path parameters, 413 with a body, 503)
   */
  errors?: readonly number[];
}

export type SuccessStatus = 200 | 201 | 202 | 204;

type Parsed<S extends z.ZodType | undefined> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<A extends RouteAccess, P extends z.ZodType | undefined, B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  request: Request;
  user: CallerOf<A>;
  params: Parsed<P>;
  body: Parsed<B>;
  query: Parsed<Q>;
}

/** What Next.js calls: the request and a promise of the path's parameters; `options`: what route() was given, for the OpenAPI document. */
export type RouteHandler = ((request: Request, context: { params: Promise<unknown> }) => Promise<Response>) & {
  options: RouteOptions<RouteAccess, z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>;
};

/**
 * The token of an `Authorization: Bearer <token>` header; null without one, or with another
 * scheme (e.g. a proxy's Basic authentication in front of the app, which leaves the cookie in charge).
 */
export function bearerTokenOf(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (!header || !/^bearer\b/i.test(header.trim())) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError("UNAUTHORIZED", "The Authorization header must be `Bearer <token>`");
  return match[1];
}

/**
 * The caller of an API token on a route: 401 for a bad token, 403 when the route takes no token
 * or needs a scope the token lacks, then the same role rules as a session (the token acts as its
 * user), and 429 past the token's rate.
 */
async function bearerCaller(access: RouteAccess, scope: RouteScope, token: string): Promise<CurrentUser | { id: string } | null> {
  if (access === "public") return null;
  if (scope === "none") throw new AppError("FORBIDDEN", "This route takes a signed-in session, not an API token");
  const caller = await authenticateBearer(token);
  if (!caller.scopes.includes(scope))
    throw new AppError("FORBIDDEN", `This API token lacks the scope "${scope}" (it has ${caller.scopes.join(", ") || "none"})`);
  await takeRateToken(caller.tokenId);
  if (access === "session-token") return { id: caller.user.id };
  if (access !== "signed-in" && !access.includes(caller.user.role)) throw new AppError("FORBIDDEN", `This needs the role ${access.join(" or ")}`);
  return caller.user;
}

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
 * error it throws becomes the JSON error answer of lib/errors.ts (toResponse). A request with
 * `Authorization: Bearer <token>` is the token's user instead of the cookie's (lib/auth/api-tokens.ts),
 * within the token's scopes; it skips the same-site check, which guards cookies: a page of
 * another site cannot send that header without a CORS preflight, which no route answers.
 */
export function route<
  A extends RouteAccess,
  P extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(options: RouteOptions<A, P, B, Q>, handler: (input: RouteInput<A, P, B, Q>) => Promise<Response> | Response): RouteHandler {
  const handle = async (request: Request, context: { params: Promise<unknown> }) => {
    try {
      const bearer = bearerTokenOf(request);
      if (bearer === null) assertSameSite(request);
      const params = (options.params ? options.params.parse(await context.params) : undefined) as Parsed<P>;
      const scope = options.scope ?? defaultScope(options.roles, request.method);
      const user = (bearer === null ? await callerFor(options.roles) : await bearerCaller(options.roles, scope, bearer)) as CallerOf<A>;
      const body = (options.body ? options.body.parse(await readJsonBody(request, options.json)) : undefined) as Parsed<B>;
      const query = (options.query ? options.query.parse(Object.fromEntries(new URL(request.url).searchParams)) : undefined) as Parsed<Q>;
      return await handler({ request, user, params, body, query });
    } catch (error) {
      return toResponse(error);
    }
  };
  return Object.assign(handle, { options: options as RouteHandler["options"] });
}
