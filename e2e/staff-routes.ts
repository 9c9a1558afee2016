/**
 * Every admin and researcher route, for the table-driven role tests (e2e/roles.e2e.ts). A unit
 * test (tests/staff-routes.test.ts) fails when a route handler under app/api is missing here, so
 * a new route cannot skip the check.
 */
export interface RouteCase {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  /** the file under app/api that serves it */
  file: string;
  body?: unknown;
  allowed: Array<"ADMIN" | "RESEARCHER">;
}

const staff: RouteCase["allowed"] = ["ADMIN", "RESEARCHER"];
const admin: RouteCase["allowed"] = ["ADMIN"];
const slug = "any-study";

export const staffApiRoutes: RouteCase[] = [
  { method: "GET", path: "/api/admin/users", file: "admin/users/route.ts", allowed: admin },
  {
    method: "POST",
    path: "/api/admin/users",
    file: "admin/users/route.ts",
    body: { name: "x", email: "x@x.test", password: "password123", role: "ADMIN" },
    allowed: admin,
  },
  { method: "PATCH", path: "/api/admin/users/some-user-id", file: "admin/users/[id]/route.ts", body: { role: "ADMIN" }, allowed: admin },
  // researchers pass the role gate: a study's owner imports into it (lib/studies/managers.ts answers 403 for another's study, 404 for none)
  { method: "POST", path: "/api/admin/import", file: "admin/import/route.ts", allowed: staff },
  { method: "GET", path: "/api/admin/import/jobs/no-such-job", file: "admin/import/jobs/[id]/route.ts", allowed: staff },
  // the asset migration as a job (docs/media.md): a body that is refused (422) starts nothing
  { method: "GET", path: "/api/admin/assets/migrate", file: "admin/assets/migrate/route.ts", allowed: admin },
  { method: "POST", path: "/api/admin/assets/migrate", file: "admin/assets/migrate/route.ts", body: { to: "nowhere" }, allowed: admin },
  { method: "GET", path: "/api/admin/assets/migrate/jobs/no-such-job", file: "admin/assets/migrate/jobs/[id]/route.ts", allowed: admin },
  { method: "GET", path: "/api/studies", file: "studies/route.ts", allowed: staff },
  { method: "POST", path: "/api/studies", file: "studies/route.ts", body: { title: "Sneaky", slug: "sneaky", overlap: 1 }, allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/dashboard`, file: "studies/[slug]/dashboard/route.ts", allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/progress`, file: "studies/[slug]/progress/route.ts", allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/comparison.csv`, file: "studies/[slug]/comparison.csv/route.ts", allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/agreement-plan`, file: "studies/[slug]/agreement-plan/route.ts", body: {}, allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/export/responses?format=csv`, file: "studies/[slug]/export/[what]/route.ts", allowed: staff },
  // exports prepared in the background (docs/exports.md); writes go to a study that does not exist (404)
  { method: "GET", path: `/api/studies/${slug}/export-jobs`, file: "studies/[slug]/export-jobs/route.ts", allowed: staff },
  {
    method: "POST",
    path: `/api/studies/${slug}/export-jobs`,
    file: "studies/[slug]/export-jobs/route.ts",
    body: { table: "responses", format: "csv" },
    allowed: staff,
  },
  { method: "GET", path: `/api/studies/${slug}/export-jobs/no-such-job`, file: "studies/[slug]/export-jobs/[id]/route.ts", allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/export-jobs/no-such-job/download`, file: "studies/[slug]/export-jobs/[id]/download/route.ts", allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/submission/egoschema?who=majority`, file: "studies/[slug]/submission/[format]/route.ts", allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/members`, file: "studies/[slug]/members/route.ts", allowed: staff },
  // admins and the study's owner (lib/studies/managers.ts): researchers pass the role gate, the owner check follows
  { method: "POST", path: `/api/studies/${slug}/members`, file: "studies/[slug]/members/route.ts", body: { userIds: ["x"] }, allowed: staff },
  { method: "DELETE", path: `/api/studies/${slug}/members`, file: "studies/[slug]/members/route.ts", body: { userId: "x" }, allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/model-runs`, file: "studies/[slug]/model-runs/route.ts", allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/model-runs`, file: "studies/[slug]/model-runs/route.ts", allowed: staff },
  { method: "DELETE", path: `/api/studies/${slug}/model-runs/some-run`, file: "studies/[slug]/model-runs/[runId]/route.ts", allowed: staff },
  // EXPLORE-Bench LLM scoring jobs (lib/scoring)
  { method: "GET", path: `/api/studies/${slug}/scoring-jobs`, file: "studies/[slug]/scoring-jobs/route.ts", allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/scoring-jobs`, file: "studies/[slug]/scoring-jobs/route.ts", allowed: staff },
  {
    method: "POST",
    path: `/api/studies/${slug}/step-labels`,
    file: "studies/[slug]/step-labels/route.ts",
    body: { assignmentId: "x", seq: 1, label: "contrastive" },
    allowed: staff,
  },
  // running a study with recruited participants: settings, lifecycle, versions, entry link, invites, participant status, audit log
  { method: "GET", path: `/api/studies/${slug}/settings`, file: "studies/[slug]/settings/route.ts", allowed: staff },
  { method: "PATCH", path: `/api/studies/${slug}/settings`, file: "studies/[slug]/settings/route.ts", body: { title: "Sneaky" }, allowed: staff },
  { method: "PATCH", path: `/api/studies/${slug}/analysis`, file: "studies/[slug]/analysis/route.ts", body: { generaliseOver: "items" }, allowed: staff },
  {
    method: "PATCH",
    path: `/api/studies/${slug}/contact`,
    file: "studies/[slug]/contact/route.ts",
    body: { contactName: "Sneaky", contactEmail: null },
    allowed: staff,
  },
  // the human-baseline report (docs/report.md) and its answers only a person can give
  { method: "GET", path: `/api/studies/${slug}/report?format=md`, file: "studies/[slug]/report/route.ts", allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/reporting`, file: "studies/[slug]/reporting/route.ts", allowed: staff },
  { method: "PATCH", path: `/api/studies/${slug}/reporting`, file: "studies/[slug]/reporting/route.ts", body: { answers: {} }, allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/status`, file: "studies/[slug]/status/route.ts", body: { status: "CLOSED" }, allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/versions`, file: "studies/[slug]/versions/route.ts", body: {}, allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/entry-link`, file: "studies/[slug]/entry-link/route.ts", body: { action: "create" }, allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/participants`, file: "studies/[slug]/participants/route.ts", allowed: staff },
  {
    method: "POST",
    path: `/api/studies/${slug}/participants`,
    file: "studies/[slug]/participants/route.ts",
    body: { action: "return", userId: "x" },
    allowed: staff,
  },
  // archiving and deleting a study (its owner or an admin; a study that does not exist: 404)
  { method: "POST", path: `/api/studies/${slug}/archive`, file: "studies/[slug]/archive/route.ts", body: { archived: true }, allowed: staff },
  { method: "DELETE", path: `/api/studies/${slug}`, file: "studies/[slug]/route.ts", body: { confirm: slug }, allowed: staff },
  // an item marked practice, gold or ordinary from the study's page (a study that does not exist: 404)
  { method: "PATCH", path: `/api/studies/${slug}/items/no-such-item`, file: "studies/[slug]/items/[id]/route.ts", body: { role: "gold" }, allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/invites`, file: "studies/[slug]/invites/route.ts", allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/invites`, file: "studies/[slug]/invites/route.ts", body: { name: "Sneaky" }, allowed: staff },
  { method: "DELETE", path: `/api/studies/${slug}/invites`, file: "studies/[slug]/invites/route.ts", body: { inviteId: "x" }, allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/audit`, file: "studies/[slug]/audit/route.ts", allowed: staff },
  // item verification (docs/review.md): managing review studies and reading their results is staff work
  { method: "GET", path: "/api/review/studies", file: "review/studies/route.ts", allowed: staff },
  {
    method: "POST",
    path: "/api/review/studies",
    file: "review/studies/route.ts",
    body: { title: "Sneaky", slug: "sneaky-review", batchIds: ["x"], reviewerIds: ["x", "y", "z"] },
    allowed: staff,
  },
  { method: "PATCH", path: `/api/review/studies/${slug}`, file: "review/studies/[slug]/route.ts", body: { status: "CLOSED" }, allowed: staff },
  { method: "GET", path: `/api/review/studies/${slug}/results`, file: "review/studies/[slug]/results/route.ts", allowed: staff },
  {
    method: "POST",
    path: `/api/review/studies/${slug}/decisions`,
    file: "review/studies/[slug]/decisions/route.ts",
    body: { reviewItemId: "x", decision: "EXCLUDE", note: "sneaky" },
    allowed: staff,
  },
  { method: "GET", path: `/api/review/studies/${slug}/export?format=csv`, file: "review/studies/[slug]/export/route.ts", allowed: staff },
  // model agents (docs/api.md)
  { method: "GET", path: `/api/studies/${slug}/agents`, file: "studies/[slug]/agents/route.ts", allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/agents`, file: "studies/[slug]/agents/route.ts", body: { name: "Sneaky", model: "m" }, allowed: staff },
  { method: "DELETE", path: `/api/studies/${slug}/agents/no-such-agent`, file: "studies/[slug]/agents/[agentId]/route.ts", allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/agents/no-such-agent/token`, file: "studies/[slug]/agents/[agentId]/token/route.ts", body: {}, allowed: staff },
  // recruitment through Prolific (docs/prolific.md): one's own Prolific token (a refused body, 422, stores nothing; no token to revoke: 404);
  // a study's Prolific study, whose writes only the study's owner may make (to a study that does not exist: 404)
  { method: "GET", path: "/api/prolific/token", file: "prolific/token/route.ts", allowed: staff },
  { method: "POST", path: "/api/prolific/token", file: "prolific/token/route.ts", body: { token: "" }, allowed: staff },
  { method: "DELETE", path: "/api/prolific/token", file: "prolific/token/route.ts", allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/prolific`, file: "studies/[slug]/prolific/route.ts", allowed: staff },
  {
    method: "POST",
    path: `/api/studies/${slug}/prolific`,
    file: "studies/[slug]/prolific/route.ts",
    body: { description: "Sneaky study", hourlyRate: 1000, estimatedMinutes: 5 },
    allowed: staff,
  },
  {
    method: "POST",
    path: `/api/studies/${slug}/prolific/transition`,
    file: "studies/[slug]/prolific/transition/route.ts",
    body: { action: "PUBLISH" },
    allowed: staff,
  },
  { method: "POST", path: `/api/studies/${slug}/prolific/sync`, file: "studies/[slug]/prolific/sync/route.ts", allowed: staff },
  {
    method: "POST",
    path: `/api/studies/${slug}/prolific/batches`,
    file: "studies/[slug]/prolific/batches/route.ts",
    body: { action: "approve" },
    allowed: staff,
  },
  {
    method: "POST",
    path: `/api/studies/${slug}/prolific/batches/confirm`,
    file: "studies/[slug]/prolific/batches/confirm/route.ts",
    body: { batchId: "no-such-batch" },
    allowed: staff,
  },
  // personal API tokens (docs/api.md): one's own, so a refused body (422) or an unknown id (404) changes nothing
  { method: "GET", path: "/api/tokens", file: "tokens/route.ts", allowed: staff },
  { method: "POST", path: "/api/tokens", file: "tokens/route.ts", body: { name: "", scopes: [] }, allowed: staff },
  { method: "DELETE", path: "/api/tokens/no-such-token", file: "tokens/[id]/route.ts", allowed: staff },
];

