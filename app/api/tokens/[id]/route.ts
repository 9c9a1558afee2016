import { route } from "@/lib/http/route";
import { revokeToken } from "@/lib/auth/api-tokens";
import { tokenIdParamSchema } from "@/lib/validations/api-token";

/** DELETE /api/tokens/[id]: revokes one of the caller's own tokens (404 for another user's). */
export const DELETE = route(
  { roles: ["ADMIN", "RESEARCHER"], scope: "none", params: tokenIdParamSchema, summary: "Revoke one of your API tokens" },
  async ({ user, params }) => Response.json(await revokeToken(user.id, params.id)),
);
