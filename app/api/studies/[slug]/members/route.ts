import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import {
  addStudyMembers,
  listMemberCandidates,
  listStudyMembers,
  removeStudyMember,
  studyMemberRemoveSchema,
  studyMembersAddSchema,
} from "@/lib/studies/members";

const paramsSchema = z.object({ slug: studySlugSchema });

/** The study's members; admins also get the annotators who could be added. */
export const GET = route({ roles: ["ADMIN", "RESEARCHER"], params: paramsSchema }, async ({ params, user }) => {
  const members = await listStudyMembers(params.slug);
  const candidates = user.role === "ADMIN" ? await listMemberCandidates(params.slug) : undefined;
  return Response.json({ members, candidates });
});

/** Adds annotators (admins only): { userIds: string[] }. */
export const POST = route({ roles: ["ADMIN"], params: paramsSchema, body: studyMembersAddSchema }, async ({ params, user: admin, body }) =>
  Response.json(await addStudyMembers(params.slug, body.userIds, admin.id)),
);

/** Removes one annotator (admins only): { userId }. Their assignments and answers stay. */
export const DELETE = route({ roles: ["ADMIN"], status: 204, params: paramsSchema, body: studyMemberRemoveSchema }, async ({ params, user: admin, body }) => {
  await removeStudyMember(params.slug, body.userId, admin.id);
  return new Response(null, { status: 204 });
});
