import "server-only";
import { nextAssignment, progressFor, type Progress } from "@/lib/assignment";
import { getAssignmentView, type AssignmentView, type AssignmentViewOptions } from "@/lib/annotate/assignment-view";
import { getMemberStanding } from "@/lib/annotate/studies";
import { countPracticeAnswers } from "@/lib/repos/assignments";
import { getParticipation, markParticipantComplete } from "@/lib/participants/participants";
import { completionRedirectFor, endingsOf, type EndingName } from "@/lib/validations/study-settings";

/** The end of a study for a participant: the completion code and where to go (Prolific's completion URL, say). */
export interface Completion {
  code: string | null;
  redirectUrl: string | null;
}

/** The completion code and redirect of an ending other than "completed" (Study.endings); both null when the study sets none. */
export function endingCompletion(endings: unknown, name: EndingName): Completion {
  const ending = endingsOf(endings)[name];
  return { code: ending?.code ?? null, redirectUrl: completionRedirectFor(ending?.redirectUrl ?? null, ending?.code ?? null) };
}

/** Practice so far, and the share needed to unlock the real items (null: no gate). */
export interface PracticeStanding {
  answered: number;
  correct: number;
  total: number;
  passMark: number | null;
}

/**
 * GET /api/annotate/studies/[slug]/next, and the work page's first item.
 * - item: work on it; done / quota: finished (completion); wait: ask again shortly;
 * - closed / paused: the study hands out no work now; full: every place is taken before this
 *   participant did anything;
 * - excluded / timed_out / returned: the participant's part has ended (the ended page says why);
 * - consent / tutorial: a step to take first (`path`).
 */
export type NextView =
  | { status: "item"; assignment: AssignmentView; progress: Progress; practice: PracticeStanding }
  | { status: "done"; progress: Progress; completionCode: string | null; completion: Completion }
  | { status: "quota"; progress: Progress; completionCode: string | null; completion: Completion }
  | { status: "wait"; progress: Progress }
  | { status: "closed"; progress: Progress }
  | { status: "paused"; progress: Progress }
  | { status: "full"; progress: Progress; completion: Completion }
  | { status: "excluded" | "timed_out" | "returned"; progress: Progress; reason: string | null }
  | { status: "consent" | "tutorial"; progress: Progress; path: string };

export async function practiceStanding(studyId: string, userId: string, passMark: number | null): Promise<PracticeStanding> {
  return { ...(await countPracticeAnswers(studyId, userId)), passMark };
}

/** `options.withAgentContract`: the assignment carries the agent contract (callers with an API token; AssignmentView.agent). */
export async function nextForMember(slug: string, userId: string, exclude: readonly string[] = [], options: AssignmentViewOptions = {}): Promise<NextView> {
  const { study, participation } = await getMemberStanding(slug, userId);
  const progressNow = () => progressFor(study.id, userId);
  const completion: Completion = { code: study.completionCode, redirectUrl: completionRedirectFor(study.completionRedirectUrl, study.completionCode) };

  // the participant's own standing and steps come first (the queue checks its part again)
  if (participation.status === "EXCLUDED") return { status: "excluded", progress: await progressNow(), reason: participation.statusReason };
  if (participation.status === "TIMED_OUT") return { status: "timed_out", progress: await progressNow(), reason: participation.statusReason };
  if (participation.status === "RETURNED") return { status: "returned", progress: await progressNow(), reason: participation.statusReason };
  if (participation.consentNeeded) return { status: "consent", progress: await progressNow(), path: `/s/${slug}/consent` };
  if (participation.tutorialNeeded) return { status: "tutorial", progress: await progressNow(), path: `/s/${slug}/tutorial` };
  if (study.status === "PAUSED") return { status: "paused", progress: await progressNow() };

  const next = await nextAssignment(study.id, userId, { exclude });
  const progress = await progressNow();
  if (next.status === "assigned") {
    // a study without practice items needs no practice query (most studies; next-item is the busiest page call)
    const practice =
      progress.practice.total === 0
        ? { answered: 0, correct: 0, total: 0, passMark: study.practicePassMark }
        : await practiceStanding(study.id, userId, study.practicePassMark);
    return { status: "item", assignment: await getAssignmentView(next.assignmentId, userId, options), progress, practice };
  }
  // the queue's statuses as strings, so that this stays in step while lib/assignment gains some
  const status: string = next.status;
  const reason = "reason" in next && typeof next.reason === "string" ? next.reason : null;
  switch (status) {
    case "done":
    case "quota": {
      if (status === "done" && progress.main.done === 0 && progress.open === 0)
        return { status: "full", progress, completion: endingCompletion(study.endings, "full") };
      // a prefetch (exclude non-empty) does not finish anyone: the item on screen is still open
      if (exclude.length === 0) await markParticipantComplete(study.id, userId);
      return { status: status as "done" | "quota", progress, completionCode: study.completionCode, completion };
    }
    case "paused":
      return { status: "paused", progress };
    case "excluded":
    case "timed_out":
    case "returned": {
      const fresh = await getParticipation(slug, userId);
      return { status: status as "excluded" | "timed_out" | "returned", progress, reason: reason ?? fresh.statusReason };
    }
    case "full":
      return { status: "full", progress, completion: endingCompletion(study.endings, "full") };
    case "wait":
      return { status: "wait", progress };
    default:
      return { status: "closed", progress };
  }
}
