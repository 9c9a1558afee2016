import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { studySlugSchema } from "@/lib/validations/study";
import { actOnParticipant, listParticipants, participantActionSchema } from "@/lib/participants";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/participants: every participant with status, reason, times and counts. */
export async function GET(_request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    await requireRole("ADMIN", "RESEARCHER");
    return Response.json(await listParticipants(slug));
  } catch (error) {
    return toResponse(error);
  }
}

/**
 * POST /api/studies/<slug>/participants { action: "return" | "reinclude", userId, reason? } -> 200 { status, released }.
 * return: RETURNED, open assignments RELEASED; reinclude: an EXCLUDED participant becomes ACTIVE. Audited.
 */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const input = participantActionSchema.parse(await readJsonBody(request));
    return Response.json(await actOnParticipant(slug, input, user.id));
  } catch (error) {
    return toResponse(error);
  }
}
