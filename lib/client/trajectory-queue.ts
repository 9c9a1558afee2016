import type { ResponseAck, ResponseCreateInput, TrajectoryAck, TrajectoryEvent } from "@/lib/validations/annotate";
import type { ActiveTimeTally } from "@/lib/timing/active-time";

/**
 * The browser's outbox for trajectory events and submissions (DESIGN.md, "Flows that must never
 * lose data"). Everything is written to storage (localStorage) before it is sent, sent in batches,
 * and removed only when the server acknowledges it; failures are retried with exponential backoff
 * (and at once when the browser comes back online). The server stores each (assignment, writer,
 * seq) and each submission clientId once, so sending twice is harmless.
 *
 * One tab writes an item at a time (lib/responses/writer.ts): the queue names its tab (`writer`)
 * in every event and submission, claims an item for it (claim), and tells the page when the
 * server says that another tab or device writes one (onLost; a 409). The outbox in storage is
 * shared by the tabs of this browser: a save keeps the pending events and submissions another tab
 * put there, so a tab never erases what another has not sent yet.
 *
 * Ordering rule: a submission is sent only after every event of its assignment up to its
 * `submitted` event was acknowledged, so the server always has the whole trajectory when it
 * computes the times of a response.
 *
 * Framework-free: storage, fetch, timers and randomness are injected (tests use fakes).
 */

export interface QueueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Per-assignment cursor: the next seq and the running time tally, kept across reloads. */
export interface AssignmentCursor {
  nextSeq: number;
  tally: ActiveTimeTally | null;
}

export interface PendingSubmission {
  input: ResponseCreateInput;
  /** when it was queued (ms since the epoch) */
  queuedAt: number;
}

interface Outbox {
  version: 1;
  events: TrajectoryEvent[];
  submissions: PendingSubmission[];
  cursors: Record<string, AssignmentCursor>;
  /** assignments whose submission was acknowledged (kept for a while so a stale page does not re-show them) */
  done: string[];
  /** requests the server refused for good (4xx other than 401/408/429): kept, never sent again */
  rejected: Array<{ at: number; status: number; what: "events" | "submission"; body: unknown }>;
}

export interface QueueStatus {
  pendingEvents: number;
  pendingSubmissions: number;
  /** assignment ids with a submission waiting for the server */
  pendingSubmissionIds: string[];
  /** the last send failed with a network error or a retryable status */
  offline: boolean;
  /** ms until the next retry, when one is scheduled */
  retryInMs: number | null;
  rejected: number;
}

export interface TrajectoryQueueOptions {
  storage: QueueStorage;
  /** this tab's writer id (lib/client/writer-id.ts); unset: the writer '' (one writer, as for an API client) */
  writer?: string;
  /** storage key; one outbox per signed-in user */
  key: string;
  fetch: typeof fetch;
  eventsUrl?: string;
  responsesUrl?: string;
  /** the claim's URL for an assignment */
  writerUrl?: (assignmentId: string) => string;
  /** events per request */
  batchSize?: number;
  /** wait this long after an event before sending, to batch events (ms) */
  batchDelayMs?: number;
  /** first retry delay (ms); doubles after each failure up to maxRetryMs */
  baseRetryMs?: number;
  maxRetryMs?: number;
  /** [0, 1); jitter multiplies each delay by 0.5 + random() / 2 */
  random?: () => number;
  now?: () => number;
}

type Listener = (status: QueueStatus) => void;
type AckListener = (ack: ResponseAck) => void;
type LostListener = (assignmentId: string) => void;

/** Why the server will not take a submission: another tab writes the item, or it was answered already. */
export type RefusalReason = "writer" | "submitted";

/** A submission the server refused for good (the waiter's rejection): `reason` when it is a 409 the page explains. */
export class SubmissionRefused extends Error {
  constructor(
    readonly assignmentId: string,
    readonly status: number,
    readonly reason: RefusalReason | null,
    message: string,
  ) {
    super(message);
    this.name = "SubmissionRefused";
  }
}

