import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { issueToken } from "@/lib/auth/api-tokens";
import { importBatchFromPath } from "@/lib/import";
import { buildEsiDemo } from "@/scripts/demo-data/esi/esi-scenes";
import { esiItemSchema } from "@/lib/tasks/esi-explore";
import { getTaskModule } from "@/lib/tasks";
import { agentContractOf } from "@/lib/tasks/agent-contract";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";
import { batchFiles, forwardItem, removeTempFolders, writeFolder } from "@/tests/fixtures/import-batches";
import { startApiTestServer, type ApiTestServer } from "@/tests/api/test-server";

const root = path.resolve(import.meta.dirname, "..", "..");

interface ChatRequest {
  authorization: string | undefined;
  body: {
    model: string;
    temperature: number;
    messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string } }> }>;
  };
}

/**
 * A stand-in for an OpenAI-compatible chat endpoint: it reads the item's view from the prompt and
 * replies as a model would: ENACT, the candidates reversed; ESI, one turn and then the first option.
 */
async function startStandIn(): Promise<{ url: string; requests: ChatRequest[]; close: () => Promise<void> }> {
  const requests: ChatRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as ChatRequest["body"];
    requests.push({ authorization: req.headers.authorization, body });
    const user = body.messages.find((m) => m.role === "user")!;
    const text = (user.content as Array<{ type: string; text?: string }>).find((part) => part.type === "text")!.text!;
    const view = JSON.parse(text.split("\n")[2]) as { candidates?: unknown[]; options?: string[] };
    let reply: unknown;
    if (text.includes("Task kind: enact-forward")) reply = { answer: { order: view.candidates!.map((_, i) => i).reverse() } };
    else if (text.includes("What you see now") && (JSON.parse(text.split("\n")[4]) as { step: number }).step === 0)
      reply = { action: { name: "turn_left", args: [] } };
    else reply = { answer: { choice: view.options![0] } };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: "Here you go:\n```json\n" + JSON.stringify(reply) + "\n```" } }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The prompt's text, and what it says the server's agent contract is (a line "<label>: <text or JSON>" each). */
function promptOf(request: ChatRequest): { text: string; line(label: string): string | undefined; json(label: string): unknown } {
  const text = (request.body.messages[1].content as Array<{ type: string; text?: string }>).find((part) => part.type === "text")!.text!;
  const line = (label: string) =>
    text
      .split("\n")
      .find((l) => l.startsWith(`${label}: `))
      ?.slice(label.length + 2);
  return { text, line, json: (label: string) => JSON.parse(line(label) ?? "null") as unknown };
}

