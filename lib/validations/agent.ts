import { z } from "zod";
import { studySlugSchema } from "@/lib/validations/study";

/** POST /api/studies/[slug]/agents: a model agent's identity (lib/participants/agents.ts, docs/api.md). */
export const agentCreateSchema = z.object({
  name: z.string().trim().min(1, "an agent needs a name").max(80, "at most 80 characters"),
  model: z.string().trim().min(1, "name the model, e.g. gpt-4o-2024-08-06").max(120, "at most 120 characters"),
  notes: z.string().trim().max(2000, "at most 2000 characters").default(""),
  /** days until its token expires (1 to 365) */
  expiresInDays: z.number().int().min(1).max(365).default(30),
});
export type AgentCreateInput = z.output<typeof agentCreateSchema>;

export const agentParamsSchema = z.object({
  slug: studySlugSchema,
  agentId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, "an agent id"),
});
export const agentTokenSchema = z.object({ expiresInDays: z.number().int().min(1).max(365).default(30) });
