import { createHmac, timingSafeEqual } from "node:crypto";
import pRetry, { AbortError } from "p-retry";
import { AppError } from "@/lib/errors";
import type { RejectionCategory } from "@/lib/recruitment/prolific/categories";

/**
 * A client of Prolific's public API v1 (https://docs.prolific.com/api-reference/introduction), for
 * exactly what Yardstick does with it: create a study as a draft and move it (PUBLISH, PAUSE,
 * START, STOP), list its submissions, approve or reject them, set up and pay bulk bonuses, and
 * subscribe to submission status changes. Every request carries `Authorization: Token <token>`.
 *
 * Retries (p-retry, on a network failure, 429 or 5xx) only where a second request cannot do a
 * second thing: GETs, and the transitions Prolific documents as idempotent (a submission's
 * transition; a study's transition to the state it is in already is refused, not repeated).
 * Creating a study or a bonus set-up is sent once (a retry would make a second one), and paying
 * bonuses is never retried: "This endpoint is not idempotent" (docs, Pay bonuses) - the caller
 * keeps the batch so that a confirm sent again never reaches it twice (lib/recruitment/prolific/batches.ts).
 *
 * Prolific's errors come as { error: { status, error_code, title, detail } } where `detail` is a
 * sentence or an object of field -> messages; they become an AppError whose message says what was
 * asked and what Prolific answered.
 */

export const DEFAULT_PROLIFIC_API_URL = "https://api.prolific.com/api/v1/";

/** The API's base URL: PROLIFIC_API_URL (a stand-in in tests and the e2e run), else Prolific's. */
export function prolificApiUrl(): string {
  const configured = process.env.PROLIFIC_API_URL?.trim();
  const url = configured || DEFAULT_PROLIFIC_API_URL;
  return url.endsWith("/") ? url : `${url}/`;
}

export type StudyAction = "PUBLISH" | "PAUSE" | "START" | "STOP";
export type SubmissionAction = "APPROVE" | "REJECT";

export { MIN_REJECTION_MESSAGE, REJECTION_CATEGORIES, type RejectionCategory } from "@/lib/recruitment/prolific/categories";

/** Prolific's completion code types used for Yardstick's endings */
export type CompletionCodeType = "COMPLETED" | "FAILED_ATTENTION_CHECK" | "TIMED_OUT" | "NO_CONSENT" | "FIXED_SCREENOUT" | "OTHER";

export interface CompletionCode {
  code: string;
  code_type: CompletionCodeType;
  actions: Array<{ action: "MANUALLY_REVIEW" | "AUTOMATICALLY_APPROVE" | "REQUEST_RETURN" }>;
}

export interface StudyDraft {
  name: string;
  internal_name?: string;
  description: string;
  external_study_url: string;
  prolific_id_option: "url_parameters";
  completion_codes: CompletionCode[];
  total_available_places: number;
  /** minutes */
  estimated_completion_time: number;
  /** minor units (pence or cents) of the workspace's currency */
  reward: number;
  device_compatibility?: Array<"desktop" | "tablet" | "mobile">;
}

export interface ProlificStudyReply {
  id: string;
  status: string;
  total_available_places?: number;
  reward?: number;
  estimated_completion_time?: number;
}

export interface ProlificSubmissionReply {
  id: string;
  participant_id: string;
  status: string;
  started_at?: string | null;
  completed_at?: string | null;
  time_taken?: number | null;
  study_code?: string | null;
}

interface SubmissionPage {
  results?: ProlificSubmissionReply[];
  _links?: { next?: { href?: string | null } };
}

export interface BulkBonusReply {
  id: string;
  total_amount?: number;
  amount?: number;
  fees?: number;
}

export interface ClientCall {
  method: string;
  path: string;
  status: number | null;
  ok: boolean;
  attempts: number;
  error?: string;
}

export interface ProlificClientOptions {
  token: string;
  baseUrl?: string;
  /** attempts after the first for retried calls */
  retries?: number;
  /** told of every call made (the audit log's entry) */
  onCall?: (call: ClientCall) => Promise<void> | void;
}

/** A refusal or failure of Prolific's, in words. `status`: Prolific's HTTP status (null: no answer). */
export class ProlificApiError extends AppError {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(status !== null && status >= 400 && status < 500 && status !== 429 ? "CONFLICT" : "UNAVAILABLE", message, { prolificStatus: status });
  }
}