/** What a claim found: the item is this tab's, another tab or device writes it, it was submitted, or the server could not be asked. */
export type ClaimResult = { kind: "mine"; nextSeq: number } | { kind: "other"; writer: string | null } | { kind: "submitted" } | { kind: "unknown" };

function refusalReasonOf(body: unknown): RefusalReason | null {
  const reason = (body as { details?: { reason?: unknown } } | null)?.details?.reason;
  return reason === "writer" || reason === "submitted" ? reason : null;
}

const eventKey = (event: Pick<TrajectoryEvent, "assignmentId" | "seq" | "writer">) => `${event.assignmentId}#${event.writer ?? ""}#${event.seq}`;

const emptyOutbox = (): Outbox => ({ version: 1, events: [], submissions: [], cursors: {}, done: [], rejected: [] });

/** Statuses worth retrying; other 4xx are the request's fault and would fail again. */
function retryable(status: number): boolean {
  return status >= 500 || status === 401 || status === 408 || status === 429;
}

const MAX_DONE = 200;
/** events kept in memory after their acknowledgement (eventsOf): far more than one item records */
const MAX_ACKED_KEPT = 5_000;

export class TrajectoryQueue {
  private readonly options: Required<Omit<TrajectoryQueueOptions, "storage" | "key" | "fetch" | "writer">> &
    Pick<TrajectoryQueueOptions, "storage" | "key" | "fetch" | "writer">;
  private outbox: Outbox;
  /** events acknowledged since this page loaded (memory only), for eventsOf */
  private readonly ackedThisPage: TrajectoryEvent[] = [];
  private flushing: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerDue: number | null = null;
  private failures = 0;
  private offline = false;
  private listeners = new Set<Listener>();
  private ackListeners = new Set<AckListener>();
  private lostListeners = new Set<LostListener>();
  /** events and submissions this page removed (acknowledged, put aside): a save does not bring them back from storage */
  private readonly removedKeys = new Set<string>();
  private readonly removedClientIds = new Set<string>();
  /** assignments being claimed, or written by another tab: this tab's events of them wait (another tab's go) */
  private readonly held = new Set<string>();
  private waiters = new Map<string, Array<{ resolve: (ack: ResponseAck) => void; reject: (error: Error) => void }>>();
  private acks = new Map<string, ResponseAck>();

  constructor(options: TrajectoryQueueOptions) {
    this.options = {
      eventsUrl: "/api/annotate/events",
      responsesUrl: "/api/annotate/responses",
      writerUrl: (assignmentId: string) => `/api/annotate/assignments/${encodeURIComponent(assignmentId)}/writer`,
      batchSize: 200,
      batchDelayMs: 400,
      baseRetryMs: 1000,
      maxRetryMs: 60_000,
      random: Math.random,
      now: Date.now,
      ...options,
    };
    this.outbox = this.load();
  }

  // ------------------------------------------------------------------------------------------
  // state

  private load(): Outbox {
    try {
      const text = this.options.storage.getItem(this.options.key);
      if (!text) return emptyOutbox();
      const parsed = JSON.parse(text) as Partial<Outbox>;
      if (parsed.version !== 1) return emptyOutbox();
      return { ...emptyOutbox(), ...parsed };
    } catch {
      return emptyOutbox();
    }
  }

  private save(): void {
    this.mergeStored();
    // a full storage must not lose what is in memory: the page keeps trying to send it
    try {
      this.options.storage.setItem(this.options.key, JSON.stringify(this.outbox));
    } catch (error) {
      console.error("trajectory queue: could not persist the outbox", error);
    }
    this.emit();
  }

