import { route } from "@/lib/http/route";
import { prolificTokenBodySchema, prolificTokenStatus, revokeProlificToken, storeProlificToken } from "@/lib/recruitment/prolific/tokens";

/** GET /api/prolific/token: whether the caller has a Prolific API token stored, and its last four characters (never the token). */
export const GET = route(
  { roles: ["ADMIN", "RESEARCHER"], scope: "none", summary: "Your stored Prolific API token (its last four characters)" },
  async ({ user }) => Response.json(await prolificTokenStatus(user.id)),
);

/** POST /api/prolific/token { token }: stores it encrypted, replacing the one before; the answer shows its last four characters only. Audited. */
export const POST = route(
  { roles: ["ADMIN", "RESEARCHER"], scope: "none", body: prolificTokenBodySchema, summary: "Store your Prolific API token (encrypted; shown once)" },
  async ({ user, body }) => Response.json(await storeProlificToken(user.id, body)),
);

/** DELETE /api/prolific/token: revokes the caller's stored token (404 when there is none). Audited. */
export const DELETE = route({ roles: ["ADMIN", "RESEARCHER"], scope: "none", summary: "Revoke your stored Prolific API token" }, async ({ user }) =>
  Response.json(await revokeProlificToken(user.id)),
);
