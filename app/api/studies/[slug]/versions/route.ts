import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { studySlugSchema } from "@/lib/validations/study";
import { createStudyVersion } from "@/lib/study-versions";

const paramsSchema = z.object({ slug: studySlugSchema });

/** POST /api/studies/<slug>/versions -> 201 { id, slug, version }: a DRAFT copy (settings, batches, items, assets) as the next version. */
export async function POST(_request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    return Response.json(await createStudyVersion(slug, user.id), { status: 201 });
  } catch (error) {
    return toResponse(error);
  }
}
