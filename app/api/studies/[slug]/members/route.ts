import { z } from "zod";
import { route } from "@/lib/http/route";
import { studySlugSchema } from "@/lib/validations/study";
import { addStudyMembers, listStudyMembersFor, removeStudyMember, studyMemberRemoveSchema, studyMembersAddSchema } from "@/lib/studies/members";

const paramsSchema = z.object({ slug: studySlugSchema });

/** The study's members; those who may add members (admins, the study's owner) also get the annotators who could be added. */
export const GET = route(
  { roles: ["ADMIN", "RESEARCHER"], summary: "The study's members (annotators and staff)", params: paramsSchema },
  async ({ params, user }) => Response.json(await listStudyMembersFor(params.slug, user)),
);

/** Adds annotators (admins and the study's owner; 403 for other researchers): { userIds: string[] }. */
export const POST = route(
  { roles: ["ADMIN", "RESEARCHER"], params: paramsSchema, body: studyMembersAddSchema, summary: "Add annotators to the study (admins and the study's owner)" },
  async ({ params, user, body }) => Response.json(await addStudyMembers(params.slug, body.userIds, user)),
);

/** Removes one annotator (admins and the study's owner): { userId }. Their assignments and answers stay. */
export const DELETE = route(
  {
    roles: ["ADMIN", "RESEARCHER"],
    status: 204,
    params: paramsSchema,
    body: studyMemberRemoveSchema,
    summary: "Remove an annotator (admins and the study's owner)",
  },
  async ({ params, user, body }) => {
    await removeStudyMember(params.slug, body.userId, user);
    return new Response(null, { status: 204 });
  },
);
