import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { issueToken } from "@/lib/auth/api-tokens";
import { CHECKLIST } from "@/lib/report/checklist";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { startApiTestServer, type ApiTestServer } from "@/tests/api/test-server";

/** GET /api/studies/<slug>/report and GET/PATCH /api/studies/<slug>/reporting over HTTP with an API token. */
describe("the report's routes", () => {
  let server: ApiTestServer;
  let token: string;
  let annotatorToken: string;
  const call = (method: string, route: string, body?: unknown, bearer = token) =>
    fetch(server.url + route, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    await resetDatabase();
    server = await startApiTestServer();
    const researcher = await createUser("RESEARCHER");
    token = (await issueToken(researcher.id, { name: "paper", scopes: ["read", "manage"], expiresInDays: 1 }, researcher.id)).token;
    const annotator = await createUser("ANNOTATOR");
    annotatorToken = (await issueToken(annotator.id, { name: "play", scopes: ["play"], expiresInDays: 1 }, annotator.id)).token;
  });
  afterAll(async () => {
    await server.close();
    await disconnectDb();
  });

  it("carries an answer given through PATCH /reporting into the Markdown and the LaTeX of GET /report", async () => {
    const study = await createStudy();
    await db.study.update({ where: { id: study.id }, data: { title: "Pilot & 50% _x_ #2 $" } });
    const saved = await call("PATCH", `/api/studies/${study.slug}/reporting`, { answers: { "1.9": { choice: "Yes", detail: "IRB 2026-14" } } });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ answers: { "1.9": { choice: "Yes", detail: "IRB 2026-14" } }, compensation: {} });
    expect(await (await call("GET", `/api/studies/${study.slug}/reporting`)).json()).toEqual({
      answers: { "1.9": { choice: "Yes", detail: "IRB 2026-14" } },
      compensation: {},
    });

    const md = await call("GET", `/api/studies/${study.slug}/report`);
    expect(md.status).toBe(200);
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await md.text();
    expect(text.split("\n").filter((line) => /^\| \d/u.test(line))).toHaveLength(CHECKLIST.length);
    expect(text).toContain("| 1.9 | Ethics Review | Yes: IRB 2026-14 | study settings: Reporting |");

    const tex = await call("GET", `/api/studies/${study.slug}/report?format=tex`);
    expect(tex.headers.get("content-type")).toBe("application/x-tex; charset=utf-8");
    expect(tex.headers.get("content-disposition")).toBe(`inline; filename="${study.slug}-human-baseline-report.tex"`);
    expect(await tex.text()).toContain("Human baseline report: Pilot \\& 50\\% \\_x\\_ \\#2 \\$}");
  });

  it("refuses a bad format, a bad answer (naming it, changing nothing), an unknown study and an annotator", async () => {
    const study = await createStudy();
    expect((await call("GET", `/api/studies/${study.slug}/report?format=pdf`)).status).toBe(422);
    const bad = await call("PATCH", `/api/studies/${study.slug}/reporting`, { answers: { "1.9": { choice: "Maybe" } } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { issues: Array<{ path: string }> }).issues.map((i) => i.path)).toEqual(["answers.1.9.choice"]);
    expect((await db.study.findUniqueOrThrow({ where: { id: study.id } })).reportingAnswers).toEqual({});
    expect((await call("GET", "/api/studies/no-such-study/report")).status).toBe(404);
    expect((await call("GET", `/api/studies/${study.slug}/report`, undefined, annotatorToken)).status).toBe(403);
  });
});
