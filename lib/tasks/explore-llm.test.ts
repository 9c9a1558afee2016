import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { llmPhraseScore, llmScorerFromEnv, llmScorerPrompt, LlmScorerError, parseLlmScore } from "@/lib/tasks/explore-llm";

// a tiny stand-in that answers like an OpenAI-compatible chat-completions server
const requests: Array<Record<string, unknown>> = [];
let server: Server;
let url = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const parsed = JSON.parse(body) as { messages: Array<{ content: string }> };
      requests.push(parsed);
      const prompt = parsed.messages[0].content;
      if (prompt.includes("'broken'")) {
        res.writeHead(500).end("boom");
        return;
      }
      const content = prompt.includes("ceramic") ? "<think>the colour matches</think>4" : "0";
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "x", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("explore LLM scorer", () => {
  it("asks with the paper's prompt at temperature 0 and parses the score", async () => {
    const config = llmScorerFromEnv({ SCORER_LLM_URL: url })!;
    expect(await llmPhraseScore(config, "A white ceramic bowl.", "white ceramic bowl", "attributes")).toEqual({ score: 4, reply: "<think>the colour matches</think>4" });
    expect((await llmPhraseScore(config, "A cup.", "bowl on counter", "relations")).score).toBe(0);
    expect(requests[0]).toMatchObject({ model: "Qwen3-8B", temperature: 0 });
    expect((requests[0].messages as Array<{ content: string }>)[0].content).toBe(llmScorerPrompt("A white ceramic bowl.", "white ceramic bowl", "attributes"));
    // the paper's prompt (explore.md, Scoring, step 4), character for character
    expect(llmScorerPrompt("A bowl is on the counter.", "bowl on kitchen counter", "relations")).toBe(
      "Sentence: 'A bowl is on the counter.'. Phrase: 'bowl on kitchen counter'. Please check if the sentence contains parts that accurately describe the relations referenced in the provided phrase and provide an integer score as a single number from 0 to 5 without explanation.",
    );
    expect(llmScorerPrompt("s", "p", "attributes")).toContain("accurately describe the attributes referenced in the provided phrase");
  });

  it("fails on HTTP errors (5xx retryable) and is off without SCORER_LLM_URL", async () => {
    const error = await llmPhraseScore({ url, model: "m" }, "broken", "broken", "attributes").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmScorerError);
    expect((error as LlmScorerError).message).toContain("HTTP 500");
    expect((error as LlmScorerError).retryable).toBe(true);
    expect(llmScorerFromEnv({})).toBeNull();
    expect(llmScorerFromEnv({ SCORER_LLM_URL: url, SCORER_LLM_MODEL: "my-model", SCORER_LLM_API_KEY: "k", SCORER_LLM_CONCURRENCY: "2" })).toMatchObject({ model: "my-model", apiKey: "k", concurrency: 2 });
  });

  it("reads the first 0-5 integer", () => {
    expect(parseLlmScore("3")).toBe(3);
    expect(parseLlmScore("Score: 5")).toBe(5);
    expect(parseLlmScore("7")).toBeNull();
    expect(parseLlmScore("none")).toBeNull();
  });
});
