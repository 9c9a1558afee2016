import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startSimulatorEpisode, stepSimulatorEpisode } from "@/lib/tasks/esi-explore/simulator-client";

const episode = { episodeId: "ep-1", image: "https://sim.local/frame.png", objects: ["mug_1"] };
const request = { itemId: "item-1", assignmentId: "a-1", scene: null, room: null, initialPose: null };

/** a fetch that answers from a list, one entry per call: a Response, or an error to throw */
function scriptedFetch(script: Array<Response | Error>) {
  const calls: string[] = [];
  const impl = (async (url: string | URL | Request) => {
    calls.push(String(url));
    const next = script.shift();
    if (!next) throw new Error("no more scripted replies");
    if (next instanceof Error) throw next;
    return next;
  }) as typeof fetch;
  return { impl, calls };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const options = (fetchImpl: typeof fetch, retries = 2) => ({ baseUrl: "http://sim.local:8080/", retries, timeoutMs: 500, firstBackoffMs: 0, fetchImpl });

describe("the simulator client's tries", () => {
  beforeEach(() => {
    vi.stubEnv("YARDSTICK_SIMULATOR_HOSTS", "sim.local:8080");
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("tries again after a network error and a 5xx, and returns the first good reply", async () => {
    const fetchImpl = scriptedFetch([new TypeError("fetch failed", { cause: { code: "ECONNRESET" } }), json({ error: "busy" }, 503), json(episode)]);
    await expect(startSimulatorEpisode(options(fetchImpl.impl), request)).resolves.toMatchObject({ episodeId: "ep-1" });
    expect(fetchImpl.calls).toEqual(["http://sim.local:8080/episodes", "http://sim.local:8080/episodes", "http://sim.local:8080/episodes"]);
  });

  it("gives up after retries + 1 tries, naming each failure and the tries", async () => {
    const fetchImpl = scriptedFetch([
      json({}, 500),
      Object.assign(new DOMException("timed out", "TimeoutError")),
      new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }),
    ]);
    const error = await stepSimulatorEpisode(options(fetchImpl.impl), "ep-1", { action: "open(door_1)", seq: 3 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UNAVAILABLE" });
    expect((error as Error).message).toContain("(step 3: HTTP 500; timed out; connection refused; 3 tries of 0.5 s.)");
    expect(fetchImpl.calls).toHaveLength(3);
  });

  it("does not try again after a 4xx, a redirect or a malformed reply", async () => {
    for (const reply of [json({ error: "no" }, 404), new Response(null, { status: 302, headers: { location: "http://10.0.0.1/" } }), json({ image: 5 })]) {
      const fetchImpl = scriptedFetch([reply, json(episode)]);
      await expect(startSimulatorEpisode(options(fetchImpl.impl), request)).rejects.toMatchObject({ code: "UNAVAILABLE" });
      expect(fetchImpl.calls).toHaveLength(1);
    }
  });

  it("waits between tries, doubling from the first wait", async () => {
    const fetchImpl = scriptedFetch([json({}, 502), json({}, 502), json(episode)]);
    const started = performance.now();
    await startSimulatorEpisode({ ...options(fetchImpl.impl), firstBackoffMs: 40 }, request);
    expect(performance.now() - started).toBeGreaterThanOrEqual(40 + 80 - 5);
  });
});
