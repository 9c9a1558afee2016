import { z } from "zod";
import type { RouteHandler, SuccessStatus } from "@/lib/http/route";
import { defaultScope } from "@/lib/http/scopes";

/**
 * The OpenAPI 3.1 document of the API (docs/api.md), generated from the very options
 * each handler gives route() (lib/http/route.ts): its path, query and body schemas (zod 4's
 * toJSONSchema, as the client sends them: `io: "input"`), the schema of its answer where it gives
 * one (`response`, as sent: `io: "output"`) under its success statuses (`status`), the error
 * statuses it can give with one Error body, its roles and the scope an API token needs. Nothing
 * is written by hand but the one-line summaries; tests/openapi.test.ts fails when a route file is
 * missing or its schemas differ from the handler's, tests/openapi-client.test.ts when swagger-parser,
 * Redocly's lint or openapi-typescript and strict tsc refuse the document.
 */

export const httpMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof httpMethods)[number];

/** One route file: its URL path template (`/api/studies/{slug}`) and its exported handlers. */
export interface ApiRouteEntry {
  path: string;
  module: Partial<Record<HttpMethod, RouteHandler>> & Record<string, unknown>;
}

type JsonSchema = Record<string, unknown>;

/** The JSON Schema of what a client sends for `schema` (without the $schema line, which OpenAPI 3.1 does not need per schema). */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** The JSON Schema of what a route answers (`route({ response })`): the value as it is sent, `io: "output"`. */
export function outputJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** The path template of a route file, from its folder under app/api: `studies/[slug]/route.ts` -> `/api/studies/{slug}`. */
export function pathOfRouteFile(relativeFile: string): string {
  const folders = relativeFile.split(/[\\/]/).slice(0, -1);
  return "/api" + folders.map((folder) => "/" + folder.replace(/^\[\.\.\.(.+)\]$/, "{$1}").replace(/^\[(.+)\]$/, "{$1}")).join("");
}

function parametersOf(schema: z.ZodType | undefined, where: "path" | "query"): JsonSchema[] {
  if (!schema) return [];
  const json = inputJsonSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, in: where, required: where === "path" || required.has(name), schema: property }));
}

/** What every error answers (lib/errors.ts toResponse): `{ error, code?, issues?, details? }`. */
const errorSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: { type: "string", description: "what went wrong, for a person" },
    code: {
      type: "string",
      enum: ["UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND", "INVALID", "CONFLICT", "TOO_LARGE", "RATE_LIMITED", "UNAVAILABLE"],
      description: "the kind of error (422 issues from a schema carry none)",
    },
    issues: {
      type: "array",
      description: "422: each field that failed",
      items: { type: "object", required: ["path", "message"], properties: { path: { type: "string" }, message: { type: "string" } } },
    },
    issueCount: { type: "integer", description: "422: how many issues there were when `issues` lists only the first ones" },
    details: { description: "more, per error (e.g. an import's per-file problems)" },
  },
};

const errorDescriptions: Record<number, string> = {
  401: "Not signed in, or a bad API token",
  403: "Signed in without the role, or an API token without the scope",
  404: "No such thing (or not one of yours)",
  409: "A conflict with the current state (e.g. a study with responses is frozen; a slug taken)",
  413: "The body is too large",
  422: "The path, query or body does not parse (`issues` names each field)",
  429: "The API token's rate is spent (see `retry-after`)",
  503: "The database or job queue is unavailable for a moment (see `retry-after`; retrying is safe)",
};

const successDescriptions: Record<SuccessStatus, string> = {
  200: "Success",
  201: "Created",
  202: "Accepted: a background job (poll the URL in `location`) or a view still computing (ask again)",
  204: "Done, without content",
};

/** The statuses an operation can answer with the error body: by its access and what it reads, plus the route's own (`errors`). */
export function errorStatusesOf(options: RouteHandler["options"], scope: string): number[] {
  const statuses = new Set<number>([503, ...(options.errors ?? [])]);
  if (options.roles !== "public") {
    statuses.add(401);
    statuses.add(403);
    if (scope !== "none") statuses.add(429);
  }
  if (options.params || options.body || options.query || options.form) statuses.add(422);
  if (options.params) statuses.add(404);
  if (options.body || options.form) statuses.add(413);
  return [...statuses].sort((a, b) => a - b);
}

/** The statuses a route answers on success (`route({ status })`, 200 by default). */
export function successStatusesOf(options: RouteHandler["options"]): SuccessStatus[] {
  const status = options.status ?? 200;
  return typeof status === "number" ? [status] : [...status];
}

/**
 * zod's z.json() (any JSON value), a recursive `anyOf` of the scalars, an array of itself and an
 * object of itself: the same as `{}` for a JSON body, and a generated client's types (openapi-
 * typescript) cannot hold a component that is an array of itself, so it is written as `{}`.
 */