/** Route handler files an annotator may use (their own flow), and next-auth's own. */
export const annotatorApiFiles = [
  "annotate/assignments/[id]/route.ts",
  "annotate/assignments/[id]/play/route.ts",
  "annotate/assignments/[id]/writer/route.ts",
  "annotate/events/route.ts",
  "annotate/responses/route.ts",
  "annotate/studies/[slug]/next/route.ts",
  "annotate/studies/route.ts",
  // a participant's own steps in a study they are a member of (lib/participants/participants.ts checks membership)
  "annotate/studies/[slug]/consent/route.ts",
  "annotate/studies/[slug]/tutorial/route.ts",
  "annotate/studies/[slug]/withdraw/route.ts",
  "assets/[hash]/route.ts",
  "auth/[...nextauth]/route.ts",
  // a reviewer's own flow: membership of the review study grants it, whatever the role (lib/review/work.ts checks)
  "review/studies/[slug]/next/route.ts",
  "review/assignments/[id]/verdicts/route.ts",
  "review/assets/[hash]/route.ts",
];

export const staffPages = ["/admin/users", "/admin/import", "/research", "/research/studies/new", "/review/new"];

// --- the authorization matrix (SECURITY.md) ---------------------------------------------
// Every API route by every kind of caller: signed out, the annotator (or reviewer) whose data it is,
// another annotator using the first one's ids (IDOR), a researcher, an admin. e2e/roles.e2e.ts runs
// it against real rows; tests/faults/fuzz.faults.test.ts fuzzes the JSON bodies of the same routes;
// tests/staff-routes.test.ts fails when a route handler (or a server action) is missing here.

