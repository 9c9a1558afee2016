import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportedHandlers, readRouteFile, routeFiles } from "./api-route-files";
import { buildOpenApi, httpMethods, inputJsonSchema, outputJsonSchema, pathOfRouteFile, hoistDefs, successStatusesOf } from "@/lib/http/openapi";
import type { RouteHandler } from "@/lib/http/route";
import { apiRoutes } from "@/app/api/openapi.json/manifest";
import { taskKinds } from "@/lib/tasks";

const apiRoot = path.resolve(import.meta.dirname, "..", "app", "api");
/** route files outside the document, each for a reason given in app/api/openapi.json/manifest.ts */
const outside = new Set([path.join("auth", "[...nextauth]", "route.ts"), path.join("[[...path]]", "route.ts"), path.join("openapi.json", "route.ts")]);

type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  parameters: Array<{ name: string; in: string; schema: unknown }>;
  "x-yardstick-scope": string;
};

describe("the OpenAPI document (lib/http/openapi.ts, /api/openapi.json)", () => {
  const doc = buildOpenApi(apiRoutes) as { openapi: string; paths: Record<string, Record<string, Operation>> };

  it("has every route file under app/api, at the path its folder gives", () => {
    const files = routeFiles(apiRoot)
      .map((file) => path.relative(apiRoot, file))
      .filter((file) => !outside.has(file));
    expect(files.length).toBeGreaterThan(35);
    for (const file of files) {
      const expected = pathOfRouteFile(file);
      expect(
        apiRoutes.some((entry) => entry.path === expected),
        `app/api/${file} is missing from the OpenAPI document: add { path: "${expected}", module: ... } to app/api/openapi.json/manifest.ts`,
      ).toBe(true);
    }
    expect(apiRoutes.length, "app/api/openapi.json/manifest.ts lists a path twice, or one with no route file").toBe(files.length);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("says what every operation does in its own summary, not its method and path", () => {
    const missing: string[] = [];
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const summary = (operation as { summary?: unknown }).summary;
        if (typeof summary !== "string" || summary.trim().length < 8 || summary.includes(route)) missing.push(`${method.toUpperCase()} ${route}`);
      }
    }
    expect(missing, "give these handlers a `summary` in their route() options").toEqual([]);
  });

  /** A handler's schema as the document holds it: zod's `$defs` moved to components.schemas (lib/http/openapi.ts hoistDefs). */
  const asDocumented = (schema: Record<string, unknown>, operationId: string, part: string) => hoistDefs(schema, {}, `${operationId}_${part}`);

  it("documents the study settings' body with each registered kind's settings (no longer any JSON)", () => {
    const body = doc.paths["/api/studies/{slug}/settings"].patch.requestBody!.content["application/json"].schema as {
      properties: Record<string, { properties?: Record<string, { properties?: Record<string, unknown> }>; additionalProperties?: unknown }>;
    };
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(["title", "overlap", "goldRate", "endings", "conditions", "taskSettings"]));
    const taskSettings = body.properties.taskSettings;
    expect(Object.keys(taskSettings.properties!).sort()).toEqual([...taskKinds].sort());
    expect(taskSettings.additionalProperties).toBe(false);
    expect(Object.keys(taskSettings.properties!["gridwm-judge"].properties!)).toEqual(["probeMinGap"]);
    expect(Object.keys(taskSettings.properties!["explore-scene"].properties!)).toEqual(["freeText"]);
    expect(taskSettings.properties!["enact-forward"]).toMatchObject({ type: "object", additionalProperties: false });
  });

  it("describes the dashboard's interval method and its comparison of people with each model, and the analysis setting", () => {
    const reply = doc.paths["/api/studies/{slug}/dashboard"].get.responses["200"].content!["application/json"].schema as {
      properties: Record<string, { properties?: Record<string, { items?: { properties?: Record<string, unknown> } }> }>;
    };
    expect(Object.keys(reply.properties)).toEqual(expect.arrayContaining(["method", "comparison", "accuracy"]));
    expect(Object.keys(reply.properties.comparison.properties!.rows.items!.properties!)).toEqual(
      expect.arrayContaining(["items", "humans", "humansAll", "modelEstimate", "difference", "model"]),
    );
    const analysis = doc.paths["/api/studies/{slug}/analysis"].patch.requestBody!.content["application/json"].schema as {
      properties: Record<string, { enum?: string[] }>;
    };
    expect(analysis.properties.generaliseOver.enum).toEqual(["people+items", "items"]);
    expect(doc.paths["/api/studies/{slug}/comparison.csv"].get).toBeDefined();
  });

  it("describes what agents read: the next item with the agent contract, the play endpoints with the example action", () => {
    const schemaOf = (urlPath: string, method: string) =>
      doc.paths[urlPath][method].responses["200"].content!["application/json"].schema as {
        properties: Record<string, { properties?: Record<string, unknown> }>;
      };
    const next = schemaOf("/api/annotate/studies/{slug}/next", "get");
    const agent = (next.properties.assignment.properties!.agent as { properties: Record<string, unknown> }).properties;
    expect(Object.keys(agent).sort()).toEqual([
      "actionInstructions",
      "actionSchema",
      "answerFromActions",
      "answerInstructions",
      "answerSchema",
      "exampleAnswer",
      "interactive",
    ]);
    for (const method of ["get", "post"])
      expect(Object.keys(schemaOf("/api/annotate/assignments/{id}/play", method).properties)).toEqual(expect.arrayContaining(["canAct", "exampleAction"]));
  });

  it("describes each handler with the schemas it validates with: the same objects, read from the route file itself", async () => {
    for (const file of routeFiles(apiRoot)) {
      const relative = path.relative(apiRoot, file);
      if (outside.has(relative)) continue;
      const urlPath = pathOfRouteFile(relative);
      const routeModule = (await import(file)) as Record<string, RouteHandler | undefined>;
      const entry = apiRoutes.find((candidate) => candidate.path === urlPath)!;
      const methods = exportedHandlers(readRouteFile(file)).map(({ method }) => method);
      for (const method of methods) {
        expect((httpMethods as readonly string[]).includes(method), `app/api/${relative}: ${method} is not documented`).toBe(true);
        const handler = routeModule[method]!;
        expect(entry.module[method as (typeof httpMethods)[number]], `app/api/openapi.json/manifest.ts: ${urlPath} is not app/api/${relative}`).toBe(handler);
        const operation = doc.paths[urlPath]?.[method.toLowerCase()];
        expect(operation, `${method} ${urlPath} (app/api/${relative}) is missing from the document`).toBeDefined();
        const { body, form, params, query, response } = handler.options;
        const content = operation!.requestBody?.content;
        if (body)
          expect(content?.["application/json"]?.schema, `${method} ${urlPath}: body schema`).toEqual(
            asDocumented(inputJsonSchema(body), operation!.operationId, "body"),
          );
        else if (form)
          expect(content?.["multipart/form-data"]?.schema, `${method} ${urlPath}: form schema`).toEqual(
            asDocumented(inputJsonSchema(form), operation!.operationId, "form"),
          );
        else expect(operation!.requestBody, `${method} ${urlPath} documents a body it does not read`).toBeUndefined();
        const success = successStatusesOf(handler.options).filter((status) => status !== 204);
        expect(
          Object.keys(operation!.responses)
            .filter((code) => code.startsWith("2"))
            .sort(),
          `${method} ${urlPath}: success statuses`,
        ).toEqual(successStatusesOf(handler.options).map(String).sort());
        for (const status of success) {
          const answer = operation!.responses[String(status)]?.content?.["application/json"]?.schema;
          if (response)
            expect(answer, `${method} ${urlPath}: response schema`).toEqual(asDocumented(outputJsonSchema(response), operation!.operationId, "reply"));
          else expect(answer, `${method} ${urlPath} documents an answer it does not declare`).toBeUndefined();
        }
        for (const [schema, where] of [
          [params, "path"],
          [query, "query"],
        ] as const) {
          const documented = operation!.parameters.filter((p) => p.in === where).map((p) => [p.name, p.schema]);
          const properties = schema ? ((inputJsonSchema(schema).properties ?? {}) as Record<string, unknown>) : {};
          expect(Object.fromEntries(documented), `${method} ${urlPath}: ${where} parameters`).toEqual(properties);
        }
        if (params) {
          const names = [...urlPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
          expect(Object.keys((inputJsonSchema(params).properties ?? {}) as object).sort(), `${method} ${urlPath}: path parameters`).toEqual(names);
        }
      }
      expect(Object.keys(doc.paths[urlPath] ?? {}).sort(), `${urlPath}: documented methods`).toEqual(methods.map((m) => m.toLowerCase()).sort());
      // each success status the file answers with (`{ status: 201 }`, `created ? 202 : 200`, a 204 without content) is documented
      const source = readRouteFile(file);
      const answered = new Set(
        [...source.matchAll(/\bstatus: ([^,}]*)/g)].flatMap((match) => [...match[1].matchAll(/\b(20[0-4])\b/g)].map((m) => Number(m[1]))),
      );
      const documented = new Set(methods.flatMap((method) => successStatusesOf(routeModule[method]!.options)));
      for (const status of answered)
        expect(
          documented.has(status as 200),
          `app/api/${relative} answers ${status}: give its handler route({ status: ${status} }) (or [200, ${status}])`,
        ).toBe(true);
    }
  });
});
