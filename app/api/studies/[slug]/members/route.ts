import { z } from "zod";
import { requireRole } from "@/lib/session";
import { toResponse } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/body";
import { studySlugSchema } from "@/lib/validations/study";
import { addStudyMembers, listMemberCandidates, listStudyMembers, removeStudyMember, studyMemberRemoveSchema, studyMembersAddSchema } from "@/lib/members";

const paramsSchema = z.object({ slug: studySlugSchema });

/** The study's members; admins also get the annotators who could be added. */
export async function GET(_request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const user = await requireRole("ADMIN", "RESEARCHER");
    const members = await listStudyMembers(slug);
    const candidates = user.role === "ADMIN" ? await listMemberCandidates(slug) : undefined;
    return Response.json({ members, candidates });
  } catch (error) {
    return toResponse(error);
  }
}

/** Adds annotators (admins only): { userIds: string[] }. */
export async function POST(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const admin = await requireRole("ADMIN");
    const { userIds } = studyMembersAddSchema.parse(await readJsonBody(request));
    return Response.json(await addStudyMembers(slug, userIds, admin.id));
  } catch (error) {
    return toResponse(error);
  }
}

/** Removes one annotator (admins only): { userId }. Their assignments and answers stay. */
export async function DELETE(request: Request, context: { params: Promise<{ slug: string }> }) {
  try {
    const { slug } = paramsSchema.parse(await context.params);
    const admin = await requireRole("ADMIN");
    const { userId } = studyMemberRemoveSchema.parse(await readJsonBody(request));
    await removeStudyMember(slug, userId, admin.id);
    return new Response(null, { status: 204 });
  } catch (error) {
    return toResponse(error);
  }
}