function isJsonValue(definition: JsonSchema, name: string): boolean {
  const self = `#/$defs/${name}`;
  const options = definition.anyOf as JsonSchema[] | undefined;
  if (!Array.isArray(options)) return false;
  const plain = (type: string) => options.some((option) => option.type === type && Object.keys(option).length === 1);
  const hasArray = options.some((option) => option.type === "array" && (option.items as JsonSchema | undefined)?.$ref === self);
  const hasObject = options.some((option) => option.type === "object" && (option.additionalProperties as JsonSchema | undefined)?.$ref === self);
  return hasArray && hasObject && ["string", "number", "boolean", "null"].every(plain);
}

/**
 * Moves the `$defs` zod's toJSONSchema writes (for a schema used twice, or recursive) into
 * `components.schemas`, under names unique in the document, and points their `$ref`s there: a
 * `#/$defs/...` inside an operation resolves against the document's root, where nothing is.
 */
export function hoistDefs(schema: JsonSchema, components: Record<string, JsonSchema>, prefix: string): JsonSchema {
  const { $defs, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  if (!$defs) return schema;
  const names = new Map<string, string>();
  const anyJson = new Set(Object.keys($defs).filter((name) => isJsonValue($defs[name], name)));
  for (const name of Object.keys($defs)) {
    if (anyJson.has(name)) continue;
    let unique = `${prefix}_${name.replace(/[^A-Za-z0-9._-]/g, "_")}`;
    for (let i = 2; unique in components || [...names.values()].includes(unique); i++) unique = `${prefix}_${name}_${i}`;
    names.set(name, unique);
  }
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== "object") return value;
    const out: JsonSchema = {};
    for (const [key, inner] of Object.entries(value)) {
      const target = key === "$ref" && typeof inner === "string" ? /^#\/\$defs\/(.+)$/.exec(inner) : null;
      if (target && anyJson.has(target[1])) return { description: "any JSON value" };
      out[key] = target && names.has(target[1]) ? `#/components/schemas/${names.get(target[1])}` : rewrite(inner);
    }
    return out;
  };
  for (const [name, definition] of Object.entries($defs)) if (!anyJson.has(name)) components[names.get(name)!] = rewrite(definition) as JsonSchema;
  return rewrite(rest) as JsonSchema;
}

/** The document, for `serverUrl` (the site's origin). */
export function buildOpenApi(entries: readonly ApiRouteEntry[], serverUrl?: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, JsonSchema> = { Error: errorSchema };
  for (const entry of [...entries].sort((a, b) => a.path.localeCompare(b.path))) {
    const operations: Record<string, unknown> = {};
    for (const method of httpMethods) {
      const handler = entry.module[method];
      if (!handler) continue;
      const options = handler.options;
      const scope = options.scope ?? defaultScope(options.roles, method);
      const access =
        options.roles === "public"
          ? "anyone"
          : options.roles === "signed-in" || options.roles === "session-token"
            ? "any signed-in user"
            : options.roles.join(" or ");
      const operationId = `${method.toLowerCase()}${entry.path.replace(/\{([^}]+)\}/g, "By_$1").replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`;
      const hoist = (schema: JsonSchema, part: string) => hoistDefs(schema, schemas, `${operationId}_${part}`);
      const responses: Record<string, unknown> = {};
      for (const status of successStatusesOf(options)) {
        responses[String(status)] =
          options.response && status !== 204
            ? { description: successDescriptions[status], content: { "application/json": { schema: hoist(outputJsonSchema(options.response), "reply") } } }
            : { description: successDescriptions[status] };
      }
      for (const status of errorStatusesOf(options, scope)) {
        responses[String(status)] = {
          description: errorDescriptions[status] ?? "An error",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        };
      }
      const operation: Record<string, unknown> = {
        operationId,
        summary: options.summary ?? `${method} ${entry.path}`,
        description: `Who: ${access}.${scope === "none" ? " A session cookie only (no API token)." : ` An API token needs the scope \`${scope}\`.`}`,
        tags: [entry.path.split("/")[2] ?? "api"],
        parameters: [...parametersOf(options.params, "path"), ...parametersOf(options.query, "query")].map((parameter) => ({
          ...parameter,
          schema: hoist(parameter.schema as JsonSchema, String(parameter.name)),
        })),
        responses,
        "x-yardstick-access": options.roles,
        "x-yardstick-scope": scope,
      };
      if (options.roles === "public") operation.security = [];
      else operation.security = scope === "none" ? [{ session: [] }] : [{ session: [] }, { bearer: [scope] }];
      if (options.body) operation.requestBody = { required: true, content: { "application/json": { schema: hoist(inputJsonSchema(options.body), "body") } } };
      else if (options.form)
        operation.requestBody = { required: true, content: { "multipart/form-data": { schema: hoist(inputJsonSchema(options.form), "form") } } };
      operations[method.toLowerCase()] = operation;
    }
    if (Object.keys(operations).length > 0) paths[entry.path] = operations;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Yardstick API",
      version: "1",
      description:
        "Every route the pages use. Authenticate with `Authorization: Bearer <token>` (make a token on /research/tokens); the scopes are read, manage and play. docs/api.md.",
    },
    servers: serverUrl ? [{ url: serverUrl }] : [],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A personal API token (ys_...); scopes: read, manage, play" },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "next-auth.session-token",
          description: "The browser's session (state-changing requests must come from Yardstick's own pages)",
        },
      },
      schemas,
    },
  };
}
