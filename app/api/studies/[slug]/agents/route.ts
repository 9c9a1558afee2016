import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { agentCreateSchema } from "@/lib/validations/agent";
import { createAgent, listAgents } from "@/lib/participants/agents";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET: the study's model agents, with their answers, play steps and tokens (never the tokens' text). */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], params: paramsSchema, summary: "List the study's model agents" }, async ({ params }) =>
  Response.json({ agents: await listAgents(params.slug) }),
);

/** POST { name, model, notes?, expiresInDays? } -> 201 { agent, token }: the agent's play token is in this answer only. */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    status: 201,
    params: paramsSchema,
    body: agentCreateSchema,
    summary: "Make a model agent for the study, with a play token (shown once)",
  },
  async ({ params, body, user }) => Response.json(await createAgent(params.slug, body, user.id), { status: 201 }),
);
