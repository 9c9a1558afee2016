import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SubmissionRefused, TrajectoryQueue, type QueueStorage } from "@/lib/client/trajectory-queue";
import type { ResponseCreateInput, TrajectoryEvent } from "@/lib/validations/annotate";

class MemoryStorage implements QueueStorage {
  map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

type Handler = (url: string, body: unknown) => { status: number; body?: unknown } | "network-error";

/** A fake server: stores events by (assignment, seq) once and responses by clientId once. */
class FakeServer {
  events = new Map<string, TrajectoryEvent>();
  responses = new Map<string, ResponseCreateInput>();
  calls: Array<{ url: string; body: unknown }> = [];
  down = false;
  override: Handler | null = null;

  fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body));
    this.calls.push({ url: String(url), body });
    const result = this.override ? this.override(String(url), body) : this.handle(String(url), body);
    if (result === "network-error") throw new TypeError("Failed to fetch");
    return new Response(result.body === undefined ? "" : JSON.stringify(result.body), {
      status: result.status,
      headers: { "content-type": "application/json" },
    });
  }) as unknown as typeof fetch;

  private handle(url: string, body: unknown): { status: number; body?: unknown } | "network-error" {
    if (this.down) return "network-error";
    if (url.endsWith("/events")) {
      const acked: Record<string, number[]> = {};
      for (const event of (body as { events: TrajectoryEvent[] }).events) {
        const key = `${event.assignmentId}#${event.seq}`;
        if (!this.events.has(key)) this.events.set(key, event);
        (acked[event.assignmentId] ??= []).push(event.seq);
      }
      return { status: 200, body: { acked } };
    }
    const input = body as ResponseCreateInput;
    const duplicate = this.responses.has(input.clientId);
    if (!duplicate) this.responses.set(input.clientId, input);
    return { status: 200, body: { responseId: `r-${input.clientId}`, assignmentId: input.assignmentId, clientId: input.clientId, duplicate, purpose: "MAIN" } };
  }
}

const event = (seq: number, assignmentId = "a1"): TrajectoryEvent => ({
  assignmentId,
  seq,
  clientTime: 1_700_000_000_000 + seq,
  type: "page_visible",
  payload: {},
});
const cursor = (nextSeq: number) => ({ nextSeq, tally: null });
const submission = (assignmentId = "a1", submitSeq = 2): ResponseCreateInput => ({
  assignmentId,
  clientId: "0b6f1f4e-6a55-4b2b-8d0f-8a8f5e5b2c01",
  answer: { order: [0, 1] },
  confidence: 3,
  wallMs: 1000,
  activeMs: 900,
  submitSeq,
});