/** Prolific's error body as one sentence: its error.detail (a string, or field -> messages) and title. */
export function prolificErrorText(body: unknown): string | null {
  if (!body || typeof body !== "object") return null;
  const error = (body as { error?: unknown }).error ?? body;
  if (!error || typeof error !== "object") return typeof error === "string" ? error : null;
  const { detail, title } = error as { detail?: unknown; title?: unknown };
  const parts: string[] = [];
  if (typeof title === "string" && title) parts.push(title);
  if (typeof detail === "string" && detail) parts.push(detail);
  else if (Array.isArray(detail)) parts.push(detail.map(String).join("; "));
  else if (detail && typeof detail === "object")
    parts.push(
      Object.entries(detail as Record<string, unknown>)
        .map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.map(String).join(", ") : String(messages)}`)
        .join("; "),
    );
  return parts.length > 0 ? parts.join(": ").slice(0, 500) : null;
}

const TIMEOUT_MS = 20_000;

export class ProlificClient {
  private readonly baseUrl: string;

  constructor(private readonly options: ProlificClientOptions) {
    this.baseUrl = options.baseUrl ?? prolificApiUrl();
  }

  private async request<T>(method: "GET" | "POST", path: string, what: string, body: unknown, retry: boolean): Promise<{ data: T; headers: Headers }> {
    const url = new URL(path.replace(/^\//, ""), this.baseUrl);
    let attempts = 0;
    let lastStatus: number | null = null;
    const once = async () => {
      attempts += 1;
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers: {
            Authorization: `Token ${this.options.token}`,
            Accept: "application/json",
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          redirect: "error",
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        lastStatus = null;
        const failure = new ProlificApiError(`Prolific did not answer (${what}): ${error instanceof Error ? error.message : String(error)}`, null);
        throw retry ? failure : new AbortError(failure);
      }
      lastStatus = response.status;
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      if (!response.ok) {
        const words = prolificErrorText(parsed) ?? (text.slice(0, 200) || response.statusText);
        const failure = new ProlificApiError(`Prolific refused ${what} (${response.status}): ${words}`, response.status);
        if (retry && (response.status === 429 || response.status >= 500)) throw failure;
        throw new AbortError(failure);
      }
      return { data: parsed as T, headers: response.headers };
    };
    try {
      const result = await pRetry(once, { retries: retry ? (this.options.retries ?? 3) : 0, minTimeout: 200, maxTimeout: 2000 });
      await this.options.onCall?.({ method, path, status: lastStatus, ok: true, attempts });
      return result;
    } catch (error) {
      const failure = error instanceof AbortError && error.cause ? error.cause : error;
      await this.options.onCall?.({
        method,
        path,
        status: lastStatus,
        ok: false,
        attempts,
        error: failure instanceof Error ? failure.message : String(failure),
      });
      throw failure;
    }
  }

  async createStudy(draft: StudyDraft): Promise<ProlificStudyReply> {
    return (await this.request<ProlificStudyReply>("POST", "studies/", "the study draft", draft, false)).data;
  }

  async getStudy(id: string): Promise<ProlificStudyReply> {
    return (await this.request<ProlificStudyReply>("GET", `studies/${encodeURIComponent(id)}/`, "reading the study", undefined, true)).data;
  }

  async transitionStudy(id: string, action: StudyAction): Promise<ProlificStudyReply> {
    return (await this.request<ProlificStudyReply>("POST", `studies/${encodeURIComponent(id)}/transition/`, `the study's ${action}`, { action }, true)).data;
  }

  /** Every submission of the study, following the pages' `_links.next`. */
  async listSubmissions(studyId: string): Promise<ProlificSubmissionReply[]> {
    const out: ProlificSubmissionReply[] = [];
    let path: string | null = `submissions/?study=${encodeURIComponent(studyId)}`;
    for (let page = 0; path !== null && page < 100; page++) {
      const { data }: { data: SubmissionPage } = await this.request<SubmissionPage>("GET", path, "listing the submissions", undefined, true);
      out.push(...(data.results ?? []));
      const next: string | null | undefined = data._links?.next?.href;
      path = next ? new URL(next, this.baseUrl).href : null;
    }
    return out;
  }

  async transitionSubmission(
    id: string,
    action: SubmissionAction,
    reject?: { rejection_category: RejectionCategory; message: string },
  ): Promise<ProlificSubmissionReply> {
    const body = action === "REJECT" ? { action, ...reject } : { action };
    return (await this.request<ProlificSubmissionReply>("POST", `submissions/${encodeURIComponent(id)}/transition/`, `the submission's ${action}`, body, true))
      .data;
  }

  /** Approves many submissions at once, by submission id (the form the docs recommend); approving an approved one changes nothing, so it is retried. */
  async bulkApprove(submissionIds: string[]): Promise<void> {
    await this.request("POST", "submissions/bulk-approve/", "the bulk approval", { submission_ids: submissionIds }, true);
  }

  /** Sets up (does not pay) a bulk bonus: csv lines `<participant id>,<amount in the currency's major unit>`. */
  async setUpBonuses(studyId: string, csv: string): Promise<BulkBonusReply> {
    return (await this.request<BulkBonusReply>("POST", "submissions/bonus-payments/", "setting up the bonuses", { study_id: studyId, csv_bonuses: csv }, false))
      .data;
  }

  /** Pays a set-up bulk bonus. Not idempotent at Prolific: sent once, never retried. */
  async payBonuses(bulkBonusId: string): Promise<void> {
    await this.request("POST", `bulk-bonus-payments/${encodeURIComponent(bulkBonusId)}/pay/`, "paying the bonuses", {}, false);
  }

  async listWorkspaces(): Promise<Array<{ id: string; title?: string }>> {
    const { data } = await this.request<{ results?: Array<{ id: string; title?: string }> }>("GET", "workspaces/", "listing the workspaces", undefined, true);
    return data.results ?? [];
  }

  /** The workspace's hook secret: the active one, or a new one when there is none (one per workspace). */
  async hookSecret(workspaceId: string): Promise<string> {
    const { data } = await this.request<{ results?: Array<{ id: string; value?: string }> }>(
      "GET",
      `hooks/secrets/?workspace_id=${encodeURIComponent(workspaceId)}`,
      "reading the hook secret",
      undefined,
      true,
    );
    const existing = data.results?.find((s) => typeof s.value === "string" && s.value);
    if (existing?.value) return existing.value;
    const created = await this.request<{ id: string; value: string }>("POST", "hooks/secrets/", "creating a hook secret", { workspace_id: workspaceId }, false);
    return created.data.value;
  }

  /** Subscribes `targetUrl` to submission status changes; confirms it with the X-Hook-Secret the answer carries. */
  async subscribeSubmissionStatus(workspaceId: string, targetUrl: string): Promise<string> {
    const { data, headers } = await this.request<{ id: string }>(
      "POST",
      "hooks/subscriptions/",
      "the hook subscription",
      { workspace_id: workspaceId, event_type: "submission.status.change", target_url: targetUrl },
      false,
    );
    const confirm = headers.get("x-hook-secret");
    if (confirm)
      await this.request("POST", `hooks/subscriptions/${encodeURIComponent(data.id)}/`, "confirming the hook subscription", { secret: confirm }, true);
    return data.id;
  }
}

