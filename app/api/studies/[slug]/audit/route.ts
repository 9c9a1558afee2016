import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { studySlugSchema } from "@/lib/validations/study";
import { auditQuerySchema, listStudyAudit } from "@/lib/audit";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/audit?page=N: the study's audit entries, newest first. */
export async function GET(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    await requireRole("ADMIN", "RESEARCHER");
    const query = auditQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    return Response.json(await listStudyAudit(slug, query.page));
  } catch (error) {
    return toResponse(error);
  }
}