describe("TrajectoryQueue", () => {
  let storage: MemoryStorage;
  let server: FakeServer;
  const make = (extra: Partial<ConstructorParameters<typeof TrajectoryQueue>[0]> = {}) =>
    new TrajectoryQueue({ storage, key: "outbox:u1", fetch: server.fetch, random: () => 1, batchDelayMs: 100, baseRetryMs: 1000, maxRetryMs: 8000, ...extra });

  beforeEach(() => {
    vi.useFakeTimers();
    storage = new MemoryStorage();
    server = new FakeServer();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("still hands a reopened page the events it sent before the item was shown (eventsOf), from memory only", async () => {
    const closed = make();
    server.down = true;
    for (const seq of [2, 3, 4]) closed.enqueue(event(seq), cursor(seq + 1));
    await vi.advanceTimersByTimeAsync(100);
    expect(closed.pendingEventsOf("a1")).toHaveLength(3);
    // the tab is opened again, online: its queue sends the outbox at once
    server.down = false;
    const reopened = make();
    await reopened.flush();
    expect(reopened.pendingEventsOf("a1")).toEqual([]);
    expect(reopened.eventsOf("a1").map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(reopened.eventsOf("a2")).toEqual([]);
    expect(JSON.parse(storage.getItem("outbox:u1")!).events).toHaveLength(0);
    expect(make().eventsOf("a1")).toEqual([]); // not persisted: the server has them now
  });

  it("persists events before sending, batches them, and forgets them once acknowledged", async () => {
    const queue = make();
    queue.enqueue(event(0), cursor(1));
    queue.enqueue(event(1), cursor(2));
    expect(JSON.parse(storage.getItem("outbox:u1")!).events).toHaveLength(2);
    expect(server.calls).toHaveLength(0); // batched: nothing sent yet
    await vi.advanceTimersByTimeAsync(100);
    expect(server.calls).toHaveLength(1);
    expect((server.calls[0].body as { events: unknown[] }).events).toHaveLength(2);
    expect(queue.status().pendingEvents).toBe(0);
    expect(JSON.parse(storage.getItem("outbox:u1")!).events).toHaveLength(0);
    expect(queue.cursor("a1")).toEqual(cursor(2));
  });

  it("splits large backlogs into batches", async () => {
    const queue = make({ batchSize: 3 });
    for (let seq = 0; seq < 7; seq++) queue.enqueue(event(seq), cursor(seq + 1));
    await vi.advanceTimersByTimeAsync(100);
    expect(server.calls.map((c) => (c.body as { events: unknown[] }).events.length)).toEqual([3, 3, 1]);
    expect(server.events.size).toBe(7);
  });

  it("retries with exponential backoff while the network is down, and keeps everything", async () => {
    const queue = make();
    server.down = true;
    queue.enqueue(event(0), cursor(1));
    await vi.advanceTimersByTimeAsync(100); // attempt 1 fails -> retry in 1 s
    expect(server.calls).toHaveLength(1);
    expect(queue.status().offline).toBe(true);
    await vi.advanceTimersByTimeAsync(999);
    expect(server.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1); // attempt 2 -> retry in 2 s
    expect(server.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000); // attempt 3 -> 4 s
    expect(server.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(4000); // attempt 4 -> 8 s (the maximum)
    await vi.advanceTimersByTimeAsync(8000); // attempt 5 -> still 8 s
    expect(server.calls).toHaveLength(5);
    expect(queue.status().retryInMs).toBe(8000);
    expect(queue.status().pendingEvents).toBe(1);
    server.down = false;
    await vi.advanceTimersByTimeAsync(8000);
    expect(queue.status()).toMatchObject({ pendingEvents: 0, offline: false, retryInMs: null });
    expect(server.events.size).toBe(1);
  });

  it("retries at once when the browser comes back online", async () => {
    const queue = make();
    server.down = true;
    queue.enqueue(event(0), cursor(1));
    await vi.advanceTimersByTimeAsync(100);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.calls).toHaveLength(2); // next retry in 2 s
    server.down = false;
    queue.online();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls).toHaveLength(3);
    expect(queue.status().pendingEvents).toBe(0);
  });

  it("keeps unacknowledged events: removes only the seqs the server acknowledged", async () => {
    const queue = make();
    server.override = (_url, body) => {
      const seqs = (body as { events: TrajectoryEvent[] }).events.map((e) => e.seq).filter((seq) => seq !== 1);
      return { status: 200, body: { acked: { a1: seqs } } };
    };
    queue.enqueue(event(0), cursor(1));
    queue.enqueue(event(1), cursor(2));
    await vi.advanceTimersByTimeAsync(100);
    expect(queue.pendingEventsOf("a1").map((e) => e.seq)).toEqual([1]);
    server.override = null;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(queue.status().pendingEvents).toBe(0);
  });

  it("survives a reload: a new queue on the same storage sends what the old one left", async () => {
    server.down = true;
    const first = make();
    first.enqueue(event(0), cursor(1));
    first.enqueue(event(1), cursor(2));
    const submitted = first.submit(submission("a1", 1));
    await vi.advanceTimersByTimeAsync(100);
    first.dispose();
    server.down = false;
    const second = make();
    expect(second.status()).toMatchObject({ pendingEvents: 2, pendingSubmissions: 1 });
    expect(second.cursor("a1")).toEqual(cursor(2));
    const acked = second.waitFor("a1");
    await second.flush();
    await expect(acked).resolves.toMatchObject({ assignmentId: "a1", duplicate: false });
    expect(server.events.size).toBe(2);
    expect(server.responses.size).toBe(1);
    expect(second.isDone("a1")).toBe(true);
    void submitted;
  });

  it("sends a submission only after its events, and stores it once however often it is retried", async () => {
    const queue = make();
    const order: string[] = [];
    let failSubmissionReply = true;
    server.override = (url, body) => {
      order.push(url.endsWith("/events") ? "events" : "response");
      server.override = null;
      const result = (server as unknown as { handle: Handler }).handle(url, body);
      server.override = overrideAgain;
      // the first submission reaches the server but its reply is lost
      if (!url.endsWith("/events") && failSubmissionReply) {
        failSubmissionReply = false;
        return "network-error";
      }
      return result;
    };
    const overrideAgain = server.override;
    queue.enqueue(event(0), cursor(1));
    queue.enqueue(event(1), cursor(2));
    const acked = queue.submit(submission("a1", 1));
    await vi.advanceTimersByTimeAsync(0);
    expect(order).toEqual(["events", "response"]);
    expect(queue.status().pendingSubmissions).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    const ack = await acked;
    expect(ack.duplicate).toBe(true); // the retry found the stored one
    expect(server.responses.size).toBe(1);
    expect(queue.status().pendingSubmissions).toBe(0);
  });

  it("refuses a second submission (409, reason submitted) plainly: the page hears why, the item counts as done, and 422s are put aside without blocking the rest", async () => {
    const queue = make();
    server.override = (url, body) => {
      if (url.endsWith("/responses")) {
        const input = body as ResponseCreateInput;
        return input.assignmentId === "a1"
          ? { status: 409, body: { error: "already answered", code: "CONFLICT", details: { reason: "submitted" } } }
          : { status: 422, body: { error: "bad" } };
      }
      return { status: 422, body: { error: "bad event" } };
    };
    queue.enqueue(event(0, "bad"), cursor(1));
    const first = queue.submit({ ...submission("a1", 0), clientId: "0b6f1f4e-6a55-4b2b-8d0f-8a8f5e5b2c02" }).catch((error: unknown) => error);
    const second = queue.submit({ ...submission("a2", 0), clientId: "0b6f1f4e-6a55-4b2b-8d0f-8a8f5e5b2c03" });
    const secondFailure = second.catch((error: Error) => error);
    await vi.advanceTimersByTimeAsync(0);
    const refusal = await first;
    expect(refusal).toBeInstanceOf(SubmissionRefused);
    expect(refusal).toMatchObject({ reason: "submitted", assignmentId: "a1" });
    expect(queue.isDone("a1")).toBe(true);
    expect(await secondFailure).toBeInstanceOf(Error);
    expect(queue.status()).toMatchObject({ pendingEvents: 0, pendingSubmissions: 0, rejected: 3 });
    expect(JSON.parse(storage.getItem("outbox:u1")!).rejected).toHaveLength(3);
  });

  it("retries 401 and 5xx but not other 4xx", async () => {
    const queue = make();
    let status = 503;
    server.override = () => ({ status, body: { error: "x" } });
    queue.enqueue(event(0), cursor(1));
    await vi.advanceTimersByTimeAsync(100);
    expect(queue.status().pendingEvents).toBe(1);
    status = 401;
    await vi.advanceTimersByTimeAsync(1000);
    expect(queue.status().pendingEvents).toBe(1);
    expect(queue.status().rejected).toBe(0);
  });

  it("hands pending events to sendBeacon in chunks without forgetting them", () => {
    const queue = make();
    for (let seq = 0; seq < 5; seq++) queue.enqueue(event(seq), cursor(seq + 1));
    const beacons: string[] = [];
    const handed = queue.flushBeacon((_url, data) => {
      beacons.push(data);
      return true;
    }, 300);
    expect(handed).toBe(5);
    expect(beacons.length).toBeGreaterThan(1);
    for (const data of beacons) expect(data.length).toBeLessThanOrEqual(300);
    expect(beacons.flatMap((data) => (JSON.parse(data) as { events: TrajectoryEvent[] }).events.map((e) => e.seq))).toEqual([0, 1, 2, 3, 4]);
    expect(queue.status().pendingEvents).toBe(5);
  });
});

describe("TrajectoryQueue: events refused one by one", () => {
  it("puts refused events aside and removes them and the acknowledged ones from the pending list", async () => {
    vi.useFakeTimers();
    const storage = new MemoryStorage();
    const fetchFake = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      const { events } = JSON.parse(String(init?.body)) as { events: TrajectoryEvent[] };
      const ok = events.filter((e) => e.seq !== 1);
      return Response.json({
        acked: { a1: ok.map((e) => e.seq) },
        rejected: [{ index: events.findIndex((e) => e.seq === 1), assignmentId: "a1", seq: 1, issues: ["payload: bad"] }],
      });
    }) as unknown as typeof fetch;
    const queue = new TrajectoryQueue({ storage, key: "k", fetch: fetchFake, batchDelayMs: 10 });
    queue.enqueue(event(0), cursor(1));
    queue.enqueue(event(1), cursor(2));
    queue.enqueue(event(2), cursor(3));
    await vi.advanceTimersByTimeAsync(10);
    expect(queue.status()).toMatchObject({ pendingEvents: 0, rejected: 1, offline: false });
    expect(fetchFake).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });
});

