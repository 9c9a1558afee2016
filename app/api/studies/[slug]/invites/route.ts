import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { createInvite, inviteCreateSchema, inviteRevokeSchema, listInvites, revokeInvite } from "@/lib/studies/entry";

const paramsSchema = z.object({ slug: studySlugSchema });

/** GET /api/studies/<slug>/invites: the study's invite links. */
export const GET = route({ summary: "The study's invites with their state", roles: ["ADMIN", "RESEARCHER"], params: paramsSchema }, async ({ params }) =>
  Response.json({ invites: await listInvites(params.slug) }),
);

/** POST /api/studies/<slug>/invites { userId } | { name, email? } -> 201 the invite (its token makes the link /join/invite/<token>). */
export const POST = route(
  {
    summary: "Invite a person by email (a one-use link)",
    roles: ["ADMIN", "RESEARCHER"],
    errors: [409],
    status: 201,
    params: paramsSchema,
    body: inviteCreateSchema,
  },
  async ({ params, user, body }) => Response.json(await createInvite(params.slug, body, user.id), { status: 201 }),
);

/** DELETE /api/studies/<slug>/invites { inviteId } -> 204: the link stops working. */
export const DELETE = route(
  { summary: "Revoke an invite not yet used", roles: ["ADMIN", "RESEARCHER"], errors: [409], status: 204, params: paramsSchema, body: inviteRevokeSchema },
  async ({ params, user, body }) => {
    await revokeInvite(params.slug, body.inviteId, user.id);
    return new Response(null, { status: 204 });
  },
);
