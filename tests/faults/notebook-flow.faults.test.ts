import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { egoschemaUids, expectedSummary, runNotebookFlow, writeEgoschemaInputs } from "../api/notebook-flow";
import { sessionCookie, startAppServer, type AppServer } from "./app-server";
import { createDatabase, dropDatabase } from "./pg-cluster";
import { createUsers, migrate, type SeededUser } from "./seed";

/**
 * examples/notebook_flow.py against the production build as it is served (scripts/serve.mjs:
 * `next start` and its job worker process), on a database of its own. The researcher signs in
 * (a session cookie) and makes a token on POST /api/tokens as the Tokens page does; the script then
 * runs the whole flow with that token alone, and the rows it made are checked in the database.
 */

const serverUrl = process.env.YARDSTICK_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const dbName = `yardstick_faults_notebook_${process.pid}_${Date.now().toString(36)}`;

let databaseUrl: string;
let pool: pg.Pool;
let server: AppServer;
let researcher: SeededUser;
let annotator: SeededUser;
let dir = "";

beforeAll(async () => {
  databaseUrl = await createDatabase(serverUrl, dbName);
  await migrate(databaseUrl);
  pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  [researcher] = await createUsers(pool, 1, "RESEARCHER", "notebook");
  [annotator] = await createUsers(pool, 1, "ANNOTATOR", "notebook");
  server = await startAppServer({ databaseUrl, env: { YARDSTICK_WORKERS: "1" } });
  dir = mkdtempSync(path.join(tmpdir(), "notebook-flow-faults-"));
});

afterAll(async () => {
  await server?.kill("SIGKILL");
  await pool?.end();
  await dropDatabase(serverUrl, dbName);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("examples/notebook_flow.py against the production server", () => {
  it("runs the whole flow with a token the researcher made, and its rows are in the database", async () => {
    const made = await fetch(`${server.baseUrl}/api/tokens`, {
      method: "POST",
      headers: { cookie: await sessionCookie(researcher.id), origin: server.baseUrl, "content-type": "application/json" },
      body: JSON.stringify({ name: "notebook", scopes: ["read", "manage"], expiresInDays: 1 }),
    });
    expect(made.status).toBe(201);
    const { token } = (await made.json()) as { token: string };

    const inputs = writeEgoschemaInputs(dir);
    const out = path.join(dir, "predictions.csv");
    const { rows: named } = await pool.query<{ name: string }>(`SELECT name FROM "User" WHERE id = $1`, [annotator.id]);
    const run = await runNotebookFlow(
      [
        ...["--url", server.baseUrl, "--slug", "notebook-prod", "--batch", inputs.release, "--text-only", "--member", named[0].name],
        ...["--run", inputs.outputs, "--run-name", "model-x", "--out", out],
      ],
      { YARDSTICK_TOKEN: token },
    );
    expect(run.stderr, server.output().slice(-3000)).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual(expectedSummary("notebook-prod", readFileSync(out).length, out));

    const uids = egoschemaUids();
    const { rows: studies } = await pool.query<{ id: string; createdById: string }>(`SELECT id, "createdById" FROM "Study" WHERE slug = 'notebook-prod'`);
    expect(studies).toEqual([{ id: expect.any(String), createdById: researcher.id }]);
    const studyId = studies[0].id;
    const { rows: items } = await pool.query<{ externalId: string }>(`SELECT "externalId" FROM "Item" WHERE "studyId" = $1 ORDER BY "externalId"`, [studyId]);
    expect(items.map((item) => item.externalId)).toEqual([...uids].sort());
    const { rows: members } = await pool.query(`SELECT "userId" FROM "StudyMember" WHERE "studyId" = $1`, [studyId]);
    expect(members).toEqual([{ userId: annotator.id }]);
    const { rows: runs } = await pool.query(
      `SELECT r.name, count(p.*)::int AS predictions FROM "ModelRun" r JOIN "ModelPrediction" p ON p."runId" = r.id WHERE r."studyId" = $1 GROUP BY r.name`,
      [studyId],
    );
    expect(runs).toEqual([{ name: "model-x", predictions: uids.length }]);
    const { rows: exports } = await pool.query(`SELECT "table", status::text AS status FROM "ExportJob" WHERE "studyId" = $1`, [studyId]);
    expect(exports).toEqual([{ table: "predictions", status: "SUCCEEDED" }]);
    const { rows: tokens } = await pool.query(`SELECT "userId", scopes FROM "ApiToken" WHERE "lastUsedAt" IS NOT NULL`);
    expect(tokens).toEqual([{ userId: researcher.id, scopes: ["read", "manage"] }]);
  });
});