/** How far a hook's X-Prolific-Request-Timestamp may be from now (a replayed old request is refused). */
export const HOOK_TOLERANCE_SECONDS = 300;

/**
 * The signature Prolific sends in X-Prolific-Request-Signature: base64 of HMAC-SHA256 of the
 * timestamp followed by the raw body, keyed with the workspace's hook secret (docs, Webhooks > Verifying).
 */
export function hookSignature(secret: string, timestamp: string, rawBody: string): string {
  return createHmac("sha256", secret)
    .update(timestamp + rawBody, "utf8")
    .digest("base64");
}

/** Why a hook request is not Prolific's, or null when its signature and timestamp hold. */
export function hookRefusal(secret: string, headers: Headers, rawBody: string, nowMs = Date.now()): string | null {
  const signature = headers.get("x-prolific-request-signature");
  const timestamp = headers.get("x-prolific-request-timestamp");
  if (!signature || !timestamp) return "the request has no X-Prolific-Request-Signature and X-Prolific-Request-Timestamp";
  if (!/^\d{1,12}$/.test(timestamp)) return "X-Prolific-Request-Timestamp is not a UNIX time";
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > HOOK_TOLERANCE_SECONDS) return `the timestamp is more than ${HOOK_TOLERANCE_SECONDS} seconds from now`;
  const expected = Buffer.from(hookSignature(secret, timestamp, rawBody));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "the signature does not match";
  return null;
}
