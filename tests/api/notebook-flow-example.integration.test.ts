import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { issueToken } from "@/lib/auth/api-tokens";
import { createUser, resetDatabase, resetJobQueue } from "@/tests/db-helpers";
import { startApiTestServer, type ApiTestServer } from "@/tests/api/test-server";
import { QUEUES, stopBoss } from "@/lib/jobs/queue";
import { startWorker, type RunningWorker } from "@/lib/jobs/worker";

const root = path.resolve(import.meta.dirname, "..", "..");
const release = path.join(root, "tests", "fixtures", "choice-releases", "egoschema");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** examples/notebook_flow.py run with python3 as a researcher would; python3 missing fails the test (CI has it). */
function runFlow(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", [path.join(root, "examples", "notebook_flow.py"), ...args], { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) => reject(new Error(`python3 could not be started (${error.message}): the example needs it`)));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * examples/notebook_flow.py (standard library only) against the real route handlers
 * (tests/api/test-server.ts) and the job worker, over the test database, with a researcher's
 * token: it creates its own study, imports EgoSchema's release as it is (text only: the videos are
 * not in the fixture), adds an annotator, reads progress and the dashboard, imports a model run in
 * EgoSchema's own output format, and downloads an export prepared in the background.
 */
describe("examples/notebook_flow.py", () => {
  let server: ApiTestServer;
  let worker: RunningWorker | undefined;
  let dir = "";
  let token = "";
  let researcherId = "";
  let annotator: { id: string; name: string };

  beforeAll(async () => {
    await resetDatabase();
    await resetJobQueue();
    server = await startApiTestServer();
    worker = await startWorker({ pollMs: 100, queues: [QUEUES.import.name, QUEUES.export.name], periodic: false });
    const researcher = await createUser("RESEARCHER");
    researcherId = researcher.id;
    token = (await issueToken(researcher.id, { name: "notebook", scopes: ["read", "manage"], expiresInDays: 1 }, researcher.id)).token;
    annotator = await createUser("ANNOTATOR", { name: "Ana Ruiz" });
    dir = mkdtempSync(path.join(tmpdir(), "notebook-flow-"));
    mkdirSync(path.join(dir, "release"));
    for (const file of ["questions.json", "subset_answers.json"]) copyFileSync(path.join(release, file), path.join(dir, "release", file));
  });
  afterAll(async () => {
    await worker?.stop();
    await stopBoss();
    await server?.close();
    await disconnectDb();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("runs the whole flow with a researcher's token and prints its summary", async () => {
    const questions = JSON.parse(readFileSync(path.join(release, "questions.json"), "utf8")) as Array<{ q_uid: string }>;
    const uids = questions.map((q) => q.q_uid);
    // EgoSchema's submission file, {q_uid: 0-4}, as a model's evaluation writes it
    writeFileSync(path.join(dir, "egoschema-outputs.json"), JSON.stringify(Object.fromEntries(uids.map((uid) => [uid, 3]))));
    const out = path.join(dir, "predictions.csv");
    const run = await runFlow(
      [
        "--url",
        server.url,
        "--slug",
        "from-python",
        "--batch",
        path.join(dir, "release"),
        "--text-only",
        "--member",
        "Ana Ruiz",
        "--run",
        path.join(dir, "egoschema-outputs.json"),
        "--run-name",
        "model-x",
        "--out",
        out,
      ],
      { YARDSTICK_TOKEN: token },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual([
      "study: from-python",
      `import: SUCCEEDED, ${uids.length} items (${uids.length} new, 0 skipped)`,
      "members: 1 added",
      `progress: 0 of ${uids.length} answers, ${uids.length} items`,
      `model run: model-x, format egoschema, ${uids.length} scored, 0 unparsed`,
      `dashboard: ${uids.length} items, models model-x`,
      `export: from-python-predictions.csv, ${uids.length} rows, ${readFileSync(out).length} bytes, sha256 checked -> ${out}`,
    ]);

    const study = await db.study.findUniqueOrThrow({ where: { slug: "from-python" }, select: { id: true, createdById: true } });
    expect(study.createdById).toBe(researcherId);
    const items = await db.item.findMany({ where: { studyId: study.id }, select: { externalId: true, public: true } });
    expect(items.map((item) => item.externalId).sort()).toEqual([...uids].sort());
    for (const item of items) expect(item.public).not.toHaveProperty("media");
    expect(await db.studyMember.findMany({ where: { studyId: study.id }, select: { userId: true } })).toEqual([{ userId: annotator.id }]);
    const modelRun = await db.modelRun.findFirstOrThrow({ where: { studyId: study.id }, select: { name: true, _count: { select: { predictions: true } } } });
    expect(modelRun).toEqual({ name: "model-x", _count: { predictions: uids.length } });
    const exportJob = await db.exportJob.findFirstOrThrow({ where: { studyId: study.id }, select: { table: true, status: true, sha256: true } });
    expect(exportJob).toMatchObject({ table: "predictions", status: "SUCCEEDED" });
    const csv = readFileSync(out, "utf8");
    for (const uid of uids) expect(csv).toContain(uid);
  });

  it("stops with exit 1 and names the call on an answer it did not expect", async () => {
    const taken = await runFlow(["--url", server.url, "--slug", "from-python", "--batch", path.join(dir, "release")], { YARDSTICK_TOKEN: token });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/^notebook_flow: POST \/api\/studies answered 409, expected 201: .+/);
    expect(taken.stdout).toBe("");

    const refused = await runFlow(["--url", server.url, "--slug", "no-token", "--batch", path.join(dir, "release"), "--token", "ys_not-a-token"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^notebook_flow: POST \/api\/studies answered 401, expected 201/);

    // without "text only" the release's missing videos refuse the batch: the job fails, and the script says why
    const media = await runFlow(["--url", server.url, "--slug", "needs-videos", "--batch", path.join(dir, "release")], { YARDSTICK_TOKEN: token });
    expect(media.code).toBe(1);
    expect(media.stderr).toContain("notebook_flow: the import ended FAILED: ");
    expect(media.stderr).toContain(`videos/${questionsFirstUid()}.mp4`);
  });

  it("imports Python's standard library only", async () => {
    const check = await new Promise<Run>((resolve, reject) => {
      const script = [
        "import ast, sys",
        "tree = ast.parse(open(sys.argv[1]).read())",
        "names = {a.name.split('.')[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}",
        "names |= {n.module.split('.')[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}",
        "print(' '.join(sorted(names - set(sys.stdlib_module_names))))",
      ].join("\n");
      const child = spawn("python3", ["-c", script, path.join(root, "examples", "notebook_flow.py")]);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(check).toEqual({ code: 0, stdout: "\n", stderr: "" });
  });
});

function questionsFirstUid(): string {
  return (JSON.parse(readFileSync(path.join(release, "questions.json"), "utf8")) as Array<{ q_uid: string }>)[0].q_uid;
}
