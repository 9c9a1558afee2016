import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { issueToken } from "@/lib/auth/api-tokens";
import { runScoreCommand } from "@/lib/cli/score";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { buildEsiDemo } from "@/scripts/demo-data/esi/esi-scenes";
import { miniEpisodeItem } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode-item";
import { getTaskModule, kindSettings, registerKind, taskKinds } from "@/lib/tasks";
import { agentContractOf, playAdviceOf } from "@/lib/tasks/agent-contract";
import type { AnyTaskModule, Json } from "@/lib/tasks/types";
import { TOY_KIND, toyCountModule } from "@/tests/fixtures/toy-kind/lib";
import { kindFixtureBuilder } from "../../e2e/kind-fixtures";
import { nextReplySchema, playStateReplySchema, playStepReplySchema } from "@/lib/validations/annotate-replies";
import type { Prisma } from "@/lib/generated/prisma/client";
import { addMember, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { getPlay, playStep } from "@/lib/annotate/play";
import { startApiTestServer, type ApiTestServer } from "@/tests/api/test-server";

const root = path.resolve(import.meta.dirname, "..", "..");

/** Runs examples/agent.py to its end; its printed outcome and exit code. */
function runAgent(server: ApiTestServer, token: string, slug: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("python3", [path.join(root, "examples", "agent.py"), "--study", slug, "--url", server.url], {
      env: { ...process.env, YARDSTICK_TOKEN: token },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function insertItems(studyId: string, lines: Array<{ id: string; kind: string; public: unknown; key: unknown; tags?: Record<string, string> }>) {
  const batch = await db.batch.create({ data: { studyId, fileName: "items.jsonl", checksum: `b-${Math.random()}`, itemCount: lines.length } });
  for (const line of lines) {
    const schema = getTaskModule(line.kind).itemSchema;
    if (!schema) throw new Error(`${line.kind} has no item schema`);
    const parsed = schema.parse({ public: line.public, key: line.key }) as { public: Prisma.InputJsonValue; key: Prisma.InputJsonValue };
    await db.item.create({
      data: {
        studyId,
        batchId: batch.id,
        externalId: line.id,
        kind: line.kind,
        public: parsed.public,
        key: parsed.key,
        tags: line.tags ?? {},
        contentHash: line.id,
      },
    });
  }
}

/** Makes an agent through the API with the researcher's manage token, as a notebook would. */
async function agentToken(server: ApiTestServer, researcherToken: string, slug: string): Promise<{ id: string; token: string }> {
  const response = await fetch(`${server.url}/api/studies/${slug}/agents`, {
    method: "POST",
    headers: { authorization: `Bearer ${researcherToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "baseline", model: "trivial-policy", notes: "examples/agent.py" }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { agent: { id: string }; token: string };
  return { id: body.agent.id, token: body.token };
}

/**
 * What the agent was told besides the views: each item came with the agent contract and
 * each play answer with the example action, in the shapes the OpenAPI document gives
 * (lib/validations/annotate-replies.ts), and each is exactly what the kind computes from what the
 * agent already had, the public view and the play view: nothing of the key can be in it.
 */
function checkAgentReplies(server: ApiTestServer, slug: string, taskSettings: unknown): { items: number; plays: number } {
  const views = new Map<string, { kind: string; view: Json }>();
  let items = 0;
  let plays = 0;
  for (const seen of server.seen) {
    if (seen.status !== 200) continue;
    if (seen.path.startsWith(`/api/annotate/studies/${slug}/next`)) {
      const next = nextReplySchema.parse(JSON.parse(seen.body));
      if (next.status !== "item") continue;
      const assignment = next.assignment!;
      const kindModule = getTaskModule(assignment.kind);
      expect(assignment.agent, "the agent contract comes with an API token").toBeDefined();
      expect(assignment.agent).toEqual(agentContractOf(kindModule, assignment.view as Json, kindSettings(taskSettings, assignment.kind)));
      views.set(assignment.assignmentId, { kind: assignment.kind, view: assignment.view as Json });
      items++;
    }
    const play = /^\/api\/annotate\/assignments\/([^/]+)\/play$/.exec(seen.path);
    if (play) {
      const reply = seen.method === "GET" ? playStateReplySchema.parse(JSON.parse(seen.body)) : playStepReplySchema.parse(JSON.parse(seen.body));
      const shown = views.get(play[1])!;
      expect(reply.exampleAction, "the example action comes with an API token").not.toBeUndefined();
      expect({ canAct: reply.canAct, exampleAction: reply.exampleAction }).toEqual(
        playAdviceOf(getTaskModule(shown.kind), shown.view, reply.view as Json, reply.seq),
      );
      plays++;
    }
  }
  return { items, plays };
}

/** The agent's recorded answers, scored offline by `yardstick score` (lib/cli/score.ts, the CLI's own function), beside the server's stored scores. */
async function offlineAndStored(studyId: string, agentId: string) {
  const responses = await db.response.findMany({
    where: { assignment: { studyId, userId: agentId } },
    select: { answer: true, score: true, assignment: { select: { item: { select: { externalId: true, kind: true, public: true, key: true } } } } },
    orderBy: { assignment: { item: { externalId: "asc" } } },
  });
  const items = responses
    .map((r) =>
      JSON.stringify({ id: r.assignment.item.externalId, kind: r.assignment.item.kind, public: r.assignment.item.public, key: r.assignment.item.key }),
    )
    .join("\n");
  const answers = responses.map((r) => JSON.stringify({ id: r.assignment.item.externalId, answer: r.answer })).join("\n");
  const offline = JSON.parse(runScoreCommand(items, answers)) as { items: Array<Record<string, unknown>> };
  const stored = responses.map((r) => ({ id: r.assignment.item.externalId, ...(r.score as Record<string, unknown>) }));
  return { offline: offline.items, stored };
}

describe("examples/agent.py plays a study through the people's API", () => {
  let server: ApiTestServer;
  beforeAll(async () => {
    server = await startApiTestServer();
  });
  beforeEach(async () => {
    await resetDatabase();
    server.seen.length = 0;
  });
  afterAll(async () => {
    await server.close();
    await disconnectDb();
  });

  it("finishes an ESI study (active exploration through the play endpoint), never sees the key, and scores as yardstick score does", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    await db.study.update({ where: { id: study.id }, data: { conditions: ["active"], confidenceScale: "PERCENT" } });
    const demo = buildEsiDemo().items.slice(0, 3);
    await insertItems(
      study.id,
      demo.map((item) => ({ id: item.id, kind: "esi-explore", public: item.public, key: item.key, tags: item.tags })),
    );
    const manage = (await issueToken(researcher.id, { name: "notebook", scopes: ["manage", "read"], expiresInDays: 1 }, researcher.id)).token;
    const agent = await agentToken(server, manage, study.slug);

    const run = await runAgent(server, agent.token, study.slug);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim().split("\n").pop()!)).toEqual({ status: "done", answered: 3, skipped: 0 });

    // stored as a person's: every item answered, each with its steps and trajectory, the agent marked as one
    const assignments = await db.assignment.findMany({
      where: { studyId: study.id },
      select: { userId: true, status: true, _count: { select: { playSteps: true, events: true } } },
    });
    expect(assignments).toHaveLength(3);
    for (const a of assignments) {
      expect(a).toMatchObject({ userId: agent.id, status: "SUBMITTED" });
      expect(a._count.playSteps).toBe(4); // the start and three moves
      expect(a._count.events).toBe(5); // shown, three steps, submitted
    }
    expect(await db.user.findUniqueOrThrow({ where: { id: agent.id }, select: { isAgent: true, agentModel: true } })).toEqual({
      isAgent: true,
      agentModel: "trivial-policy",
    });

    // what the agent was sent: the public view and the current observation, never the graph or the answer
    const sent = server.seen
      .filter((s) => s.path.startsWith("/api/annotate"))
      .map((s) => s.body)
      .join("\n");
    for (const word of ['"graph":', '"edges":', '"states":', '"contrastive":', '"trace":', '"playState":', '"key":']) expect(sent).not.toContain(word);
    // and the agent contract and example actions with them: the kind's, from the public and play views alone
    expect(checkAgentReplies(server, study.slug, {})).toEqual({ items: 3, plays: 12 });

    const { offline, stored } = await offlineAndStored(study.id, agent.id);
    expect(offline).toEqual(stored);
    expect(stored.map((s) => s.id).sort()).toEqual(demo.map((d) => d.id).sort());

    // the dashboard: the agent beside the humans as a run of its own, never among the annotators
    const dashboard = await getStudyDashboard(study.slug, {});
    expect(dashboard.annotators).toEqual([]);
    expect(dashboard.models.map((m) => m.id)).toEqual([`agent:${agent.id}`]);
    expect(dashboard.models[0].name).toBe("Agent baseline (trivial-policy)");
    expect(dashboard.accuracy.modelRows.some((row) => JSON.stringify(row).includes(`agent:${agent.id}`))).toBe(true);
  });

  it("finishes an Ego2World study one action at a time, with the scores yardstick score gives its recorded answers", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    await insertItems(study.id, [miniEpisodeItem("ep-1"), miniEpisodeItem("ep-2")]);
    const manage = (await issueToken(researcher.id, { name: "notebook", scopes: ["manage"], expiresInDays: 1 }, researcher.id)).token;
    const agent = await agentToken(server, manage, study.slug);

    const run = await runAgent(server, agent.token, study.slug);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim().split("\n").pop()!)).toEqual({ status: "done", answered: 2, skipped: 0 });

    const sent = server.seen
      .filter((s) => s.path.startsWith("/api/annotate"))
      .map((s) => s.body)
      .join("\n");
    for (const word of ['"goal":', '"reference":', '"keyActions":', '"rules":', '"world":']) expect(sent).not.toContain(word);
    expect(checkAgentReplies(server, study.slug, {})).toEqual({ items: 2, plays: 10 });

    const { offline, stored } = await offlineAndStored(study.id, agent.id);
    expect(stored).toHaveLength(2);
    expect(offline).toEqual(stored);
    // the answer is what the server recorded step by step: one pick-up try of the first thing in view, then "done", per task
    const answers = await db.response.findMany({ where: { assignment: { studyId: study.id } }, select: { answer: true } });
    for (const { answer } of answers) expect((answer as { tasks: Array<{ actions: string[] }> }).tasks.map((t) => t.actions.length)).toEqual([1, 1]);
  });

  it("answers a study of every registered kind and of a plug-in kind from the agent contract alone, naming none, and skips a kind that gives no example", async () => {
    // a plug-in kind registered at run time (the test server runs in this process): the toy kind with an agent part, and the toy kind without one
    const toyWithContract: AnyTaskModule = {
      ...toyCountModule,
      kind: "toy-count-agent",
      agent: { answerInstructions: 'Count the dots in the image: answer {"count": n}.', exampleAnswer: () => ({ count: 0 }) },
      // `yardstick score` reads stored answers too (the toy kind reads a bare number only)
      parseModelAnswer: (raw) => (toyCountModule.answerSchema.safeParse(raw).success ? raw : toyCountModule.parseModelAnswer(raw)),
    };
    const appKinds = [...taskKinds];
    registerKind(toyWithContract);
    registerKind(toyCountModule);
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    const batch = await db.batch.create({
      data: { studyId: study.id, fileName: "kinds.jsonl", checksum: `kinds-${Math.random()}`, itemCount: appKinds.length + 2 },
    });
    const fakeImage = async (name: string) => `/api/assets/${createHash("sha256").update(name).digest("hex")}`;
    const lines: Array<{ kind: string; public: unknown; key: unknown }> = [];
    for (const kind of appKinds) {
      const fixture = await kindFixtureBuilder(kind)("AgentKinds", fakeImage);
      lines.push({ kind, public: fixture.public, key: fixture.key });
    }
    lines.push(
      { kind: "toy-count-agent", public: { image: await fakeImage("dots") }, key: { count: 3 } },
      { kind: TOY_KIND, public: { image: await fakeImage("dots-2") }, key: { count: 2 } },
    );
    for (const [i, line] of lines.entries()) {
      const kindModule = getTaskModule(line.kind);
      const parsed = kindModule.itemSchema
        ? kindModule.itemSchema.parse({ public: line.public, key: line.key })
        : { public: kindModule.publicSchema.parse(line.public), key: kindModule.keySchema.parse(line.key) };
      const id = `${String(i).padStart(2, "0")}-${line.kind}`;
      await db.item.create({
        data: {
          studyId: study.id,
          batchId: batch.id,
          externalId: id,
          kind: line.kind,
          public: parsed.public as Prisma.InputJsonValue,
          key: parsed.key as Prisma.InputJsonValue,
          contentHash: id,
        },
      });
    }
    const manage = (await issueToken(researcher.id, { name: "notebook", scopes: ["manage"], expiresInDays: 1 }, researcher.id)).token;
    const agent = await agentToken(server, manage, study.slug);

    const run = await runAgent(server, agent.token, study.slug);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim().split("\n").pop()!)).toEqual({ status: "done", answered: lines.length - 1, skipped: 1 });
    expect(run.stdout).toContain(`no answer for this item (${TOY_KIND}): skipped`);

    // every answer is the kind's example, stored and scored as a person's, and as yardstick score scores it
    const { offline, stored } = await offlineAndStored(study.id, agent.id);
    expect(stored.map((row) => row.id)).toEqual(lines.slice(0, -1).map((line, i) => `${String(i).padStart(2, "0")}-${line.kind}`));
    // a file of several kinds: yardstick score names each row's kind and prints the kind's row of the score (scoreRow)
    const storedRows = stored.map(({ id, ...score }) => {
      const kind = id.slice(3);
      const scoreRow = getTaskModule(kind).scoreRow;
      return { id, kind, ...(scoreRow ? scoreRow(score) : score) };
    });
    expect(offline).toEqual(storedRows);
    const toy = await db.response.findFirstOrThrow({
      where: { assignment: { userId: agent.id, item: { kind: "toy-count-agent" } } },
      select: { answer: true, score: true },
    });
    expect(toy).toEqual({ answer: { count: 0 }, score: { correct: false } });
    expect(checkAgentReplies(server, study.slug, {}).items).toBe(lines.length);
  });

  it("stops an agent at the study's cap on agent steps (429), and people are not capped", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    await db.study.update({ where: { id: study.id }, data: { agentStepCap: 2 } });
    await insertItems(study.id, [miniEpisodeItem("ep-1")]);
    const manage = (await issueToken(researcher.id, { name: "notebook", scopes: ["manage"], expiresInDays: 1 }, researcher.id)).token;
    const agent = await agentToken(server, manage, study.slug);
    const run = await runAgent(server, agent.token, study.slug);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("HTTP 429");
    expect(run.stderr).toContain("cap on agent steps");
    const steps = await db.playStep.count({ where: { assignment: { studyId: study.id }, seq: { gt: 0 } } });
    expect(steps).toBe(2);
    // a person in the same study plays on past the agents' cap
    const person = await createUser("ANNOTATOR");
    await addMember(study.id, person.id);
    const item = await db.item.findFirstOrThrow({ where: { studyId: study.id } });
    const assignment = await db.assignment.create({ data: { studyId: study.id, itemId: item.id, userId: person.id, position: 0 } });
    await getPlay(person.id, assignment.id);
    for (let seq = 1; seq <= 3; seq++)
      expect((await playStep(person.id, assignment.id, { seq, action: { type: "act", action: "go_to(drawer)" } })).seq).toBe(seq);
  });
});