describe("TrajectoryQueue: one writer per item", () => {
  let storage: MemoryStorage;
  beforeEach(() => {
    vi.useFakeTimers();
    storage = new MemoryStorage();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("names its tab as the writer of every event and submission it sends", async () => {
    const server = new FakeServer();
    const queue = new TrajectoryQueue({ storage, key: "k", fetch: server.fetch, batchDelayMs: 10, writer: "tab-1" });
    queue.enqueue(event(0), cursor(1));
    void queue.submit(submission("a1", 0));
    await vi.advanceTimersByTimeAsync(10);
    expect(server.calls.map((call) => call.body)).toEqual([
      { events: [expect.objectContaining({ assignmentId: "a1", seq: 0, writer: "tab-1" })] },
      expect.objectContaining({ assignmentId: "a1", writer: "tab-1" }),
    ]);
  });

  it("on a 409 for its events (another tab writes the item): stores what was acknowledged, puts the refused aside, tells the page, and refuses the submission with the reason", async () => {
    const lost: string[] = [];
    const fetchFake = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as { events?: TrajectoryEvent[] };
      if (String(url).endsWith("/events")) {
        const events = body.events ?? [];
        const refused = events.map((e, index) => ({ e, index })).filter(({ e }) => e.assignmentId === "a1");
        return Response.json(
          {
            acked: { a2: events.filter((e) => e.assignmentId === "a2").map((e) => e.seq) },
            rejected: refused.map(({ e, index }) => ({ index, assignmentId: e.assignmentId, seq: e.seq, issues: ["open in another tab"] })),
            notWriter: ["a1"],
            code: "CONFLICT",
            details: { reason: "writer" },
          },
          { status: 409 },
        );
      }
      return Response.json({ error: "open in another tab", code: "CONFLICT", details: { reason: "writer" } }, { status: 409 });
    }) as unknown as typeof fetch;
    const queue = new TrajectoryQueue({ storage, key: "k", fetch: fetchFake, batchDelayMs: 10, writer: "tab-1" });
    queue.onLost((assignmentId) => lost.push(assignmentId));
    queue.enqueue(event(0, "a1"), cursor(1));
    queue.enqueue(event(0, "a2"), cursor(1));
    const refusal = queue.submit(submission("a1", 0)).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    expect(await refusal).toMatchObject({ reason: "writer", assignmentId: "a1" });
    expect(lost).toEqual(["a1", "a1"]);
    expect(queue.isDone("a1")).toBe(false);
    expect(queue.status()).toMatchObject({ pendingEvents: 0, pendingSubmissions: 0, offline: false });
  });

  it("claims an item for its tab after sending what it holds, and reports another writer or a submitted item", async () => {
    const order: string[] = [];
    let claim: { status: number; body: unknown } = { status: 200, body: { writer: "tab-1", nextSeq: 3 } };
    const fetchFake = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      order.push(String(url));
      if (String(url).endsWith("/events")) {
        const { events } = JSON.parse(String(init?.body)) as { events: TrajectoryEvent[] };
        return Response.json({ acked: { a1: events.map((e) => e.seq) } });
      }
      expect(JSON.parse(String(init?.body))).toEqual({ writer: "tab-1", takeOver: false });
      return Response.json(claim.body, { status: claim.status });
    }) as unknown as typeof fetch;
    // a closed tab of this browser left an event of the item in the shared outbox
    const closed = new TrajectoryQueue({ storage, key: "k", fetch: fetchFake, batchDelayMs: 10_000, writer: "tab-0" });
    closed.enqueue(event(0, "a1"), cursor(1));
    closed.dispose();
    const queue = new TrajectoryQueue({ storage, key: "k", fetch: fetchFake, batchDelayMs: 10_000, writer: "tab-1" });
    queue.enqueue(event(1, "a1"), cursor(2));
    await expect(queue.claim("a1")).resolves.toEqual({ kind: "mine", nextSeq: 3 });
    await vi.advanceTimersByTimeAsync(0);
    // the closed tab's event first, then the claim, and this tab's own event only once the item is its
    expect(order).toEqual(["/api/annotate/events", "/api/annotate/assignments/a1/writer", "/api/annotate/events"]);
    const calls = (fetchFake as unknown as { mock: { calls: Array<[string, RequestInit | undefined]> } }).mock.calls;
    const sent = calls
      .filter(([url]) => String(url).endsWith("/events"))
      .map(([, init]) => (JSON.parse(String(init?.body)) as { events: TrajectoryEvent[] }).events.map((e) => e.writer));
    expect(sent).toEqual([["tab-0"], ["tab-1"]]);
    order.length = 0;
    claim = { status: 409, body: { code: "CONFLICT", details: { reason: "writer", writer: "tab-2" } } };
    await expect(queue.claim("a1")).resolves.toEqual({ kind: "other", writer: "tab-2" });
    // what this tab recorded of an item another tab writes is put aside, not sent later under seqs the writer uses
    queue.enqueue(event(5, "a1"), cursor(6));
    await expect(queue.claim("a1")).resolves.toEqual({ kind: "other", writer: "tab-2" });
    expect(queue.status()).toMatchObject({ pendingEvents: 0, rejected: 1 });
    claim = { status: 409, body: { code: "CONFLICT", details: { reason: "submitted" } } };
    await expect(queue.claim("a1")).resolves.toEqual({ kind: "submitted" });
  });

  it("keeps another tab's pending events in the shared storage when it saves its own", async () => {
    const server = new FakeServer();
    server.down = true;
    const one = new TrajectoryQueue({ storage, key: "k", fetch: server.fetch, batchDelayMs: 10, writer: "tab-1" });
    const two = new TrajectoryQueue({ storage, key: "k", fetch: server.fetch, batchDelayMs: 10, writer: "tab-2" });
    two.enqueue(event(0, "a2"), cursor(1));
    one.enqueue(event(0, "a1"), cursor(1));
    const saved = JSON.parse(storage.getItem("k")!) as { events: TrajectoryEvent[] };
    expect(saved.events.map((e) => [e.assignmentId, e.writer])).toEqual(
      expect.arrayContaining([
        ["a1", "tab-1"],
        ["a2", "tab-2"],
      ]),
    );
    one.dispose();
    two.dispose();
  });
});
