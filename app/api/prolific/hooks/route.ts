import { route } from "@/lib/http/route";
import { receiveProlificHookRequest } from "@/lib/recruitment/prolific/sync";

/**
 * POST /api/prolific/hooks: Prolific's submission status changes (hooks). No session: the request
 * must carry Prolific's signature (X-Prolific-Request-Signature over X-Prolific-Request-Timestamp
 * and the body, keyed with the study's hook secret); otherwise 401 and nothing changes.
 */
export const POST = route(
  { roles: "public", scope: "none", errors: [401, 403, 404, 413, 422], summary: "Prolific's hook: a submission's status changed (signed by Prolific)" },
  async ({ request }) => Response.json(await receiveProlificHookRequest(request)),
);
