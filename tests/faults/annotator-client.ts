import { randomUUID } from "node:crypto";

/**
 * A simulated annotator for the fault tests: it does what the browser's outbox does
 * (lib/client/trajectory-queue.ts) without a browser. It asks for its next item, posts the item's
 * events in batches and then its answer, and retries every request until the server acknowledges
 * it: after a network error (the server is gone) and after a 5xx (honouring Retry-After, capped).
 * A 4xx ends the run with an error: the test sends nothing wrong. It records what was acknowledged
 * and when, so the test can check the database against it.
 */

export interface AckedEvent {
  assignmentId: string;
  seq: number;
  type: string;
  at: number;
}

export interface AckedResponse {
  assignmentId: string;
  clientId: string;
  responseId: string;
  duplicate: boolean;
  at: number;
}

export interface ClientLog {
  events: AckedEvent[];
  responses: AckedResponse[];
  /** assignment id -> the last seq sent (the `submitted` event) */
  lastSeq: Map<string, number>;
  /** every failed attempt: status (0 = network error), Retry-After, body */
  failures: Array<{ status: number; retryAfter: string | null; body: string; at: number }>;
}

export interface RunOptions {
  /** the server, or a function that picks one per request (clients spread over instances) */
  baseUrl: string | (() => string);
  slug: string;
  cookie: string;
  /** event batches per item before the one with `submitted` */
  batches?: number;
  eventsPerBatch?: number;
  /** stop after this many items (default: until the study says done) */
  maxItems?: number;
  /** called before every request, e.g. to hold requests while the test changes something */
  beforeRequest?: () => Promise<void>;
  inFlight?: { count: number };
  /** give up a request after this long without an acknowledgement (ms) */
  patienceMs?: number;
  /** where to record (read it while the run goes on); a new one by default */
  log?: ClientLog;
  /** told when the run fails (before the returned promise rejects) */
  onError?: (error: unknown) => void;
}

export function newClientLog(): ClientLog {
  return { events: [], responses: [], lastSeq: new Map(), failures: [] };
}

async function acknowledged(options: RunOptions, log: ClientLog, method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
  const deadline = Date.now() + (options.patienceMs ?? 120_000);
  for (let attempt = 0; ; attempt++) {
    await options.beforeRequest?.();
    let status = 0;
    let text = "";
    let retryAfter: string | null = null;
    if (options.inFlight) options.inFlight.count += 1;
    try {
      const base = typeof options.baseUrl === "function" ? options.baseUrl() : options.baseUrl;
      const response = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? { cookie: options.cookie } : { cookie: options.cookie, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
      status = response.status;
      retryAfter = response.headers.get("retry-after");
      text = await response.text();
    } catch (error) {
      // no answer, or the connection died while the body was read: a network error either way
      status = 0;
      text = String(error instanceof Error ? (error.cause ?? error.message) : error);
    } finally {
      if (options.inFlight) options.inFlight.count -= 1;
    }
    if (status >= 200 && status < 300) return JSON.parse(text);
    log.failures.push({ status, retryAfter, body: text.slice(0, 2000), at: Date.now() });
    if (status >= 400 && status < 500) throw new Error(`${method} ${path} -> ${status}: ${text.slice(0, 500)}`);
    if (Date.now() > deadline) throw new Error(`${method} ${path}: no acknowledgement after ${attempt + 1} attempts; last: ${status} ${text.slice(0, 300)}`);
    const hinted = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : 0;
    await sleep(Math.min(1000, Math.max(100, hinted, 50 * 2 ** Math.min(attempt, 4))) * (0.75 + Math.random() / 2));
  }
}

/** Works through the study; resolves with everything the server acknowledged. */
export async function runAnnotator(options: RunOptions): Promise<ClientLog> {
  try {
    return await work(options);
  } catch (error) {
    options.onError?.(error);
    throw error;
  }
}

async function work(options: RunOptions): Promise<ClientLog> {
  const log = options.log ?? newClientLog();
  const batches = options.batches ?? 2;
  const perBatch = options.eventsPerBatch ?? 4;
  let waits = 0;
  for (let done = 0; done < (options.maxItems ?? Infinity); done++) {
    const next = (await acknowledged(options, log, "GET", `/api/annotate/studies/${options.slug}/next`)) as {
      status: string;
      assignment?: { assignmentId: string; kind: string };
    };
    // another request holds the place this client should take next: ask again shortly
    if (next.status === "wait" && waits++ < 200) {
      done -= 1;
      await sleep(50);
      continue;
    }
    if (next.status !== "item" || !next.assignment) break;
    const assignmentId = next.assignment.assignmentId;
    const verdict = Math.random() < 0.5 ? "Success" : "Fail";
    const clientId = randomUUID();
    let seq = 0;
    const event = (type: string, payload: unknown) => ({ assignmentId, seq: seq++, type, payload, clientTime: Date.now() });
    const plan: Array<ReturnType<typeof event>> = [event("item_shown", { kind: next.assignment.kind, resumed: false })];
    let previous: string | null = null;
    for (let i = 1; i < batches * perBatch; i++) {
      const choice: "Success" | "Fail" = i % 2 === 0 ? "Success" : "Fail";
      plan.push(i % 3 === 0 ? event("page_hidden", {}) : event("verdict_made", { verdict: choice, previous, via: "click" }));
      if (i % 3 !== 0) previous = choice;
    }
    plan.push(event("verdict_made", { verdict, previous, via: "keyboard" }));
    plan.push(event("confidence_changed", { value: 3, previous: null }));
    const submitSeq = seq;
    plan.push(event("submitted", { answer: { verdict }, confidence: 3, clientId }));
    log.lastSeq.set(assignmentId, submitSeq);
    for (let start = 0; start < plan.length; start += perBatch) {
      const batch = plan.slice(start, start + perBatch);
      const ack = (await acknowledged(options, log, "POST", "/api/annotate/events", { events: batch })) as {
        acked: Record<string, number[]>;
        rejected?: unknown[];
      };
      if (ack.rejected?.length) throw new Error(`events refused: ${JSON.stringify(ack.rejected)}`);
      const at = Date.now();
      for (const sent of batch) if (ack.acked[assignmentId]?.includes(sent.seq)) log.events.push({ assignmentId, seq: sent.seq, type: sent.type, at });
    }
    const input = { assignmentId, clientId, answer: { verdict }, confidence: 3, wallMs: 1000, activeMs: 900, submitSeq };
    const reply = (await acknowledged(options, log, "POST", "/api/annotate/responses", input)) as { responseId: string; duplicate: boolean };
    log.responses.push({ assignmentId, clientId, responseId: reply.responseId, duplicate: reply.duplicate, at: Date.now() });
  }
  return log;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` until it holds; fails at `timeoutMs`, or at once when a simulated annotator has
 * failed meanwhile (`runErrors`, filled by runAnnotator's onError).
 */
export async function until(what: string, check: () => Promise<boolean> | boolean, runErrors: readonly string[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (runErrors.length > 0) throw new Error(`an annotator failed while waiting for ${what}: ${runErrors.join("; ")}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
