import { z } from "zod";
import type { RouteHandler } from "@/lib/http/route";
import { defaultScope } from "@/lib/http/scopes";

/**
 * The OpenAPI 3.1 document of the API (issue 23, docs/api.md), generated from the very options
 * each handler gives route() (lib/http/route.ts): its path, query and body schemas (zod 4's
 * toJSONSchema, as the client sends them: `io: "input"`), the schema of its answer where it gives
 * one (`response`, as sent: `io: "output"`), its roles and the scope an API token needs. Nothing
 * is written by hand but the one-line summaries; tests/openapi.test.ts fails when a route file is
 * missing or its schemas differ from the handler's.
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

const errorResponse = { description: "An error: `{ error, code?, issues?: [{ path, message }], details? }`", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };

/** The document, for `serverUrl` (the site's origin). */
export function buildOpenApi(entries: readonly ApiRouteEntry[], serverUrl?: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const entry of [...entries].sort((a, b) => a.path.localeCompare(b.path))) {
    const operations: Record<string, unknown> = {};
    for (const method of httpMethods) {
      const handler = entry.module[method];
      if (!handler) continue;
      const options = handler.options;
      const scope = options.scope ?? defaultScope(options.roles, method);
      const access = options.roles === "public" ? "anyone" : options.roles === "signed-in" || options.roles === "session-token" ? "any signed-in user" : options.roles.join(" or ");
      const operation: Record<string, unknown> = {
        operationId: `${method.toLowerCase()}${entry.path.replace(/\{([^}]+)\}/g, "By_$1").replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
        summary: options.summary ?? `${method} ${entry.path}`,
        description: `Who: ${access}.${scope === "none" ? " A session cookie only (no API token)." : ` An API token needs the scope \`${scope}\`.`}`,
        tags: [entry.path.split("/")[2] ?? "api"],
        parameters: [...parametersOf(options.params, "path"), ...parametersOf(options.query, "query")],
        responses: {
          "200": options.response
            ? { description: "Success", content: { "application/json": { schema: outputJsonSchema(options.response) } } }
            : { description: "Success (201 for a creation, 202 for a background job, 204 without content)" },
          "401": errorResponse,
          "403": errorResponse,
          "422": errorResponse,
        },
        "x-yardstick-access": options.roles,
        "x-yardstick-scope": scope,
      };
      if (options.roles === "public") operation.security = [];
      else operation.security = scope === "none" ? [{ session: [] }] : [{ session: [] }, { bearer: [scope] }];
      if (options.body) operation.requestBody = { required: true, content: { "application/json": { schema: inputJsonSchema(options.body) } } };
      else if (options.form) operation.requestBody = { required: true, content: { "multipart/form-data": { schema: inputJsonSchema(options.form) } } };
      operations[method.toLowerCase()] = operation;
    }
    if (Object.keys(operations).length > 0) paths[entry.path] = operations;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Yardstick API",
      version: "1",
      description: "Every route the pages use. Authenticate with `Authorization: Bearer <token>` (make a token on /research/tokens); the scopes are read, manage and play. docs/api.md.",
    },
    servers: serverUrl ? [{ url: serverUrl }] : [],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A personal API token (ys_...); scopes: read, manage, play" },
        session: { type: "apiKey", in: "cookie", name: "next-auth.session-token", description: "The browser's session (state-changing requests must come from Yardstick's own pages)" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: { type: "string" },
            code: { type: "string" },
            issues: { type: "array", items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } } } },
            details: {},
          },
        },
      },
    },
  };
}
