import "server-only";
import { nextAssignment, progressFor, type Progress } from "@/lib/assignment";
import { getAssignmentView, type AssignmentView } from "@/lib/annotate/assignment-view";
import { getMemberStudy } from "@/lib/annotate/studies";

/** GET /api/annotate/studies/[slug]/next, and the work page's first item. */
export type NextView =
  | { status: "item"; assignment: AssignmentView; progress: Progress }
  | { status: "done"; progress: Progress; completionCode: string | null }
  | { status: "wait"; progress: Progress }
  | { status: "closed"; progress: Progress };

export async function nextForMember(slug: string, userId: string, exclude: readonly string[] = []): Promise<NextView> {
  const study = await getMemberStudy(slug, userId);
  const next = await nextAssignment(study.id, userId, { exclude });
  const progress = await progressFor(study.id, userId);
  switch (next.status) {
    case "assigned":
      return { status: "item", assignment: await getAssignmentView(next.assignmentId, userId), progress };
    case "done":
      return { status: "done", progress, completionCode: study.completionCode };
    default:
      return { status: next.status, progress };
  }
}