export type MatrixActor = "anonymous" | "owner" | "intruder" | "researcher" | "admin";
/** "allowed": neither 401 nor 403 (nor a 5xx): the caller may do it, though the input may be refused (404, 409, 422) */
export type MatrixOutcome = "allowed" | 401 | 403 | 404;

/** Real rows the routes point at: a study the owner annotates in (the intruder is no member, the researcher did not create it), and a review study the owner reviews in. */
export interface MatrixFixture {
  studySlug: string;
  assignmentId: string;
  assetHash: string;
  reviewSlug: string;
  reviewAssignmentId: string;
  reviewAssetHash: string;
}

export interface MatrixRoute {
  method: RouteCase["method"];
  file: string;
  path(fixture: MatrixFixture): string;
  /** the body each caller sends (a valid one where the ownership check comes after the body's) */
  body?(fixture: MatrixFixture, actor: MatrixActor): unknown;
  /** a JSON body (fuzzed by tests/faults), a multipart upload, or none */
  bodyKind: "json" | "multipart" | "none";
  /** whose own data it is: the e2e account acting as "owner" */
  owner: "annotator" | "reviewer1";
  expect: Record<Exclude<MatrixActor, "anonymous">, MatrixOutcome>;
}

const ownOnly = { owner: "allowed", intruder: 403, researcher: 403, admin: 403 } as const;
const uuid = "8d2b7c1e-6a55-4b2b-8d0f-8a8f5e5b2c99";

