import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { issueToken } from "@/lib/auth/api-tokens";
import { createUser, resetDatabase, resetJobQueue } from "@/tests/db-helpers";
import { startApiTestServer, type ApiTestServer } from "@/tests/api/test-server";
import { egoschemaUids, expectedSummary, runNotebookFlow, runPython, writeEgoschemaInputs } from "@/tests/api/notebook-flow";
import { QUEUES, stopBoss } from "@/lib/jobs/queue";
import { startWorker, type RunningWorker } from "@/lib/jobs/worker";

const root = path.resolve(import.meta.dirname, "..", "..");

/**
 * examples/notebook_flow.py (standard library only) against the real route handlers
 * (tests/api/test-server.ts) and the job worker, over the test database, with a researcher's
 * token: it creates its own study, imports EgoSchema's release as it is (text only: the videos are
 * not in the fixture), adds an annotator, reads progress and the dashboard, imports a model run in
 * EgoSchema's own output format, and downloads an export prepared in the background. The same
 * flow against the production build: tests/faults/notebook-flow.faults.test.ts.
 */
describe("examples/notebook_flow.py", () => {
  let server: ApiTestServer;
  let worker: RunningWorker | undefined;
  let dir = "";
  let inputs: { release: string; outputs: string };
  let token = "";
  let researcherId = "";
  let annotatorId = "";

  beforeAll(async () => {
    await resetDatabase();
    await resetJobQueue();
    server = await startApiTestServer();
    worker = await startWorker({ pollMs: 100, queues: [QUEUES.import.name, QUEUES.export.name], periodic: false });
    const researcher = await createUser("RESEARCHER");
    researcherId = researcher.id;
    token = (await issueToken(researcher.id, { name: "notebook", scopes: ["read", "manage"], expiresInDays: 1 }, researcher.id)).token;
    annotatorId = (await createUser("ANNOTATOR", { name: "Ana Ruiz" })).id;
    dir = mkdtempSync(path.join(tmpdir(), "notebook-flow-"));
    inputs = writeEgoschemaInputs(dir);
  });
  afterAll(async () => {
    await worker?.stop();
    await stopBoss();
    await server?.close();
    await disconnectDb();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("runs the whole flow with a researcher's token and prints its summary", async () => {
    const uids = egoschemaUids();
    const out = path.join(dir, "predictions.csv");
    const run = await runNotebookFlow(
      [
        ...["--url", server.url, "--slug", "from-python", "--batch", inputs.release, "--text-only", "--member", "Ana Ruiz"],
        ...["--run", inputs.outputs, "--run-name", "model-x", "--out", out],
      ],
      { YARDSTICK_TOKEN: token },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual(expectedSummary("from-python", readFileSync(out).length, out));

    const study = await db.study.findUniqueOrThrow({ where: { slug: "from-python" }, select: { id: true, createdById: true } });
    expect(study.createdById).toBe(researcherId);
    const items = await db.item.findMany({ where: { studyId: study.id }, select: { externalId: true, public: true } });
    expect(items.map((item) => item.externalId).sort()).toEqual([...uids].sort());
    for (const item of items) expect(item.public).not.toHaveProperty("media");
    expect(await db.studyMember.findMany({ where: { studyId: study.id }, select: { userId: true } })).toEqual([{ userId: annotatorId }]);
    const modelRun = await db.modelRun.findFirstOrThrow({ where: { studyId: study.id }, select: { name: true, _count: { select: { predictions: true } } } });
    expect(modelRun).toEqual({ name: "model-x", _count: { predictions: uids.length } });
    const exportJob = await db.exportJob.findFirstOrThrow({ where: { studyId: study.id }, select: { table: true, status: true } });
    expect(exportJob).toEqual({ table: "predictions", status: "SUCCEEDED" });
    const csv = readFileSync(out, "utf8");
    for (const uid of uids) expect(csv).toContain(uid);
  });

  it("stops with exit 1 and names the call on an answer it did not expect", async () => {
    const taken = await runNotebookFlow(["--url", server.url, "--slug", "from-python", "--batch", inputs.release], { YARDSTICK_TOKEN: token });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/^notebook_flow: POST \/api\/studies answered 409, expected 201: .+/);
    expect(taken.stdout).toBe("");

    const refused = await runNotebookFlow(["--url", server.url, "--slug", "no-token", "--batch", inputs.release, "--token", "ys_not-a-token"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^notebook_flow: POST \/api\/studies answered 401, expected 201/);

    // a local file that cannot be read stops it before anything is made
    const missing = await runNotebookFlow(["--url", server.url, "--slug", "no-batch", "--batch", path.join(dir, "nowhere")], { YARDSTICK_TOKEN: token });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^notebook_flow: \[Errno 2\] No such file or directory: .*nowhere/);
    expect(await db.study.count({ where: { slug: "no-batch" } })).toBe(0);

    // without "text only" the release's missing videos refuse the batch: the job fails, and the script says why
    const media = await runNotebookFlow(["--url", server.url, "--slug", "needs-videos", "--batch", inputs.release], { YARDSTICK_TOKEN: token });
    expect(media.code).toBe(1);
    expect(media.stderr).toContain("notebook_flow: the import ended FAILED: ");
    expect(media.stderr).toContain(`videos/${egoschemaUids()[0]}.mp4`);
  });

  it("imports Python's standard library only", async () => {
    const script = [
      "import ast, sys",
      "tree = ast.parse(open(sys.argv[1]).read())",
      "names = {a.name.split('.')[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}",
      "names |= {n.module.split('.')[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}",
      "print(' '.join(sorted(names - set(sys.stdlib_module_names))))",
    ].join("\n");
    expect(await runPython(["-c", script, path.join(root, "examples", "notebook_flow.py")])).toEqual({ code: 0, stdout: "\n", stderr: "" });
  });
});
