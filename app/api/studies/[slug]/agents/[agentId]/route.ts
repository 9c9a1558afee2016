import { route } from "@/lib/http/route";
import { agentParamsSchema } from "@/lib/validations/agent";
import { disableAgent } from "@/lib/participants/agents";

/** DELETE: stops the agent (its tokens revoked, the account disabled); its answers stay in the study. */
export const DELETE = route(
  { roles: ["ADMIN", "RESEARCHER"], status: 204, params: agentParamsSchema, summary: "Stop a model agent" },
  async ({ params, user }) => {
    await disableAgent(params.slug, params.agentId, user.id);
    return new Response(null, { status: 204 });
  },
);
