import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import SwaggerParser from "@apidevtools/swagger-parser";
import openapiTS, { astToString } from "openapi-typescript";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { buildOpenApi } from "@/lib/http/openapi";
import { apiRoutes } from "@/app/api/openapi.json/manifest";

/**
 * The served document is valid OpenAPI 3.1 for real tools, and a client generated from
 * it (openapi-typescript) compiles under strict tsc with the calls a notebook or a poller makes.
 */
const root = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

describe("the OpenAPI document with real tools", () => {
  const doc = buildOpenApi(apiRoutes, "http://localhost:3000") as Doc;
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "yardstick-openapi-"));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("passes swagger-parser's validation (the OpenAPI 3.1 schema and every $ref resolved)", async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it("passes Redocly's lint with its recommended rules: no errors", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: path.join(dir, "openapi.json"), config });
    const errors = problems
      .filter((problem) => problem.severity === "error")
      .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? "?"}`);
    expect(errors).toEqual([]);
  });

  it("has no $ref outside components, and no $defs left inside operations", () => {
    const text = JSON.stringify(doc);
    expect(text.includes('"$defs"'), "a $defs is left in the document").toBe(false);
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1]);
    expect(refs.filter((ref) => !ref.startsWith("#/components/schemas/"))).toEqual([]);
  });

  it("documents each operation's real success status and its errors", () => {
    const statuses = (urlPath: string, method: string) => Object.keys(doc.paths[urlPath][method].responses).sort();
    expect(statuses("/api/studies", "post")).toEqual(expect.arrayContaining(["201", "401", "403", "409", "422"]));
    expect(statuses("/api/studies", "post")).not.toContain("200");
    expect(statuses("/api/admin/import", "post")).toEqual(expect.arrayContaining(["202"]));
    expect(statuses("/api/studies/{slug}/settings", "patch")).toEqual(expect.arrayContaining(["200", "404", "409", "422", "429"]));
    expect(statuses("/api/tokens/{id}", "delete")).not.toContain("429");
    for (const [urlPath, operations] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(operations)) {
        const codes = Object.keys(operation.responses);
        expect(codes.filter((code) => /^2/.test(code)).length, `${method} ${urlPath}: a success status`).toBeGreaterThan(0);
        if (urlPath !== "/api/openapi.json") expect(codes, `${method} ${urlPath}`).toEqual(expect.arrayContaining(["401", "403"]));
      }
  });

  it("generates a client with openapi-typescript that compiles under strict tsc", { timeout: 120_000 }, async () => {
    const ast = await openapiTS(structuredClone(doc) as never);
    await writeFile(path.join(dir, "api.d.ts"), astToString(ast));
    await writeFile(
      path.join(dir, "client.ts"),
      `import type { paths, components } from "./api";
type Json<P extends keyof paths, M extends keyof paths[P], S extends number> =
  paths[P][M] extends { responses: { [K in S]: { content: { "application/json": infer T } } } } ? T : never;

type Job = Json<"/api/admin/import/jobs/{id}", "get", 200>["job"];
const state: Job["status"] = "SUCCEEDED";
// @ts-expect-error a job never is "COMPLETED"
const wrong: Job["status"] = "COMPLETED";
export const finished = (job: Job): boolean => job.status !== "RUNNING";
type ExportJob = Json<"/api/studies/{slug}/export-jobs/{id}", "get", 200>["job"];
export const exportReady = (job: ExportJob): string | null => (job.status === "SUCCEEDED" ? job.downloadUrl : null);

type Progress = Json<"/api/studies/{slug}/progress", "get", 200>;
export function percent(progress: Progress): number {
  return progress.expected === 0 ? 0 : (100 * progress.done) / progress.expected;
}
type Token = Json<"/api/tokens", "post", 201>;
export const tokenText = (created: Token): string => created.token;

type Created = Json<"/api/studies", "post", 201>;
export const slug = (created: Created): string => created.slug;

type Patch = NonNullable<paths["/api/studies/{slug}/settings"]["patch"]["requestBody"]>["content"]["application/json"];
export const patch: Patch = { itemsPerParticipant: 4 };

type ApiError = components["schemas"]["Error"];
export const message = (error: ApiError): string => error.error + (error.code ?? "");
export { state, wrong };
`,
    );
    await writeFile(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "ES2022",
          module: "ESNext",
          moduleResolution: "Bundler",
          skipLibCheck: false,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          types: [],
        },
        files: ["client.ts", "api.d.ts"],
      }),
    );
    const tsc = path.join(root, "node_modules", ".bin", "tsc");
    const result = await run(tsc, ["-p", path.join(dir, "tsconfig.json")], { cwd: dir }).then(
      () => "",
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`,
    );
    expect(result).toBe("");
  });
});
