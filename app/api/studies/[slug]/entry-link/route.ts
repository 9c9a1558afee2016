import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { entryLinkChangeSchema } from "@/lib/validations/study-settings";
import { setEntryLink } from "@/lib/studies/settings";

const paramsSchema = z.object({ slug: studySlugSchema });

/** POST /api/studies/<slug>/entry-link { action: create|disable } -> 200 { entryToken }: a new public link (the old one stops working), or none. */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "Make a new public entry link (the old one stops working), or turn it off",
    errors: [409],
    params: paramsSchema,
    body: entryLinkChangeSchema,
  },
  async ({ params, user, body }) => Response.json(await setEntryLink(params.slug, body.action, user.id)),
);