function runOpenAiAgent(server: ApiTestServer, standIn: string, token: string, slug: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("python3", [path.join(root, "examples", "agent_openai.py"), "--study", slug, "--url", server.url], {
      env: { ...process.env, YARDSTICK_TOKEN: token, OPENAI_BASE_URL: standIn, OPENAI_API_KEY: "sk-stand-in", OPENAI_MODEL: "stand-in-model" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function agentFor(researcherId: string, slug: string, server: ApiTestServer): Promise<{ id: string; token: string }> {
  const manage = (await issueToken(researcherId, { name: "notebook", scopes: ["manage"], expiresInDays: 1 }, researcherId)).token;
  const response = await fetch(`${server.url}/api/studies/${slug}/agents`, {
    method: "POST",
    headers: { authorization: `Bearer ${manage}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "chat", model: "stand-in-model" }),
  });
  const body = (await response.json()) as { agent: { id: string }; token: string };
  return { id: body.agent.id, token: body.token };
}

describe("examples/agent_openai.py against a stand-in chat endpoint", () => {
  let server: ApiTestServer;
  let standIn: Awaited<ReturnType<typeof startStandIn>>;
  beforeAll(async () => {
    await resetDatabase();
    server = await startApiTestServer();
    standIn = await startStandIn();
  });
  afterAll(async () => {
    await standIn.close();
    await server.close();
    await removeTempFolders();
    await disconnectDb();
  });

  it("answers ENACT items from a prompt with the public view and its images as data URLs", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    const items = [forwardItem("fwd-1", { order: [1, 0] }), forwardItem("fwd-2", { order: [0, 1] })];
    await importBatchFromPath(await writeFolder(await batchFiles(items)), { studySlug: study.slug, importedById: researcher.id });
    const agent = await agentFor(researcher.id, study.slug, server);
    standIn.requests.length = 0;

    const run = await runOpenAiAgent(server, standIn.url, agent.token, study.slug);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout.trim().split("\n").pop()!)).toEqual({ status: "done", answered: 2, skipped: 0 });

    expect(standIn.requests).toHaveLength(2);
    for (const request of standIn.requests) {
      expect(request.authorization).toBe("Bearer sk-stand-in");
      expect(request.body.model).toBe("stand-in-model");
      expect(request.body.temperature).toBe(0);
      const parts = request.body.messages[1].content as Array<{ type: string; image_url?: { url: string } }>;
      const images = parts.filter((part) => part.type === "image_url");
      expect(images).toHaveLength(3); // the initial image and the two candidates
      for (const image of images) expect(image.image_url!.url).toMatch(/^data:image\/png;base64,iVBOR/);
      expect(JSON.stringify(request.body)).not.toContain('"key"');
      // the prompt says what the server's agent contract says: what an answer means and its JSON Schema
      const contract = agentContractOf(getTaskModule("enact-forward"), {}, {});
      const prompt = promptOf(request);
      expect(prompt.line("What an answer means")).toBe(contract.answerInstructions);
      expect(prompt.json("The answer's JSON Schema")).toEqual(contract.answerSchema);
      expect(prompt.line("An action's JSON Schema")).toBeUndefined();
    }
    // the model's answers (the candidates reversed), stored and scored by the server: fwd-1's key is [1, 0]
    const responses = await db.response.findMany({
      where: { assignment: { userId: agent.id } },
      select: { answer: true, correct: true, assignment: { select: { item: { select: { externalId: true } } } } },
    });
    const byItem = Object.fromEntries(responses.map((r) => [r.assignment.item.externalId, { answer: r.answer, correct: r.correct }]));
    expect(byItem).toEqual({ "fwd-1": { answer: { order: [1, 0] }, correct: true }, "fwd-2": { answer: { order: [1, 0] }, correct: false } });
  });

  it("explores an ESI item one action at a time as the model says, then answers", async () => {
    const researcher = await createUser("RESEARCHER");
    const study = await createStudy();
    await db.study.update({ where: { id: study.id }, data: { conditions: ["active"], confidenceScale: "PERCENT" } });
    const demo = buildEsiDemo().items[0];
    const parsed = esiItemSchema.parse({ public: demo.public, key: demo.key });
    const batch = await db.batch.create({ data: { studyId: study.id, fileName: "esi.jsonl", checksum: `esi-${Math.random()}`, itemCount: 1 } });
    await db.item.create({
      data: {
        studyId: study.id,
        batchId: batch.id,
        externalId: demo.id,
        kind: "esi-explore",
        public: parsed.public as Prisma.InputJsonValue,
        key: parsed.key as Prisma.InputJsonValue,
        contentHash: demo.id,
      },
    });
    const agent = await agentFor(researcher.id, study.slug, server);
    standIn.requests.length = 0;

    const run = await runOpenAiAgent(server, standIn.url, agent.token, study.slug);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout.trim().split("\n").pop()!)).toEqual({ status: "done", answered: 1, skipped: 0 });
    expect(standIn.requests).toHaveLength(2); // one action, then the answer
    const contract = agentContractOf(getTaskModule("esi-explore"), {}, {});
    for (const request of standIn.requests) {
      const prompt = promptOf(request);
      expect(prompt.line("What an answer means")).toBe(contract.answerInstructions);
      expect(prompt.json("The answer's JSON Schema")).toEqual(contract.answerSchema);
      expect(prompt.line("What an action means")).toBe(contract.actionInstructions);
      expect(prompt.json("An action's JSON Schema")).toEqual(contract.actionSchema);
    }
    const steps = await db.playStep.findMany({ where: { assignment: { userId: agent.id } }, orderBy: { seq: "asc" }, select: { seq: true, action: true } });
    expect(steps).toEqual([
      { seq: 0, action: {} },
      { seq: 1, action: { name: "turn_left", args: [] } },
    ]);
    const response = await db.response.findFirstOrThrow({ where: { assignment: { userId: agent.id } }, select: { answer: true } });
    expect(response.answer).toMatchObject({ choice: (parsed.public.options as string[])[0], steps: 1 });
  });
});
