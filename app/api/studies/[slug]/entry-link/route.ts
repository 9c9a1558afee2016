import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { studySlugSchema } from "@/lib/validations/study";
import { entryLinkChangeSchema } from "@/lib/validations/study-settings";
import { setEntryLink } from "@/lib/study-settings";

const paramsSchema = z.object({ slug: studySlugSchema });

/** POST /api/studies/<slug>/entry-link { action: create|disable } -> 200 { entryToken }: a new public link (the old one stops working), or none. */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const { action } = entryLinkChangeSchema.parse(await readJsonBody(request));
    return Response.json(await setEntryLink(slug, action, user.id));
  } catch (error) {
    return toResponse(error);
  }
}
