import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { itemFlagsSchema, itemRoleSchema, setItemRole } from "@/lib/studies/item-flags";

const paramsSchema = z.object({ slug: studySlugSchema, id: z.string().min(1).max(64) });
const replySchema = z.object({ id: z.string(), role: itemRoleSchema, changed: z.boolean() });

/**
 * PATCH /api/studies/<slug>/items/<id> { role: "ordinary" | "practice" | "gold" } -> 200 { id, role, changed }.
 * 409 once the item has been handed out (answers or open assignments): lib/studies/item-flags.ts. Audited.
 */
export const PATCH = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    errors: [409],
    params: paramsSchema,
    body: itemFlagsSchema,
    summary: "Mark an item as practice, gold or ordinary",
    response: replySchema,
  },
  async ({ params, user, body }) => Response.json(await setItemRole(params.slug, params.id, body.role, user.id)),
);
