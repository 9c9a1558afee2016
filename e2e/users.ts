/** The accounts every end-to-end run seeds (e2e/global-setup.ts) and signs in as (e2e/auth.setup.ts). */
export const e2eUsers = {
  admin: { email: "admin@e2e.test", password: "e2e-admin-password", name: "Ada Admin", role: "ADMIN" },
  researcher: { email: "researcher@e2e.test", password: "e2e-researcher-password", name: "Rita Researcher", role: "RESEARCHER" },
  annotator: { email: "annotator@e2e.test", password: "e2e-annotator-password", name: "Ann Annotator", role: "ANNOTATOR" },
  annotator2: { email: "annotator2@e2e.test", password: "e2e-annotator-password", name: "Bo Annotator", role: "ANNOTATOR" },
  // item verification (e2e/review.e2e.ts): membership of a review study makes any user a reviewer
  reviewer1: { email: "reviewer1@e2e.test", password: "e2e-reviewer-password", name: "Rae Reviewer", role: "ANNOTATOR" },
  reviewer2: { email: "reviewer2@e2e.test", password: "e2e-reviewer-password", name: "Rui Reviewer", role: "ANNOTATOR" },
  reviewer3: { email: "reviewer3@e2e.test", password: "e2e-reviewer-password", name: "Remy Reviewer", role: "RESEARCHER" },
} as const;

export type E2eUserName = keyof typeof e2eUsers;

export function storageStatePath(user: E2eUserName): string {
  // E2E_RUN_NAME keeps the saved logins of parallel runs in one checkout apart
  return `e2e/.auth${process.env.E2E_RUN_NAME ? `-${process.env.E2E_RUN_NAME}` : ""}/${user}.json`;
}