/** The annotator's and reviewer's own routes (annotatorApiFiles, except next-auth's). */
export const ownDataApiRoutes: MatrixRoute[] = [
  {
    method: "GET",
    file: "annotate/studies/route.ts",
    path: () => "/api/annotate/studies",
    bodyKind: "none",
    owner: "annotator",
    expect: { owner: "allowed", intruder: "allowed", researcher: "allowed", admin: "allowed" },
  },
  {
    method: "GET",
    file: "annotate/studies/[slug]/next/route.ts",
    path: (f) => `/api/annotate/studies/${f.studySlug}/next`,
    bodyKind: "none",
    owner: "annotator",
    expect: ownOnly,
  },
  {
    method: "GET",
    file: "annotate/assignments/[id]/route.ts",
    path: (f) => `/api/annotate/assignments/${f.assignmentId}`,
    bodyKind: "none",
    owner: "annotator",
    expect: ownOnly,
  },
  {
    method: "GET",
    file: "annotate/assignments/[id]/play/route.ts",
    path: (f) => `/api/annotate/assignments/${f.assignmentId}/play`,
    bodyKind: "none",
    owner: "annotator",
    expect: ownOnly,
  },
  {
    method: "POST",
    file: "annotate/assignments/[id]/play/route.ts",
    path: (f) => `/api/annotate/assignments/${f.assignmentId}/play`,
    body: () => ({ seq: 1, action: { type: "look" } }),
    bodyKind: "json",
    owner: "annotator",
    expect: ownOnly,
  },
  // takeOver false: another caller's claim would otherwise take the item from the owner's page (409 for the owner when one is writing: still allowed)
  {
    method: "POST",
    file: "annotate/assignments/[id]/writer/route.ts",
    path: (f) => `/api/annotate/assignments/${f.assignmentId}/writer`,
    body: () => ({ writer: "matrix", takeOver: false }),
    bodyKind: "json",
    owner: "annotator",
    expect: ownOnly,
  },
  {
    method: "POST",
    file: "annotate/events/route.ts",
    path: () => "/api/annotate/events",
    body: (f) => ({ events: [{ assignmentId: f.assignmentId, seq: 900, type: "page_hidden", payload: {}, clientTime: 1_760_000_000_000 }] }),
    bodyKind: "json",
    owner: "annotator",
    expect: ownOnly,
  },
  {
    method: "POST",
    file: "annotate/responses/route.ts",
    path: () => "/api/annotate/responses",
    // an answer of the wrong length: the owner gets 422 and the assignment stays open; the others are stopped before the answer is read
    body: (f) => ({ assignmentId: f.assignmentId, clientId: uuid, answer: { order: [0] }, confidence: 3, wallMs: 1, activeMs: 1, submitSeq: 0 }),
    bodyKind: "json",
    owner: "annotator",
    expect: ownOnly,
  },
  {
    method: "POST",
    file: "annotate/studies/[slug]/consent/route.ts",
    path: (f) => `/api/annotate/studies/${f.studySlug}/consent`,
    body: () => ({ version: 1, accept: true }),
    bodyKind: "json",
    owner: "annotator",
    expect: ownOnly,
  },
  {
    method: "POST",
    file: "annotate/studies/[slug]/tutorial/route.ts",
    path: (f) => `/api/annotate/studies/${f.studySlug}/tutorial`,
    bodyKind: "none",
    owner: "annotator",
    expect: ownOnly,
  },
  // the owner sends no confirmation (422: nothing deleted); the others a valid one, refused for not being members
  {
    method: "POST",
    file: "annotate/studies/[slug]/withdraw/route.ts",
    path: (f) => `/api/annotate/studies/${f.studySlug}/withdraw`,
    body: (_f, actor) => ({ confirm: actor === "owner" ? "no" : "withdraw" }),
    bodyKind: "json",
    owner: "annotator",
    expect: ownOnly,
  },
  // images of one's studies; researchers and admins see every image; others cannot tell it exists
  {
    method: "GET",
    file: "assets/[hash]/route.ts",
    path: (f) => `/api/assets/${f.assetHash}`,
    bodyKind: "none",
    owner: "annotator",
    expect: { owner: "allowed", intruder: 404, researcher: "allowed", admin: "allowed" },
  },
  // a reviewer's own flow (any role; membership of the review study grants it)
  {
    method: "GET",
    file: "review/studies/[slug]/next/route.ts",
    path: (f) => `/api/review/studies/${f.reviewSlug}/next`,
    bodyKind: "none",
    owner: "reviewer1",
    expect: ownOnly,
  },
  {
    method: "POST",
    file: "review/assignments/[id]/verdicts/route.ts",
    path: (f) => `/api/review/assignments/${f.reviewAssignmentId}/verdicts`,
    body: () => ({ verdicts: [{ axis: "correctness", pass: true }] }),
    bodyKind: "json",
    owner: "reviewer1",
    expect: ownOnly,
  },
  {
    method: "GET",
    file: "review/assets/[hash]/route.ts",
    path: (f) => `/api/review/assets/${f.reviewAssetHash}`,
    bodyKind: "none",
    owner: "reviewer1",
    expect: { owner: "allowed", intruder: 404, researcher: "allowed", admin: "allowed" },
  },
];