  status(): QueueStatus {
    return {
      pendingEvents: this.outbox.events.length,
      pendingSubmissions: this.outbox.submissions.length,
      pendingSubmissionIds: this.outbox.submissions.map((s) => s.input.assignmentId),
      offline: this.offline,
      retryInMs: this.timer !== null && this.timerDue !== null ? Math.max(0, this.timerDue - this.options.now()) : null,
      rejected: this.outbox.rejected.length,
    };
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Another tab of this browser may have written the outbox since this page read it: its pending
   * events and submissions are taken in (this page sends them too; the server stores each once),
   * except those this page itself removed.
   */
  private mergeStored(): void {
    let stored: Partial<Outbox> | null = null;
    try {
      const text = this.options.storage.getItem(this.options.key);
      stored = text ? (JSON.parse(text) as Partial<Outbox>) : null;
    } catch {
      stored = null;
    }
    if (!stored || stored.version !== 1) return;
    const known = new Set(this.outbox.events.map(eventKey));
    for (const event of stored.events ?? []) {
      const key = eventKey(event);
      if (!known.has(key) && !this.removedKeys.has(key)) {
        known.add(key);
        this.outbox.events.push(event);
      }
    }
    const knownSubmissions = new Set(this.outbox.submissions.map((s) => s.input.clientId));
    for (const submission of stored.submissions ?? []) {
      if (!knownSubmissions.has(submission.input.clientId) && !this.removedClientIds.has(submission.input.clientId)) this.outbox.submissions.push(submission);
    }
    for (const [assignmentId, cursor] of Object.entries(stored.cursors ?? {})) {
      const mine = this.outbox.cursors[assignmentId];
      if (!mine || cursor.nextSeq > mine.nextSeq) this.outbox.cursors[assignmentId] = cursor;
    }
    for (const id of stored.done ?? []) if (!this.outbox.done.includes(id)) this.outbox.done.push(id);
  }

  /** Called when the server says another tab or device writes an assignment (its events or submission got a 409). */
  onLost(listener: LostListener): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  private lose(assignmentId: string): void {
    for (const listener of this.lostListeners) listener(assignmentId);
  }

  /**
   * Claims an item for this tab (lib/responses/writer.ts), after sending what the outbox holds
   * (a closed tab's last events go first, under their own writer). `takeOver`: even from another
   * tab or device that is writing it. Never throws: "unknown" when the server could not be asked
   * (the page goes on; its events claim the item when they arrive, if nobody else has).
   */
  async claim(assignmentId: string, options: { takeOver?: boolean; takeOverFrom?: (writer: string) => boolean } = {}): Promise<ClaimResult> {
    // this tab's events of the item wait for the answer: sent before it, they would be refused while another tab (maybe a closed one) holds the item
    this.held.add(assignmentId);
    await this.flush().catch(() => undefined);
    let claim = await this.ask(assignmentId, options.takeOver ?? false);
    // a writer the page knows to be gone (a closed tab of this browser) gives the item up without asking
    if (claim.kind === "other" && claim.writer !== null && options.takeOverFrom?.(claim.writer)) claim = await this.ask(assignmentId, true);
    // another tab writes the item, or it was answered: what this tab recorded of it meanwhile is put
    // aside (kept, never sent), as the server would refuse it; sent later, it would take seqs the
    // writer uses. Later events of this tab are sent, and refused one by one.
    if (claim.kind === "other" || claim.kind === "submitted") {
      const writer = this.options.writer ?? "";
      const mine = this.outbox.events.filter((event) => event.assignmentId === assignmentId && (event.writer ?? "") === writer);
      if (mine.length > 0) {
        this.outbox.rejected.push({
          at: this.options.now(),
          status: 409,
          what: "events",
          body: { events: mine, reason: claim.kind === "other" ? "writer" : "submitted" },
        });
        this.removeEvents(mine);
      }
    }
    // unknown (offline, the server down): the events go when they can, and claim the item if nobody else has
    this.held.delete(assignmentId);
    if (this.outbox.events.length > 0 || this.outbox.submissions.length > 0) void this.flush();
    return claim;
  }

  private async ask(assignmentId: string, takeOver: boolean): Promise<ClaimResult> {
    const result = await this.post(this.options.writerUrl(assignmentId), { writer: this.options.writer ?? "", takeOver });
    if (result.kind === "ok") return { kind: "mine", nextSeq: Number((result.body as { nextSeq?: unknown }).nextSeq) || 0 };
    if (result.kind === "rejected" && result.status === 409) {
      const reason = refusalReasonOf(result.body);
      const writer = (result.body as { details?: { writer?: unknown } } | null)?.details?.writer;
      if (reason === "submitted") return { kind: "submitted" };
      if (reason === "writer") return { kind: "other", writer: typeof writer === "string" ? writer : null };
    }
    return { kind: "unknown" };
  }

  /** Called for every acknowledged submission, including ones queued before a reload. */
  onAck(listener: AckListener): () => void {
    this.ackListeners.add(listener);
    return () => this.ackListeners.delete(listener);
  }

  private emit(): void {
    const status = this.status();
    for (const listener of this.listeners) listener(status);
  }

  /** This tab's writer id ('' when none was given). */
  writer(): string {
    return this.options.writer ?? "";
  }

  /** The saved cursor of an assignment (next seq, time tally), if this browser has one. */
  cursor(assignmentId: string): AssignmentCursor | null {
    return this.outbox.cursors[assignmentId] ?? null;
  }

  /** Events of an assignment not yet acknowledged, in seq order. */
  pendingEventsOf(assignmentId: string): TrajectoryEvent[] {
    return this.outbox.events.filter((event) => event.assignmentId === assignmentId).sort((a, b) => a.seq - b.seq);
  }

  /**
   * Events of an assignment this browser holds: not yet acknowledged, or acknowledged since this
   * page loaded, in seq order. A reopened page sends the outbox at once, and the server's answer
   * can come before the item is shown, whose history was read before the events arrived; the
   * item resumes from these.
   */
  eventsOf(assignmentId: string): TrajectoryEvent[] {
    const bySeq = new Map<number, TrajectoryEvent>();
    for (const event of this.ackedThisPage) if (event.assignmentId === assignmentId) bySeq.set(event.seq, event);
    for (const event of this.pendingEventsOf(assignmentId)) bySeq.set(event.seq, event);
    return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  }

  hasPendingSubmission(assignmentId: string): boolean {
    return this.outbox.submissions.some((s) => s.input.assignmentId === assignmentId);
  }

  /** True when the server acknowledged this assignment's submission (in this browser). */
  isDone(assignmentId: string): boolean {
    return this.outbox.done.includes(assignmentId);
  }

  /** The acknowledgement of an assignment's submission, if it arrived while this page was open. */
  ackOf(assignmentId: string): ResponseAck | null {
    return this.acks.get(assignmentId) ?? null;
  }

  // ------------------------------------------------------------------------------------------
  // writing

  /** Queue one event and remember the assignment's cursor; persisted before this returns. */
  enqueue(event: TrajectoryEvent, cursor: AssignmentCursor): void {
    this.outbox.events.push(this.options.writer ? { ...event, writer: this.options.writer } : event);
    this.outbox.cursors[event.assignmentId] = cursor;
    this.save();
    this.schedule(this.options.batchDelayMs);
  }

  /**
   * Queue a submission (persisted before this returns) and send it as soon as its events are
   * acknowledged. Resolves with the server's acknowledgement, however many retries it takes;
   * rejects only when the server refuses it for good (e.g. 422).
   */
  submit(input: ResponseCreateInput): Promise<ResponseAck> {
    const existing = this.outbox.submissions.find((s) => s.input.clientId === input.clientId);
    if (!existing)
      this.outbox.submissions.push({
        input: this.options.writer && !input.writer ? { ...input, writer: this.options.writer } : input,
        queuedAt: this.options.now(),
      });
    this.save();
    const promise = this.waitFor(input.assignmentId);
    void this.flush();
    return promise;
  }

  /** Resolves when the submission of this assignment is acknowledged (queued in this page or before a reload). */
  waitFor(assignmentId: string): Promise<ResponseAck> {
    const ack = this.acks.get(assignmentId);
    if (ack) return Promise.resolve(ack);
    return new Promise((resolve, reject) => {
      const list = this.waiters.get(assignmentId) ?? [];
      list.push({ resolve, reject });
      this.waiters.set(assignmentId, list);
    });
  }

  // ------------------------------------------------------------------------------------------
  // sending

  private schedule(delayMs: number): void {
    const due = this.options.now() + delayMs;
    if (this.timer !== null && this.timerDue !== null && this.timerDue <= due) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = null;
      void this.flush();
    }, delayMs);
  }

  /** The browser is online again: retry now, from the first delay. */
  online(): void {
    this.failures = 0;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = null;
    void this.flush();
  }

  /** Send everything pending (one flush at a time; a call during a flush runs another after it). */
  flush(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      try {
        do {
          this.again = false;
          const ok = await this.sendAll();
          if (!ok) break;
        } while (this.again);
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  /** One pass; false when a retryable failure stopped it (a retry is scheduled). */
  private async sendAll(): Promise<boolean> {
    const writer = this.options.writer ?? "";
    const sendable = () =>
      this.held.size === 0 ? this.outbox.events : this.outbox.events.filter((event) => !(this.held.has(event.assignmentId) && (event.writer ?? "") === writer));
    for (let pending = sendable(); pending.length > 0; pending = sendable()) {
      const batch = pending.slice(0, this.options.batchSize);
      const result = await this.post(this.options.eventsUrl, { events: batch });
      if (result.kind === "retry") return this.failed();
      if (result.kind === "rejected") {
        this.outbox.rejected.push({ at: this.options.now(), status: result.status, what: "events", body: batch });
        this.removeEvents(batch);
        continue;
      }
      const ack = result.body as TrajectoryAck;
      // the server acknowledges seqs by assignment: an event of the batch is acknowledged when its seq is
      const ackedSeqs = new Map(Object.entries(ack.acked ?? {}).map(([assignmentId, seqs]) => [assignmentId, new Set(seqs)]));
      const refusedIndexes = new Set((ack.rejected ?? []).map((r) => r.index));
      const acked = batch.filter((event, index) => !refusedIndexes.has(index) && ackedSeqs.get(event.assignmentId)?.has(event.seq));
      // events the server refused one by one (another tab writes the item, a closed study): put aside (kept), never sent again
      const refused = (ack.rejected ?? []).map((r) => batch[r.index]).filter((event): event is TrajectoryEvent => event !== undefined);
      if (refused.length > 0) {
        this.outbox.rejected.push({ at: this.options.now(), status: result.status, what: "events", body: { events: refused, rejected: ack.rejected } });
      }
      this.ackedThisPage.push(...acked);
      if (this.ackedThisPage.length > MAX_ACKED_KEPT) this.ackedThisPage.splice(0, this.ackedThisPage.length - MAX_ACKED_KEPT);
      const before = this.outbox.events.length;
      this.removeEvents([...acked, ...refused]);
      // the page hears of it only for its own events: the shared outbox also carries other tabs' (the server refuses those while this tab writes)
      for (const assignmentId of ack.notWriter ?? [])
        if (refused.some((event) => event.assignmentId === assignmentId && (event.writer ?? "") === writer)) this.lose(assignmentId);
      // a reply that acknowledged nothing we sent would loop forever: treat it as a failure
      if (this.outbox.events.length === before) return this.failed();
    }
    for (const submission of [...this.outbox.submissions]) {
      const { assignmentId, submitSeq } = submission.input;
      if (this.outbox.events.some((event) => event.assignmentId === assignmentId && event.seq <= submitSeq)) continue;
      const result = await this.post(this.options.responsesUrl, submission.input);
      if (result.kind === "retry") return this.failed();
      this.outbox.submissions = this.outbox.submissions.filter((s) => s.input.clientId !== submission.input.clientId);
      this.removedClientIds.add(submission.input.clientId);
      if (result.kind === "rejected") {
        // kept, never sent again; a 409 says why (another tab writes the item, or it was answered already) for the page to tell the person
        const reason = result.status === 409 ? refusalReasonOf(result.body) : null;
        this.outbox.rejected.push({ at: this.options.now(), status: result.status, what: "submission", body: submission.input });
        if (reason === "submitted") this.markDone(assignmentId);
        this.save();
        if (reason === "writer") this.lose(assignmentId);
        const message = (result.body as { error?: unknown } | null)?.error;
        this.settle(
          assignmentId,
          null,
          new SubmissionRefused(
            assignmentId,
            result.status,
            reason,
            typeof message === "string" ? message : `the server refused the submission (${result.status}): ${JSON.stringify(result.body)}`,
          ),
        );
        continue;
      }
      const ack = result.body as ResponseAck;
      this.markDone(assignmentId);
      this.save();
      this.settle(assignmentId, ack, null);
    }
    this.failures = 0;
    this.offline = false;
    this.emit();
    return true;
  }

  private failed(): false {
    this.failures += 1;
    this.offline = true;
    const delay = Math.min(this.options.maxRetryMs, this.options.baseRetryMs * 2 ** (this.failures - 1));
    this.schedule(Math.round(delay * (0.5 + this.options.random() / 2)));
    this.emit();
    return false;
  }

  private removeEvents(events: readonly TrajectoryEvent[]): void {
    const set = new Set(events.map(eventKey));
    for (const key of set) this.removedKeys.add(key);
    this.outbox.events = this.outbox.events.filter((event) => !set.has(eventKey(event)));
    this.save();
  }

  private markDone(assignmentId: string): void {
    this.outbox.done = [...this.outbox.done.filter((id) => id !== assignmentId), assignmentId].slice(-MAX_DONE);
    delete this.outbox.cursors[assignmentId];
  }

  private settle(assignmentId: string, ack: ResponseAck | null, error: Error | null): void {
    if (ack) {
      this.acks.set(assignmentId, ack);
      for (const listener of this.ackListeners) listener(ack);
    }
    const list = this.waiters.get(assignmentId) ?? [];
    this.waiters.delete(assignmentId);
    for (const waiter of list) {
      if (ack) waiter.resolve(ack);
      else waiter.reject(error ?? new Error("submission failed"));
    }
  }

  private async post(
    url: string,
    body: unknown,
  ): Promise<{ kind: "ok"; status: number; body: unknown } | { kind: "retry" } | { kind: "rejected"; status: number; body: unknown }> {
    let response: Response;
    try {
      response = await this.options.fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        credentials: "same-origin",
      });
    } catch {
      return { kind: "retry" };
    }
    let parsed: unknown = null;
    try {
      parsed = await response.json();
    } catch {
      parsed = null;
    }
    if (response.ok) return parsed === null ? { kind: "retry" } : { kind: "ok", status: response.status, body: parsed };
    // events: a 409 stores the writer's events and refuses another tab's, and says which in the same fields as a 200
    if (response.status === 409 && url === this.options.eventsUrl && parsed !== null && typeof parsed === "object" && "acked" in parsed)
      return { kind: "ok", status: 409, body: parsed };
    if (retryable(response.status)) return { kind: "retry" };
    return { kind: "rejected", status: response.status, body: parsed };
  }

  /**
   * On `pagehide`: hand the pending events to the browser with navigator.sendBeacon, which
   * delivers them even as the page goes away. Nothing is removed (a beacon has no reply): the next
   * page load sends them again and the server keeps the first copy. Returns the number of
   * events handed over.
   */
  flushBeacon(sendBeacon: (url: string, data: string) => boolean, maxBytes = 60_000): number {
    let handed = 0;
    let batch: TrajectoryEvent[] = [];
    let size = 12;
    const send = () => {
      if (batch.length === 0) return true;
      const ok = sendBeacon(this.options.eventsUrl, JSON.stringify({ events: batch }));
      if (ok) handed += batch.length;
      batch = [];
      size = 12;
      return ok;
    };
    for (const event of this.outbox.events) {
      const length = JSON.stringify(event).length + 1;
      if (batch.length > 0 && (size + length > maxBytes || batch.length >= this.options.batchSize)) {
        if (!send()) return handed;
      }
      batch.push(event);
      size += length;
    }
    send();
    return handed;
  }

  /** Stop timers (tests, page teardown). Pending data stays in storage. */
  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = null;
    this.listeners.clear();
    this.ackListeners.clear();
    this.lostListeners.clear();
  }
}
