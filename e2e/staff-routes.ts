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
  { method: "POST", path: "/api/admin/users", file: "admin/users/route.ts", body: { name: "x", email: "x@x.test", password: "password123", role: "ADMIN" }, allowed: admin },
  { method: "PATCH", path: "/api/admin/users/some-user-id", file: "admin/users/[id]/route.ts", body: { role: "ADMIN" }, allowed: admin },
  { method: "POST", path: "/api/admin/import", file: "admin/import/route.ts", allowed: admin },
  { method: "GET", path: "/api/studies", file: "studies/route.ts", allowed: staff },
  { method: "POST", path: "/api/studies", file: "studies/route.ts", body: { title: "Sneaky", slug: "sneaky", overlap: 1 }, allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/dashboard`, file: "studies/[slug]/dashboard/route.ts", allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/agreement-plan`, file: "studies/[slug]/agreement-plan/route.ts", body: {}, allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/export/responses?format=csv`, file: "studies/[slug]/export/[what]/route.ts", allowed: staff },
  { method: "GET", path: `/api/studies/${slug}/members`, file: "studies/[slug]/members/route.ts", allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/members`, file: "studies/[slug]/members/route.ts", body: { userIds: ["x"] }, allowed: admin },
  { method: "DELETE", path: `/api/studies/${slug}/members`, file: "studies/[slug]/members/route.ts", body: { userId: "x" }, allowed: admin },
  { method: "GET", path: `/api/studies/${slug}/model-runs`, file: "studies/[slug]/model-runs/route.ts", allowed: staff },
  { method: "POST", path: `/api/studies/${slug}/model-runs`, file: "studies/[slug]/model-runs/route.ts", allowed: staff },
  { method: "DELETE", path: `/api/studies/${slug}/model-runs/some-run`, file: "studies/[slug]/model-runs/[runId]/route.ts", allowed: staff },
  // item verification (docs/review.md): managing review studies and reading their results is staff work
  { method: "GET", path: "/api/review/studies", file: "review/studies/route.ts", allowed: staff },
  { method: "POST", path: "/api/review/studies", file: "review/studies/route.ts", body: { title: "Sneaky", slug: "sneaky-review", batchIds: ["x"], reviewerIds: ["x", "y", "z"] }, allowed: staff },
  { method: "PATCH", path: `/api/review/studies/${slug}`, file: "review/studies/[slug]/route.ts", body: { status: "CLOSED" }, allowed: staff },
  { method: "GET", path: `/api/review/studies/${slug}/results`, file: "review/studies/[slug]/results/route.ts", allowed: staff },
  { method: "POST", path: `/api/review/studies/${slug}/decisions`, file: "review/studies/[slug]/decisions/route.ts", body: { reviewItemId: "x", decision: "EXCLUDE", note: "sneaky" }, allowed: staff },
  { method: "GET", path: `/api/review/studies/${slug}/export?format=csv`, file: "review/studies/[slug]/export/route.ts", allowed: staff },
];

/** Route handler files an annotator may use (their own flow), and next-auth's own. */
export const annotatorApiFiles = [
  "annotate/assignments/[id]/route.ts",
  "annotate/events/route.ts",
  "annotate/responses/route.ts",
  "annotate/studies/[slug]/next/route.ts",
  "annotate/studies/route.ts",
  "assets/[hash]/route.ts",
  "auth/[...nextauth]/route.ts",
  // a reviewer's own flow: membership of the review study grants it, whatever the role (lib/review/work.ts checks)
  "review/studies/[slug]/next/route.ts",
  "review/assignments/[id]/verdicts/route.ts",
  "review/assets/[hash]/route.ts",
];

export const staffPages = ["/admin/users", "/admin/import", "/research", "/research/studies/new", "/review/new"];
