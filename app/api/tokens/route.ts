import { tokenListReplySchema, tokenCreatedReplySchema } from "@/lib/validations/api-replies";
import { route } from "@/lib/http/route";
import { issueToken, listTokens } from "@/lib/auth/api-tokens";
import { tokenCreateSchema } from "@/lib/validations/api-token";

/** GET /api/tokens: the caller's own API tokens (never their text). Session only: a token cannot list or make tokens. */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], response: tokenListReplySchema, scope: "none", summary: "List your API tokens" }, async ({ user }) =>
  Response.json({ tokens: await listTokens(user.id) }),
);

/** POST /api/tokens { name, scopes, expiresInDays } -> 201 { token, summary }: the token's text is in this answer only. */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    errors: [409],
    response: tokenCreatedReplySchema,
    status: 201,
    scope: "none",
    body: tokenCreateSchema,
    summary: "Create an API token (its text is shown once)",
  },
  async ({ user, body }) => Response.json(await issueToken(user.id, body, user.id), { status: 201 }),
);
