import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { createInvite, inviteCreateSchema, inviteRevokeSchema, listInvites, revokeInvite } from "@/lib/studies/entry";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/invites: the study's invite links. */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], summary: "The study's invites with their state", params: paramsSchema }, async ({ params }) =>
  Response.json({ invites: await listInvites(params.slug) }),
);

/** POST /api/studies/<slug>/invites { userId } | { name, email? } -> 201 the invite (its token makes the link /join/invite/<token>). */
export const POST = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    summary: "Invite a person by email (a one-use link)",
    errors: [409],
    status: 201,
    params: paramsSchema,
    body: inviteCreateSchema,
  },
  async ({ params, user, body }) => Response.json(await createInvite(params.slug, body, user.id), { status: 201 }),
);

/** DELETE /api/studies/<slug>/invites { inviteId } -> 204: the link stops working. */
export const DELETE = route(
  { roles: ["ADMIN", "RESEARCHER"], summary: "Revoke an invite not yet used", errors: [409], status: 204, params: paramsSchema, body: inviteRevokeSchema },
  async ({ params, user, body }) => {
    await revokeInvite(params.slug, body.inviteId, user.id);
    return new Response(null, { status: 204 });
  },
);
