import { route } from "@/lib/http/route";
import { agentParamsSchema, agentTokenSchema } from "@/lib/validations/agent";
import { renewAgentToken } from "@/lib/participants/agents";

/** POST { expiresInDays? } -> 201 { token }: a new play token for the agent (shown once); its earlier ones are revoked. */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    status: 201,
    params: agentParamsSchema,
    body: agentTokenSchema,
    json: { whenEmpty: {} },
    summary: "Give a model agent a new play token (shown once)",
  },
  async ({ params, body, user }) => Response.json(await renewAgentToken(params.slug, params.agentId, body.expiresInDays, user.id), { status: 201 }),
);
