import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for Prolific's public API v1, for tests (no test calls the internet): exactly the
 * endpoints lib/recruitment/prolific/client.ts calls, with state, over real HTTP on 127.0.0.1 (a
 * free port). It follows these pages of Prolific's documentation:
 * - https://docs.prolific.com/api-reference/introduction (base URL /api/v1/, `Authorization: Token <token>`)
 * - https://docs.prolific.com/api-reference/studies (a draft, UNPUBLISHED, then published) and
 *   https://docs.prolific.com/documentation/core-concepts/reviewing-submissions-and-rewards (POST /studies/ with
 *   external_study_url, completion_codes, total_available_places, estimated_completion_time, reward; POST
 *   /studies/{id}/transition/ { action: PUBLISH | PAUSE | START | STOP })
 * - https://docs.prolific.com/api-reference/studies/get-study (GET /studies/{id}/)
 * - https://docs.prolific.com/api-reference/submissions/get-submissions (GET /submissions/?study=<id>: { results, _links })
 * - https://docs.prolific.com/api-reference/submissions/transition-submission (POST /submissions/{id}/transition/:
 *   APPROVE, or REJECT with rejection_category and a message of at least 100 characters; idempotent)
 * - https://docs.prolific.com/api-reference/submissions/bulk-approve-submissions (POST /submissions/bulk-approve/ { submission_ids })
 * - https://docs.prolific.com/api-reference/bonuses/create-bonus-payments (POST /submissions/bonus-payments/ { study_id,
 *   csv_bonuses "<participant id>,<amount>" lines }: 400 naming ids that did not take part)
 * - https://docs.prolific.com/api-reference/bonuses/pay-bonus-payments (POST /bulk-bonus-payments/{id}/pay/: not
 *   idempotent - this stand-in pays again on a second request, as Prolific would, so a test sees a double payment)
 * - https://docs.prolific.com/api-reference/webhooks/subscribing (GET/POST /hooks/secrets/, POST /hooks/subscriptions/
 *   answering an X-Hook-Secret header to confirm with), https://docs.prolific.com/api-reference/webhooks/verifying
 *   (X-Prolific-Request-Signature: base64 HMAC-SHA256 of timestamp + body; X-Prolific-Request-Timestamp)
 * - errors as { error: { status, error_code, title, detail } }
 * GET /workspaces/ lists one workspace. Tests drive participants with addSubmission / setStatus, and
 * `sendHook` posts a signed (or wrongly signed) status change to the subscribed target.
 */

export interface StandInStudy {
  id: string;
  status: string;
  body: Record<string, unknown>;
}

export interface StandInSubmission {
  id: string;
  study_id: string;
  participant_id: string;
  status: string;
  started_at: string;
  completed_at: string | null;
  time_taken: number | null;
  rejection?: { category: string; message: string };
}

export interface ProlificStandIn {
  /** the API base URL, ending in /api/v1/ */
  url: string;
  token: string;
  studies: Map<string, StandInStudy>;
  submissions: Map<string, StandInSubmission>;
  setups: Map<string, { study_id: string; lines: Array<{ participant: string; amount: number }>; total_amount: number }>;
  /** every pay request, in order (a bulk bonus paid twice shows twice) */
  payments: Array<{ bulkId: string; total_amount: number }>;
  subscriptions: Array<{ id: string; target_url: string; event_type: string; confirmed: boolean }>;
  hookSecret: string | null;
  requests: Array<{ method: string; path: string; body: unknown }>;
  /** the next requests to these "METHOD path" keys fail with this status (e.g. 503 for a retry) */
  failNext: Map<string, number>;
  addSubmission(studyId: string, participantId: string, status?: string): StandInSubmission;
  setStatus(submissionId: string, status: string): void;
  /** posts a submission.status.change for the submission to the subscribed target; `secret` overrides the signing secret */
  sendHook(submissionId: string, options?: { secret?: string; timestamp?: number; body?: string }): Promise<Response>;
  close(): Promise<void>;
}

