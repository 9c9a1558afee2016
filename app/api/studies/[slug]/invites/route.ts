import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { studySlugSchema } from "@/lib/validations/study";
import { createInvite, inviteCreateSchema, inviteRevokeSchema, listInvites, revokeInvite } from "@/lib/study-entry";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/invites: the study's invite links. */
export async function GET(_request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    await requireRole("ADMIN", "RESEARCHER");
    return Response.json({ invites: await listInvites(slug) });
  } catch (error) {
    return toResponse(error);
  }
}

/** POST /api/studies/<slug>/invites { userId } | { name, email? } -> 201 the invite (its token makes the link /join/invite/<token>). */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const input = inviteCreateSchema.parse(await readJsonBody(request));
    return Response.json(await createInvite(slug, input, user.id), { status: 201 });
  } catch (error) {
    return toResponse(error);
  }
}

/** DELETE /api/studies/<slug>/invites { inviteId } -> 204: the link stops working. */
export async function DELETE(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const { inviteId } = inviteRevokeSchema.parse(await readJsonBody(request));
    await revokeInvite(slug, inviteId, user.id);
    return new Response(null, { status: 204 });
  } catch (error) {
    return toResponse(error);
  }
}
