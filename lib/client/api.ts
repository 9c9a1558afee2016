/**
 * The staff pages' calls to this site's JSON API (browser-safe): JSON or a form in, the parsed
 * JSON answer out, and an error answer's message, code and issues (lib/errors.ts toResponse)
 * read the same way everywhere. Never throws: a request that never got an answer (offline, the
 * server down) comes back as status 0 with `unreachable`. The session cookie goes along as with
 * any same-origin fetch, and the browser's own Origin and Sec-Fetch-Site headers are what the
 * same-site check reads (lib/security/csrf.ts).
 */

export interface ApiIssue {
  path: string;
  message: string;
}

export interface ApiFailure {
  ok: false;
  /** the HTTP status; 0 when no answer came */
  status: number;
  unreachable: boolean;
  /** the server's message, when its answer had one */
  error?: string;
  code?: string;
  issues?: ApiIssue[];
  details?: unknown;
  /** the answer's Retry-After in ms (a 503 of an overloaded server, a 429), when it gave one in seconds */
  retryAfterMs?: number;
}

export interface ApiSuccess<T> {
  ok: true;
  status: number;
  /** the parsed JSON answer; undefined for an empty answer (204) */
  data: T;
}

export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

export interface ApiRequest {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** sent as JSON */
  json?: unknown;
  /** sent as multipart/form-data */
  form?: FormData;
  /** for polls: never answered from the browser's cache */
  noStore?: boolean;
  signal?: AbortSignal;
}

async function parsedBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => "");
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function failureOf(status: number, body: unknown, retryAfter: string | null): ApiFailure {
  const fields = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const retryAfterSeconds = Number(retryAfter);
  return {
    ok: false,
    status,
    unreachable: false,
    error: typeof fields.error === "string" ? fields.error : undefined,
    code: typeof fields.code === "string" ? fields.code : undefined,
    issues: Array.isArray(fields.issues) ? (fields.issues as ApiIssue[]) : undefined,
    details: fields.details,
    ...(retryAfter !== null && Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 0 ? { retryAfterMs: retryAfterSeconds * 1000 } : {}),
  };
}

/** Calls `path` (a path of this site, e.g. `/api/studies/x/status`). */
export async function callApi<T = unknown>(path: string, request: ApiRequest = {}): Promise<ApiResult<T>> {
  const init: RequestInit = { method: request.method ?? (request.json !== undefined || request.form ? "POST" : "GET"), signal: request.signal };
  if (request.json !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(request.json);
  } else if (request.form) {
    init.body = request.form;
  }
  if (request.noStore) init.cache = "no-store";
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    return { ok: false, status: 0, unreachable: true };
  }
  const body = await parsedBody(response);
  if (!response.ok) return failureOf(response.status, body, response.headers.get("retry-after"));
  return { ok: true, status: response.status, data: body as T };
}

/** Issues by field path (the first message of each), e.g. for a form's inline errors; an issue without a path goes to `form`. */
export function issuesByField(issues: readonly ApiIssue[] | undefined): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const issue of issues ?? []) byField[issue.path || "form"] ??= issue.message;
  return byField;
}
