import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "@/lib/db";
import { issueToken } from "@/lib/auth/api-tokens";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { createUser, resetDatabase } from "@/tests/db-helpers";
import { batchFiles, forwardItem, zipOf } from "@/tests/fixtures/import-batches";
import { startApiTestServer, type ApiTestServer } from "@/tests/api/test-server";
import { QUEUES, stopBoss } from "@/lib/jobs/queue";
import { startWorker, type RunningWorker } from "@/lib/jobs/worker";
import {
  importJobReplySchema,
  modelRunImportedReplySchema,
  modelRunListReplySchema,
  studyCreatedReplySchema,
  studyProgressSchema,
} from "@/lib/validations/api-replies";

const root = path.resolve(import.meta.dirname, "..", "..");

/**
 * A study run from a notebook with a token and the OpenAPI document alone (docs/api.md):
 * create, import a batch and poll it, add a member, let an agent answer, read progress and the
 * dashboard's figures, download an export, import a model run. Every call goes over HTTP to the
 * real route handlers (tests/api/test-server.ts) with `Authorization: Bearer`.
 */
describe("a study scripted end to end with an API token", () => {
  let server: ApiTestServer;
  let token: string;
  const api = async (method: string, route: string, body?: unknown, form?: FormData) => {
    const response = await fetch(server.url + route, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {
      // CSV and the like
    }
    return { status: response.status, json: json as Record<string, unknown>, text };
  };

  let worker: RunningWorker | undefined;
  beforeAll(async () => {
    await resetDatabase();
    server = await startApiTestServer();
    // the job worker an app instance runs (lib/jobs/worker.ts): the import is a job on the queue
    worker = await startWorker({ pollMs: 100, queues: [QUEUES.import.name] });
    const admin = await createUser("ADMIN");
    token = (await issueToken(admin.id, { name: "notebook", scopes: ["read", "manage"], expiresInDays: 1 }, admin.id)).token;
  });
  afterAll(async () => {
    await worker?.stop();
    await stopBoss();
    await server.close();
    await disconnectDb();
  });

  it("creates, imports, adds members, plays, reads the same figures as the page, exports and imports a model run", async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    for (const [method, route] of [
      ["post", "/api/studies"],
      ["post", "/api/admin/import"],
      ["get", "/api/admin/import/jobs/{id}"],
      ["post", "/api/studies/{slug}/members"],
      ["post", "/api/studies/{slug}/agents"],
      ["get", "/api/studies/{slug}/dashboard"],
      ["get", "/api/studies/{slug}/export/{what}"],
      ["post", "/api/studies/{slug}/model-runs"],
    ]) {
      expect(doc.paths[route]?.[method], `${method} ${route} in the OpenAPI document`).toBeDefined();
    }

    const created = await api("POST", "/api/studies", { title: "From a notebook", slug: "notebook", overlap: 1 });
    expect(created.status).toBe(201);
    // each answer has the shape its OpenAPI document gives (lib/validations/api-replies.ts)
    expect(studyCreatedReplySchema.strict().parse(created.json).slug).toBe("notebook");

    const items = [forwardItem("fwd-1"), forwardItem("fwd-2", { order: [0, 1] }), forwardItem("fwd-3")];
    const form = new FormData();
    form.set("study", "notebook");
    form.set("background", "1");
    form.append("files", new Blob([new Uint8Array(await zipOf(await batchFiles(items)))], { type: "application/zip" }), "batch.zip");
    const started = await api("POST", "/api/admin/import", undefined, form);
    expect(started.status).toBe(202);
    expect(importJobReplySchema.parse(started.json).job.status).toBe("RUNNING");
    const jobId = (started.json.job as { id: string }).id;
    let job: { status: string } = { status: "RUNNING" };
    for (let i = 0; i < 100 && job.status === "RUNNING"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = importJobReplySchema.parse((await api("GET", `/api/admin/import/jobs/${jobId}`)).json).job;
    }
    expect(job.status).toBe("SUCCEEDED");

    const person = await api("POST", "/api/admin/users", {
      name: "Annotator",
      email: "annotator@notebook.test",
      password: "password-123456",
      role: "ANNOTATOR",
    });
    expect(person.status).toBe(201);
    expect((await api("POST", "/api/studies/notebook/members", { userIds: [person.json.id as string] })).status).toBe(200);

    const agent = await api("POST", "/api/studies/notebook/agents", { name: "baseline", model: "trivial-policy" });
    expect(agent.status).toBe(201);
    const played = await new Promise<number | null>((resolve) => {
      const child = spawn("python3", [path.join(root, "examples", "agent.py"), "--study", "notebook", "--url", server.url], {
        env: { ...process.env, YARDSTICK_TOKEN: agent.json.token as string },
        stdio: "ignore",
      });
      child.on("close", resolve);
    });
    expect(played).toBe(0);

    const dashboard = await api("GET", "/api/studies/notebook/dashboard");
    expect(dashboard.status).toBe(200);
    // the page's own function gives the same figures (all but the moment they were read)
    const direct = JSON.parse(JSON.stringify(await getStudyDashboard("notebook", {}))) as Record<string, unknown>;
    const strip = (value: Record<string, unknown>) => ({ ...value, asOf: undefined });
    expect(strip(dashboard.json)).toEqual(strip(direct));
    const progress = dashboard.json.progress as Record<string, unknown>;
    expect(progress).toBeDefined();
    const agentRow = (dashboard.json.accuracy as { modelRows: Array<Record<string, unknown>> }).modelRows.find((row) => JSON.stringify(row).includes("agent:"));
    expect(agentRow).toBeDefined();

    const exported = await api("GET", "/api/studies/notebook/export/responses?format=csv");
    expect(exported.status).toBe(200);
    for (const item of items) expect(exported.text).toContain(item.id);

    const run = new FormData();
    run.set("name", "model-x");
    run.set("file", new Blob([items.map((item) => JSON.stringify({ id: item.id, answer: { order: [1, 0] } })).join("\n")]), "answers.jsonl");
    const imported = await api("POST", "/api/studies/notebook/model-runs", undefined, run);
    expect(imported.status).toBe(201);
    expect(modelRunImportedReplySchema.parse(imported.json).scored).toBe(items.length);
    expect(modelRunListReplySchema.parse((await api("GET", "/api/studies/notebook/model-runs")).json).runs.map((r) => r.name)).toEqual(["model-x"]);
    expect(studyProgressSchema.parse((await api("GET", "/api/studies/notebook/progress")).json)).toEqual(
      JSON.parse(JSON.stringify((await getStudyDashboard("notebook", {})).progress)),
    );
    const after = await api("GET", "/api/studies/notebook/dashboard");
    expect((after.json.models as Array<{ name: string }>).map((m) => m.name).sort()).toEqual(["Agent baseline (trivial-policy)", "model-x"]);
  });
});
