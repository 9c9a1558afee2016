import { createServer, type Server } from "node:http";
import { test } from "@playwright/test";

/** A chat-completions request as the stand-in received it. */
export interface ChatRequest {
  model: string;
  temperature: number;
  seed?: number;
  messages: Array<{ role: string; content: string }>;
  chat_template_kwargs?: unknown;
}

/**
 * An OpenAI-compatible chat-completions stand-in for the spec's describe block, on port
 * E2E_PORT + 1000 (where playwright.config.ts points the app's scorer), started before its tests
 * and stopped after; `reply` gives the assistant's text for each request. Returns the requests
 * it received, in order.
 */
export function chatStandIn(reply: (request: ChatRequest) => string): ChatRequest[] {
  const requests: ChatRequest[] = [];
  let server: Server | null = null;
  test.beforeAll(async () => {
    const port = Number(process.env.E2E_PORT ?? 3310) + 1000;
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const parsed = JSON.parse(body) as ChatRequest;
        requests.push(parsed);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "x",
            object: "chat.completion",
            choices: [{ index: 0, message: { role: "assistant", content: reply(parsed) }, finish_reason: "stop" }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
  });
  test.afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });
  return requests;
}
