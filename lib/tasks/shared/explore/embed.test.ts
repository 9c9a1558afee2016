import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embedderFromEnv, embedTexts } from "@/lib/scoring/embed";
import { embeddingMatrixFor } from "@/lib/tasks/shared/explore/embed";
import { planExploreLlmScore } from "@/lib/tasks/shared/explore/llm-scorer";
import { exploreSceneKeySchema } from "@/lib/tasks/explore-scene";
import { scoreStructured } from "@/lib/tasks/shared/explore/scorer";

/**
 * Object matching with the paper's embedder: a local stand-in for an OpenAI-compatible
 * /v1/embeddings server (all-MiniLM-L6-v2), on a free loopback port. Its vectors are fixed per
 * word so the cosines are known: mug and cup 0.8 (WordNet relates them not at all), sink 0 to both.
 */
const VECTORS: Record<string, number[]> = { cup: [1, 0, 0], mug: [0.8, 0.6, 0], sink: [0, 0, 1], bowl: [0.6, 0, 0.8] };
const received: Array<{ model: string; input: string[] }> = [];
let server: Server;
let url = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const parsed = JSON.parse(body) as { model: string; input: string[] };
      received.push(parsed);
      if (parsed.input.includes("broken")) {
        res.writeHead(503).end("down");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      // in reverse order, with indices, as servers may send them
      const data = parsed.input.map((text, index) => ({ object: "embedding", index, embedding: VECTORS[text] ?? [0, 1, 0] })).reverse();
      res.end(JSON.stringify({ object: "list", model: parsed.model, data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("EXPLORE object matching by embeddings", () => {
  it("is configured by SCORER_EMBED_URL (the paper's all-MiniLM-L6-v2 by default) and off without it", () => {
    expect(embedderFromEnv({})).toBeNull();
    expect(embedderFromEnv({ SCORER_EMBED_URL: url })).toMatchObject({ url, model: "all-MiniLM-L6-v2" });
  });

  it("sends the texts, reads the embeddings in their order, and names the server when it fails", async () => {
    const config = embedderFromEnv({ SCORER_EMBED_URL: url })!;
    expect(await embedTexts(config, ["cup", "sink"])).toEqual([VECTORS.cup, VECTORS.sink]);
    expect(received.at(-1)).toEqual({ model: "all-MiniLM-L6-v2", input: ["cup", "sink"] });
    await expect(embedTexts(config, ["broken"])).rejects.toThrow(`embedder at ${url} answered HTTP 503`);
  });

  it("object similarity is the embeddings' cosine: S_obj from the cosine matrix, not from WordNet", async () => {
    const config = embedderFromEnv({ SCORER_EMBED_URL: url })!;
    const key = exploreSceneKeySchema.parse({ objects: [{ category: "cup", description: "white cup" }, { category: "sink" }] });
    const answer = { objects: [{ category: "mugs", description: "white", relation: [] }], text: "" };
    // lemma/WordNet: mug and cup are unrelated
    expect(scoreStructured(answer, key).S_obj).toBe(0);
    const vectors = new Map<string, number[]>();
    const similarity = await embeddingMatrixFor(config, vectors, answer, key);
    expect([...vectors.keys()].sort()).toEqual(["cup", "mug", "sink"]);
    const score = scoreStructured(answer, key, similarity);
    expect(score.matched).toEqual([expect.objectContaining({ annotatedCategory: "cup", predictedCategory: "mugs", similarity: 0.8 })]);
    expect(score.S_obj).toBeCloseTo((100 * 0.8) / 2);
    // the LLM scorer's plan uses the same matching
    expect(planExploreLlmScore(answer, key, similarity).S_obj).toBeCloseTo(40);
    // texts already embedded are not sent again
    const before = received.length;
    await embeddingMatrixFor(config, vectors, answer, key);
    expect(received.length).toBe(before);
  }, 60_000);
});
