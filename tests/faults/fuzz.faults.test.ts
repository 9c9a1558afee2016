import fc from "fast-check";
import { readdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiRouteMatrix, type MatrixFixture, type MatrixRoute } from "../../e2e/staff-routes";
import { pathsOf, withValueAt, wrongValueText } from "../fixtures/fuzz-values";
import { ROOT, sessionCookie, startAppServer, type AppServer } from "./app-server";
import { createDatabase, dropDatabase } from "./pg-cluster";
import { createJudgeStudy, createUsers, migrate, type SeededUser } from "./seed";

/**
 * Every JSON endpoint (the rows of the authorization matrix,
 * e2e/staff-routes.ts) fuzzed with fast-check against the production build, signed in as a caller
 * who may use it: its valid body with one value replaced by a wrong one (wrong types, huge
 * strings, deep nesting, unicode edge cases, negative and enormous numbers) or a key dropped,
 * whole bodies of anything, bytes that are not JSON; path parameters and query strings of
 * anything; the two uploads with forms of anything. Always a 4xx with a message (or a 2xx when
 * the input happens to be valid); never a 5xx, never a stack trace, and the server stays up.
 * FUZZ_RUNS sets the runs per endpoint (default 12); FUZZ_SEED replays a run.
 */

const serverUrl = process.env.YARDSTICK_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const dbName = `yardstick_faults_fuzz_${process.pid}_${Date.now().toString(36)}`;
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

let pool: pg.Pool;
let server: AppServer;
let fixture: MatrixFixture;
let cookies: { admin: string; annotator: string };

beforeAll(async () => {
  const databaseUrl = await createDatabase(serverUrl, dbName);
  await migrate(databaseUrl);
  pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  const [admin] = await createUsers(pool, 1, "ADMIN", "fuzz");
  const [annotator]: SeededUser[] = await createUsers(pool, 1, "ANNOTATOR", "fuzz");
  const study = await createJudgeStudy(pool, { items: 3, members: [annotator] });
  server = await startAppServer({ databaseUrl });
  cookies = { admin: await sessionCookie(admin.id), annotator: await sessionCookie(annotator.id) };
  const next = (await (await fetch(`${server.baseUrl}/api/annotate/studies/${study.slug}/next`, { headers: { cookie: cookies.annotator } })).json()) as {
    assignment: { assignmentId: string };
  };
  const hash = "ab".repeat(32);
  fixture = {
    studySlug: study.slug,
    assignmentId: next.assignment.assignmentId,
    assetHash: hash,
    reviewSlug: "no-such-review",
    reviewAssignmentId: "no-such-review-assignment",
    reviewAssetHash: hash,
  };
  console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${RUNS} runs per endpoint`);
});

afterAll(async () => {
  await server?.kill("SIGKILL");
  await pool?.end();
  await dropDatabase(serverUrl, dbName);
});

/** The caller who may use the route: an admin for staff routes, the annotator for their own. */
function cookieFor(route: MatrixRoute): string {
  return route.expect.admin === "allowed" && route.expect.owner !== "allowed" ? cookies.admin : cookies.annotator;
}

/** what went wrong in the current test */
let problems: string[] = [];
beforeEach(() => {
  problems = [];
});

/** Sends one request; records what is wrong with the answer (a 5xx, a 4xx without a message, a stack trace). */
async function probe(what: string, url: string, init: RequestInit): Promise<number> {
  let status = 0;
  let text = "";
  try {
    const response = await fetch(`${server.baseUrl}${url}`, { ...init, signal: AbortSignal.timeout(30_000) });
    status = response.status;
    text = await response.text();
    // a path that turned into another route (e.g. "/studies/./results") without this method: Next.js's bare 405
    if (status === 405) return status;
  } catch (error) {
    problems.push(`${what}: no answer (${String(error)})`);
    return 0;
  }
  if (status >= 500) problems.push(`${what}: ${status} ${text.slice(0, 300)}`);
  else if (status >= 400) {
    let message: unknown;
    try {
      message = (JSON.parse(text) as { error?: unknown }).error;
    } catch {
      message = undefined;
    }
    if (typeof message !== "string" || message.length < 5) problems.push(`${what}: ${status} without a JSON error message: ${text.slice(0, 200)}`);
  }
  if (/\n\s+at |Invalid `|node_modules|\/work\/|PrismaClient/.test(text))
    problems.push(`${what}: a stack trace or internals in the answer: ${text.slice(0, 300)}`);
  return status;
}

