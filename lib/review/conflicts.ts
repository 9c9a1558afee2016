import "server-only";
import { AppError } from "@/lib/errors";
import { findReviewersOfStudyItems } from "@/lib/repos/review";

/**
 * Reviewers see the answer keys of the items they review, so they must never annotate the same
 * items (the same external id and content, in any study). createReviewStudy refuses members of
 * such studies as reviewers; this is the other direction, checked at every way into a study:
 * the members route (lib/studies/members.ts), the admin's pre-assignment (lib/assignment
 * assignItemsTo), invite and study links (lib/studies/entry.ts).
 */
export async function reviewersOfStudyItems(studyId: string, userIds: readonly string[]): Promise<Array<{ userId: string; name: string; review: string }>> {
  if (userIds.length === 0) return [];
  return findReviewersOfStudyItems(studyId, userIds);
}

/** Throws INVALID (for staff adding people) naming each reviewer of the study's items. */
export async function assertNoReviewersOf(studyId: string, userIds: readonly string[]): Promise<void> {
  const reviewers = await reviewersOfStudyItems(studyId, userIds);
  if (reviewers.length > 0) {
    throw new AppError(
      "INVALID",
      `Reviewers see the answer keys, so they cannot annotate items they reviewed: ${reviewers.map((r) => `${r.name} (reviewer in ${r.review})`).join(", ")}`,
    );
  }
}

/** For a participant entering by a link: FORBIDDEN when they reviewed items of the study. */
export async function refuseReviewerEntry(studyId: string, userId: string, title: string): Promise<void> {
  if ((await reviewersOfStudyItems(studyId, [userId])).length > 0) {
    throw new AppError("FORBIDDEN", `You reviewed items of “${title}” with their answers, so you cannot annotate it. Please contact the research team.`, {
      reason: "reviewer",
    });
  }
}