const multipartFiles = new Set(["admin/import/route.ts", "studies/[slug]/model-runs/route.ts"]);

/**
 * The staff routes as matrix rows. Researchers may use every study's staff routes (they are the
 * lab's staff; SECURITY.md), so reads go to the fixture's real study, which the researcher did not
 * create; writes go to a study that does not exist (404), so the matrix changes nothing real.
 */
export const staffMatrixRoutes: MatrixRoute[] = staffApiRoutes.map((route) => ({
  method: route.method,
  file: route.file,
  path: (f) => (route.method === "GET" ? route.path.replace(`/${slug}`, `/${f.studySlug}`) : route.path),
  body: route.body === undefined ? undefined : () => route.body,
  bodyKind: multipartFiles.has(route.file) && route.method === "POST" ? "multipart" : route.body === undefined ? "none" : "json",
  owner: "annotator",
  expect: { owner: 403, intruder: 403, researcher: route.allowed.includes("RESEARCHER") ? "allowed" : 403, admin: "allowed" },
}));

export const apiRouteMatrix: MatrixRoute[] = [...staffMatrixRoutes, ...ownDataApiRoutes];

/** The catch-all that answers unknown /api paths with a JSON 404 (no data, no session): outside the matrix. */
export const unmatchedApiRouteFile = "[[...path]]/route.ts";

/** The OpenAPI document (/api/openapi.json): public, it holds no data (lib/http/openapi.ts); outside the matrix, like the JSON 404. */
export const openApiRouteFile = "openapi.json/route.ts";

/**
 * Prolific's hook receiver (POST /api/prolific/hooks): no session, its caller is Prolific's server, which
 * proves itself by the request's signature (lib/recruitment/prolific/sync.ts; a bad one: 401, nothing
 * changes; tested in lib/recruitment/prolific/prolific.integration.test.ts); outside the matrix, like the JSON 404.
 */
export const signedHookRouteFiles = ["prolific/hooks/route.ts"];

/** Files with "use server" (server actions) and how the matrix covers them; none so far. */
export const serverActionFiles: string[] = [];