const hex24 = () => randomBytes(12).toString("hex");
const REJECTION_CATEGORIES = new Set([
  "TOO_QUICKLY",
  "TOO_SLOWLY",
  "FAILED_INSTRUCTIONS",
  "INCOMP_LONGITUDINAL",
  "FAILED_CHECK",
  "LOW_EFFORT",
  "MALINGERING",
  "NO_CODE",
  "BAD_CODE",
  "NO_DATA",
  "UNSUPP_DEVICE",
  "OTHER",
]);

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(body === undefined ? "" : JSON.stringify(body));
}

function fail(response: ServerResponse, status: number, title: string, detail: unknown) {
  send(response, status, { error: { status, error_code: status * 100, title, detail } });
}

/** `port` 0: a free one (the e2e run gives the one the app was started with, PROLIFIC_API_URL in playwright.config.ts). */
export async function startProlificStandIn(token = `standin-${randomBytes(16).toString("hex")}`, port = 0): Promise<ProlificStandIn> {
  const state: Omit<ProlificStandIn, "url" | "close" | "addSubmission" | "setStatus" | "sendHook"> = {
    token,
    studies: new Map(),
    submissions: new Map(),
    setups: new Map(),
    payments: [],
    subscriptions: [],
    hookSecret: null,
    requests: [],
    failNext: new Map(),
  };
  const workspaceId = hex24();
  const pendingConfirm = new Map<string, string>();

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    const path = url.pathname.replace(/^\/api\/v1/, "");
    const method = request.method ?? "GET";
    const body = method === "POST" ? await bodyOf(request) : null;
    state.requests.push({ method, path: path + url.search, body });
    if (request.headers.authorization !== `Token ${token}`) return fail(response, 401, "Unauthorized", "Invalid token.");
    const failing = state.failNext.get(`${method} ${path}`);
    if (failing) {
      state.failNext.delete(`${method} ${path}`);
      return fail(response, failing, "Service unavailable", "Try again later.");
    }
    if (body === undefined) return fail(response, 400, "Bad request", "JSON parse error");
    const b = (body ?? {}) as Record<string, unknown>;
    let m: RegExpExecArray | null;

    if (method === "GET" && path === "/workspaces/") return send(response, 200, { results: [{ id: workspaceId, title: "Stand-in workspace" }] });

    if (method === "POST" && path === "/studies/") {
      const problems: Record<string, string[]> = {};
      for (const field of ["name", "description", "external_study_url", "completion_codes", "total_available_places", "estimated_completion_time", "reward"])
        if (b[field] === undefined || b[field] === null || b[field] === "") problems[field] = ["This field is required."];
      if (
        typeof b.external_study_url === "string" &&
        !["{{%PROLIFIC_PID%}}", "{{%STUDY_ID%}}", "{{%SESSION_ID%}}"].every((p) => (b.external_study_url as string).includes(p))
      )
        problems.external_study_url = ["The URL must carry PROLIFIC_PID, STUDY_ID and SESSION_ID."];
      if (Array.isArray(b.completion_codes) && b.completion_codes.length === 0) problems.completion_codes = ["Specify at least one completion code."];
      if (Object.keys(problems).length > 0) return fail(response, 400, "Bad request", problems);
      const study: StandInStudy = { id: hex24(), status: "UNPUBLISHED", body: b };
      state.studies.set(study.id, study);
      return send(response, 201, { id: study.id, status: study.status, ...b });
    }
    if ((m = /^\/studies\/([0-9a-f]{24})\/$/.exec(path)) && method === "GET") {
      const study = state.studies.get(m[1]);
      return study ? send(response, 200, { id: study.id, status: study.status, ...study.body }) : fail(response, 404, "Not found", "No such study.");
    }
    if ((m = /^\/studies\/([0-9a-f]{24})\/transition\/$/.exec(path)) && method === "POST") {
      const study = state.studies.get(m[1]);
      if (!study) return fail(response, 404, "Not found", "No such study.");
      const allowed: Record<string, { from: string[]; to: string }> = {
        PUBLISH: { from: ["UNPUBLISHED"], to: "ACTIVE" },
        PAUSE: { from: ["ACTIVE"], to: "PAUSED" },
        START: { from: ["PAUSED"], to: "ACTIVE" },
        STOP: { from: ["ACTIVE", "PAUSED"], to: "AWAITING REVIEW" },
      };
      const rule = allowed[String(b.action)];
      if (!rule) return fail(response, 400, "Bad request", { action: [`"${String(b.action)}" is not a valid choice.`] });
      if (!rule.from.includes(study.status)) return fail(response, 400, "Bad request", `Cannot ${String(b.action)} a study that is ${study.status}.`);
      study.status = rule.to;
      return send(response, 200, { id: study.id, status: study.status });
    }
    if (path === "/submissions/" && method === "GET") {
      const studyId = url.searchParams.get("study") ?? "";
      if (!state.studies.has(studyId)) return fail(response, 400, "Bad request", { study: ["A valid study id is required."] });
      const all = [...state.submissions.values()].filter((s) => s.study_id === studyId);
      // two per page, to exercise _links.next
      const page = Number(url.searchParams.get("page") ?? "1");
      const results = all.slice((page - 1) * 2, page * 2);
      const next = page * 2 < all.length ? `http://${request.headers.host}/api/v1${path}?study=${studyId}&page=${page + 1}` : null;
      return send(response, 200, { results, _links: { next: { href: next } }, meta: { count: all.length } });
    }
    if ((m = /^\/submissions\/([0-9a-f]{24})\/transition\/$/.exec(path)) && method === "POST") {
      const submission = state.submissions.get(m[1]);
      if (!submission) return fail(response, 404, "Not found", "No such submission.");
      const action = String(b.action);
      const target = action === "APPROVE" ? "APPROVED" : action === "REJECT" ? "REJECTED" : null;
      if (!target) return fail(response, 400, "Bad request", { action: [`"${action}" is not a valid choice.`] });
      if (submission.status === target) return send(response, 200, submission);
      if (submission.status !== "AWAITING REVIEW")
        return fail(response, 400, "Bad request", `A submission that is ${submission.status} cannot be ${target.toLowerCase()}.`);
      if (action === "REJECT") {
        if (!REJECTION_CATEGORIES.has(String(b.rejection_category)))
          return fail(response, 400, "Bad request", { rejection_category: ["A valid category is required."] });
        if (typeof b.message !== "string" || b.message.length < 100)
          return fail(response, 400, "Bad request", { message: ["Ensure this field has at least 100 characters."] });
        submission.rejection = { category: String(b.rejection_category), message: b.message };
      }
      submission.status = target;
      return send(response, 200, submission);
    }
    if (method === "POST" && path === "/submissions/bulk-approve/") {
      const ids = Array.isArray(b.submission_ids) ? (b.submission_ids as string[]) : [];
      const bad = ids.filter((id) => !state.submissions.has(id));
      if (bad.length > 0) return fail(response, 400, "Bad request", `Unknown submissions: ${bad.join(", ")}`);
      for (const id of ids) {
        const s = state.submissions.get(id)!;
        if (s.status === "AWAITING REVIEW") s.status = "APPROVED";
      }
      return send(response, 200, "The request to bulk approve has been handled successfully.");
    }
    if (method === "POST" && path === "/submissions/bonus-payments/") {
      const studyId = String(b.study_id ?? "");
      if (!state.studies.has(studyId)) return fail(response, 400, "Bad request", { study_id: ["No such study."] });
      const lines = String(b.csv_bonuses ?? "")
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split(","));
      const bad = lines.filter(
        ([pid, amount]) => ![...state.submissions.values()].some((s) => s.study_id === studyId && s.participant_id === pid) || !(Number(amount) > 0),
      );
      if (lines.length === 0 || bad.length > 0)
        return fail(response, 400, "Bad request", { csv_bonuses: [`Invalid rows: ${bad.map((l) => l.join(",")).join("; ") || "none given"}`] });
      const parsed = lines.map(([participant, amount]) => ({ participant, amount: Math.round(Number(amount) * 100) }));
      const id = hex24();
      const total = parsed.reduce((sum, l) => sum + l.amount, 0);
      state.setups.set(id, { study_id: studyId, lines: parsed, total_amount: total });
      return send(response, 201, { id, study: studyId, total_amount: total, amount: total, fees: 0 });
    }
    if ((m = /^\/bulk-bonus-payments\/([0-9a-f]{24})\/pay\/$/.exec(path)) && method === "POST") {
      const setup = state.setups.get(m[1]);
      if (!setup) return fail(response, 404, "Not found", "No such bulk bonus payment.");
      state.payments.push({ bulkId: m[1], total_amount: setup.total_amount });
      return send(response, 202, "The bonuses will be paid.");
    }
    if (path === "/hooks/secrets/" && method === "GET")
      return send(response, 200, { results: state.hookSecret ? [{ id: "secret-1", value: state.hookSecret, workspace_id: workspaceId }] : [] });
    if (path === "/hooks/secrets/" && method === "POST") {
      if (b.workspace_id !== workspaceId) return fail(response, 400, "Bad request", { workspace_id: ["No such workspace."] });
      state.hookSecret = randomBytes(24).toString("base64");
      return send(response, 201, { id: "secret-1", value: state.hookSecret, workspace_id: workspaceId });
    }
    if (path === "/hooks/subscriptions/" && method === "POST") {
      if (b.workspace_id !== workspaceId || b.event_type !== "submission.status.change" || typeof b.target_url !== "string")
        return fail(response, 400, "Bad request", "workspace_id, event_type and target_url are required.");
      const id = hex24();
      const confirm = randomBytes(8).toString("hex");
      pendingConfirm.set(id, confirm);
      state.subscriptions.push({ id, target_url: b.target_url, event_type: b.event_type, confirmed: false });
      return send(response, 201, { id, event_type: b.event_type, target_url: b.target_url, is_enabled: false }, { "X-Hook-Secret": confirm });
    }
    if ((m = /^\/hooks\/subscriptions\/([0-9a-f]{24})\/$/.exec(path)) && method === "POST") {
      const subscription = state.subscriptions.find((s) => s.id === m![1]);
      if (!subscription || pendingConfirm.get(subscription.id) !== b.secret) return fail(response, 400, "Bad request", "The secret does not match.");
      subscription.confirmed = true;
      return send(response, 200, { id: subscription.id, is_enabled: true });
    }
    return fail(response, 404, "Not found", `The stand-in has no ${method} ${path}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const listening = (server.address() as AddressInfo).port;

  return Object.assign(state, {
    url: `http://127.0.0.1:${listening}/api/v1/`,
    addSubmission(studyId: string, participantId: string, status = "ACTIVE") {
      const submission: StandInSubmission = {
        id: hex24(),
        study_id: studyId,
        participant_id: participantId,
        status,
        started_at: new Date().toISOString(),
        completed_at: null,
        time_taken: null,
      };
      state.submissions.set(submission.id, submission);
      return submission;
    },
    setStatus(submissionId: string, status: string) {
      const submission = state.submissions.get(submissionId);
      if (!submission) throw new Error(`stand-in: no submission ${submissionId}`);
      submission.status = status;
      if (status === "AWAITING REVIEW") {
        submission.completed_at = new Date().toISOString();
        submission.time_taken = Math.round((Date.now() - Date.parse(submission.started_at)) / 1000);
      }
    },
    async sendHook(submissionId: string, options: { secret?: string; timestamp?: number; body?: string } = {}) {
      const submission = state.submissions.get(submissionId);
      const subscription = state.subscriptions.find((s) => s.confirmed);
      if (!submission || !subscription) throw new Error("stand-in: no such submission, or no confirmed subscription");
      const body =
        options.body ??
        JSON.stringify({
          event_type: "submission.status.change",
          resource_id: submission.id,
          status: submission.status,
          participant_id: submission.participant_id,
          study_id: submission.study_id,
        });
      const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
      const signature = createHmac("sha256", options.secret ?? state.hookSecret ?? "")
        .update(timestamp + body)
        .digest("base64");
      return fetch(subscription.target_url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Prolific-Request-Signature": signature, "X-Prolific-Request-Timestamp": timestamp },
        body,
      });
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  });
}
