import "server-only";
import { AppError } from "@/lib/errors";
import { findStudyOwner } from "@/lib/repos/studies";

/**
 * Who may import batches into a study and add or remove its members: admins, and the study's
 * owner, the researcher who created it (a researcher's notebook runs its own study end to end
 * without an admin token). Other researchers read the study; they neither import into
 * it nor change who works on it. The routes (POST /api/admin/import, POST/DELETE
 * /api/studies/<slug>/members) and the pages (the import page, the annotators page's member
 * manager) ask this one rule.
 */

export interface StudyActor {
  id: string;
  role: string;
}

/** True for an admin, and for the researcher who owns the study; false for anyone else, and for a study that does not exist. */
export async function mayManageStudy(slug: string, actor: StudyActor): Promise<boolean> {
  if (actor.role === "ADMIN") return true;
  if (actor.role !== "RESEARCHER") return false;
  const study = await findStudyOwner(slug);
  return study !== null && study.createdById === actor.id;
}

/** @throws AppError NOT_FOUND for an unknown study, FORBIDDEN naming who may do `what` for anyone else */
export async function assertMayManageStudy(slug: string, actor: StudyActor, what: string): Promise<void> {
  if (actor.role === "ADMIN") {
    if (!(await findStudyOwner(slug))) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
    return;
  }
  const study = await findStudyOwner(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  if (actor.role === "RESEARCHER" && study.createdById === actor.id) return;
  throw new AppError("FORBIDDEN", `Only an admin or the study's owner (the researcher who created it) may ${what} ${slug}`);
}