const jsonRoutes = apiRouteMatrix.filter((route) => route.bodyKind === "json");

describe("fuzzed requests to every JSON endpoint", () => {
  it(`answer 4xx with a message (or 2xx), never 5xx: ${jsonRoutes.length} endpoints`, async () => {
    const statuses = new Map<number, number>();
    for (const [index, route] of jsonRoutes.entries()) {
      const valid = route.body!(fixture, "owner");
      const paths = pathsOf(valid);
      const body = fc.oneof(
        {
          weight: 5,
          arbitrary: fc
            .tuple(fc.constantFrom(...paths), wrongValueText, fc.integer({ min: 0, max: 9 }))
            .map(([path, value, dice]) => withValueAt(valid, path, value, dice === 0 && path.length > 0)),
        },
        { weight: 1, arbitrary: wrongValueText },
        { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 300 }) },
      );
      await fc.assert(
        fc.asyncProperty(body, async (text) => {
          const status = await probe(`${route.method} ${route.path(fixture)} with ${text.slice(0, 120)}`, route.path(fixture), {
            method: route.method,
            headers: { cookie: cookieFor(route), "content-type": "application/json" },
            body: text,
          });
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }),
        { numRuns: RUNS, seed: SEED + index },
      );
      // bytes that are not UTF-8, and a body past the size limit
      await probe(`${route.method} ${route.path(fixture)} with invalid UTF-8`, route.path(fixture), {
        method: route.method,
        headers: { cookie: cookieFor(route) },
        body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      });
      const huge = await probe(`${route.method} ${route.path(fixture)} with 3 MiB`, route.path(fixture), {
        method: route.method,
        headers: { cookie: cookieFor(route) },
        body: JSON.stringify({ pad: "x".repeat(3 * 1024 * 1024) }),
      });
      // 413, or 404 where the handler looks the study up before it reads the body (a study that does not exist)
      if (huge !== 413 && huge !== 404) problems.push(`${route.method} ${route.path(fixture)}: 3 MiB answered ${huge}, not 413`);
    }
    console.log(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(problems).toEqual([]);
    expect([...statuses.keys()].some((status) => status >= 400 && status < 500)).toBe(true);
  });

  it(`path parameters and query strings of anything: ${apiRouteMatrix.length} routes`, async () => {
    const segment = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 60 }),
      fc.string({ unit: "binary", maxLength: 60 }),
      fc.constantFrom("..", "%00", "a".repeat(5000), "' OR 1=1", "🙂", "\u202e"),
    );
    const query = fc.dictionary(
      fc.oneof(fc.constantFrom("exclude", "format", "page", "outcome", "kind", "tag", "encoding", "level", "ci", "annotator"), fc.string({ maxLength: 20 })),
      fc.string({ unit: "binary", maxLength: 80 }),
      { maxKeys: 4 },
    );
    for (const [index, route] of apiRouteMatrix.entries()) {
      await fc.assert(
        fc.asyncProperty(segment, query, async (value, params) => {
          const broken = route
            .path(fixture)
            .replace(
              /\/(?:faults-[^/?]+|as_[^/?]+|no-such-review(?:-assignment)?|any-study|[0-9a-f]{64}|[a-z0-9]{20,})(?=[/?]|$)/,
              `/${encodeURIComponent(value) || "%20"}`,
            );
          const url = `${broken.split("?")[0]}?${new URLSearchParams(params).toString()}`;
          await probe(`${route.method} ${url.slice(0, 200)}`, url, {
            method: route.method,
            headers: { cookie: cookieFor(route), "content-type": "application/json" },
            body: route.method === "GET" ? undefined : JSON.stringify(route.body?.(fixture, "owner") ?? {}),
          });
        }),
        { numRuns: Math.max(3, Math.round(RUNS / 3)), seed: SEED + 1000 + index },
      );
    }
    expect(problems).toEqual([]);
  });

  it("paths no route serves, including /api itself (where /api/assets/.. resolves): a JSON 404", async () => {
    for (const url of ["/api", "/api/", "/api/assets/..", "/api/assets/..?tag=%00", "/api/no/such/endpoint", "/api/review/.."]) {
      for (const method of ["GET", "POST"]) {
        const status = await probe(`${method} ${url}`, url, {
          method,
          headers: { cookie: cookies.annotator, "content-type": "application/json" },
          body: method === "GET" ? undefined : "{}",
        });
        if (status !== 404) problems.push(`${method} ${url}: ${status}, not 404`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("a NUL in a path parameter (which PostgreSQL cannot store): a 4xx with a message, found by a fuzz seed", async () => {
    const cases: Array<[string, string, string]> = [
      ["POST", "/api/annotate/studies/%00/tutorial", cookies.annotator],
      ["POST", "/api/annotate/studies/a%00b/consent", cookies.annotator],
      ["GET", "/api/annotate/studies/%00/next", cookies.annotator],
      ["GET", "/api/annotate/assignments/%00", cookies.annotator],
      ["PATCH", "/api/admin/users/%00", cookies.admin],
      ["DELETE", `/api/studies/${fixture.studySlug}/model-runs/%00`, cookies.admin],
    ];
    for (const [method, url, cookie] of cases) {
      const status = await probe(`${method} ${url}`, url, {
        method,
        headers: { cookie, "content-type": "application/json" },
        body: method === "GET" ? undefined : "{}",
      });
      if (status < 400 || status >= 500) problems.push(`${method} ${url}: ${status}, not a 4xx`);
    }
    expect(problems).toEqual([]);
  });

  it("the uploads take forms of anything: a 4xx with a message", async () => {
    const uploads = apiRouteMatrix.filter((route) => route.bodyKind === "multipart");
    expect(uploads.length).toBe(2);
    const form = fc.record({
      fields: fc.dictionary(fc.constantFrom("study", "name", "file", "files", "x"), fc.string({ unit: "binary", maxLength: 100 }), { maxKeys: 4 }),
      files: fc.array(
        fc.record({
          field: fc.constantFrom("file", "files"),
          name: fc.oneof(fc.constantFrom("a.zip", "../../x.zip", "items.jsonl", "answers.jsonl", ""), fc.string({ maxLength: 30 })),
          bytes: fc.uint8Array({ maxLength: 2000 }),
        }),
        { maxLength: 3 },
      ),
    });
    for (const [index, route] of uploads.entries()) {
      await fc.assert(
        fc.asyncProperty(form, async ({ fields, files }) => {
          const body = new FormData();
          for (const [name, value] of Object.entries(fields)) body.append(name, name === "study" && Math.random() < 0.5 ? fixture.studySlug : value);
          for (const file of files) body.append(file.field, new Blob([file.bytes]), file.name || "blob");
          await probe(`${route.method} ${route.path(fixture)} with a fuzzed form`, route.path(fixture).replace("any-study", fixture.studySlug), {
            method: "POST",
            headers: { cookie: cookies.admin },
            body,
          });
        }),
        { numRuns: RUNS, seed: SEED + 2000 + index },
      );
    }
    expect(problems).toEqual([]);
  });

  it(`malformed percent-encoding in every path of every page and route: 400 with a message and the security headers (${everyPath().length} paths)`, async () => {
    const bad: Array<[string, string]> = [];
    // the cases, then a fuzzed malformed sequence (with anything around it) in every path
    const known = ["%FF", "%ED%A0%80", "%E0%80%80", "%C3%28", "%", "%G0", "a%FFb", "%F4%90%80%80", "%C0%AF"];
    const malformed = fc
      .tuple(
        fc.string({ maxLength: 10 }),
        fc.oneof(
          fc.constantFrom(...known),
          fc.integer({ min: 0x80, max: 0xff }).map((byte) => `%${byte.toString(16).toUpperCase()}`),
          fc.tuple(fc.integer({ min: 0xc2, max: 0xf4 }), fc.constantFrom("", "%41", "%2F")).map(([lead, next]) => `%${lead.toString(16)}${next}`),
          fc.constantFrom("G", "g", "Z", "%", " ").map((char) => `%${char}`),
        ),
        fc.string({ maxLength: 10 }),
      )
      .map(([before, sequence, after]) => `${encodeURIComponent(before)}${sequence}${encodeURIComponent(after)}`)
      // a lone "%" or "%X" followed by text that encodes to hex digits is a valid escape after all
      // ("%" + "43>" is "%43%3E": seed 568734394): only texts that do not decode are malformed
      .filter((value) => {
        try {
          decodeURIComponent(value);
          return false;
        } catch {
          return true;
        }
      });
    const check = async (method: string, url: string) => {
      const response = await fetch(`${server.baseUrl}${url}`, {
        method,
        headers: { cookie: cookies.admin, "content-type": "application/json" },
        body: method === "GET" ? undefined : "{}",
        redirect: "manual",
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      const problems: string[] = [];
      if (response.status !== 400) problems.push(`${response.status}, not 400`);
      if (response.headers.get("x-content-type-options") !== "nosniff") problems.push("no X-Content-Type-Options: nosniff");
      if (response.headers.get("x-frame-options") !== "DENY") problems.push("no X-Frame-Options: DENY");
      if (!response.headers.get("content-security-policy")) problems.push("no Content-Security-Policy");
      if (!/percent-encod/i.test(text)) problems.push(`no message naming the encoding: ${text.slice(0, 120)}`);
      if (/\n\s+at |node_modules|\/work\//.test(text)) problems.push("a stack trace in the answer");
      if (problems.length > 0) bad.push([`${method} ${url.slice(0, 160)}`, problems.join("; ")]);
    };
    for (const [index, pattern] of everyPath().entries()) {
      const methods = pattern.startsWith("/api") ? ["GET", "POST"] : ["GET"];
      for (const method of methods) for (const value of known) await check(method, pathWith(pattern, value));
      await fc.assert(
        fc.asyncProperty(malformed, async (value) => {
          await check(methods[index % methods.length], pathWith(pattern, value));
        }),
        { numRuns: Math.max(2, Math.round(RUNS / 4)), seed: SEED + 3000 + index },
      );
    }
    expect(bad).toEqual([]);
  });

  it("leaves the server up and answering", async () => {
    expect(server.process.exitCode).toBeNull();
    expect((await fetch(`${server.baseUrl}/signin`)).status).toBe(200);
    expect(server.output()).not.toMatch(/uncaught|unhandled|FATAL/i);
  });
});

/**
 * Every page and route handler of app/ as a URL pattern ("/s/[slug]/work", "/api/[[...path]]"),
 * read from the folder itself so that a new one is covered without a change here.
 */
function everyPath(): string[] {
  const found: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        // (groups) are not in the URL; private folders (_x) hold no routes
        if (entry.name.startsWith("_")) continue;
        walk(path.join(dir, entry.name), /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name]);
      } else if (/^(page|route)\.tsx?$/.test(entry.name)) {
        found.push(`/${segments.join("/")}`);
      }
    }
  };
  walk(path.join(ROOT, "app"), []);
  return [...new Set(found)].sort();
}

/** The pattern with `value` (raw, not encoded again) in every dynamic segment, or appended when it has none. */
function pathWith(pattern: string, value: string): string {
  const segments = pattern.split("/").filter(Boolean);
  const dynamic = segments.some((segment) => segment.startsWith("["));
  const filled = segments.map((segment) => (segment.startsWith("[") ? value : segment));
  return `/${(dynamic ? filled : [...filled, value]).join("/")}`;
}
