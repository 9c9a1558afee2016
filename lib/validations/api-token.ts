import { z } from "zod";
import { apiScopes } from "@/lib/http/scopes";

/** POST /api/tokens: a personal API token (lib/auth/api-tokens.ts, docs/api.md). */
export const tokenCreateSchema = z.object({
  name: z.string().trim().min(1, "a token needs a name").max(80, "at most 80 characters"),
  scopes: z.array(z.enum(apiScopes)).min(1, "choose at least one scope").max(apiScopes.length),
  /** days until it expires (1 to 365) */
  expiresInDays: z.number().int().min(1).max(365).default(90),
});
export type TokenCreateInput = z.output<typeof tokenCreateSchema>;

export const tokenIdParamSchema = z.object({ id: z.string().min(1).max(64) });
