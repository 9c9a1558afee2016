import { db } from "@/lib/db";
import { tutorialPagesOf } from "@/lib/studies/settings";

/**
 * The participant rows of simulated people, made to agree with the work stored for them: each
 * joined a little before their first item (and consented and read the tutorial in between, when
 * the study asks for them), started with that item, and, having nothing open, is COMPLETE as of
 * their last answer. Without this the rows would say they joined when the demo was loaded (after
 * their last answer, dated in the past) and were still active with every item done.
 */
export async function settleSimulatedMembers(studyId: string, userIds: readonly string[]): Promise<void> {
  const study = await db.study.findUniqueOrThrow({ where: { id: studyId }, select: { consentMarkdown: true, consentVersion: true, tutorialPages: true } });
  const hasConsent = study.consentMarkdown.trim() !== "";
  const hasTutorial = tutorialPagesOf(study.tutorialPages).length > 0;
  for (const userId of userIds) {
    const assignments = await db.assignment.findMany({
      where: { studyId, userId },
      select: { status: true, createdAt: true, startedAt: true, submittedAt: true, response: { select: { createdAt: true } } },
    });
    if (assignments.length === 0) continue;
    const first = Math.min(...assignments.map((a) => Math.min(a.createdAt.getTime(), (a.startedAt ?? a.createdAt).getTime())));
    const last = Math.max(
      ...assignments.map((a) => Math.max(a.submittedAt?.getTime() ?? 0, a.response?.createdAt.getTime() ?? 0, (a.startedAt ?? a.createdAt).getTime())),
    );
    const joined = new Date(first - 3 * 60_000);
    const open = assignments.some((a) => a.status === "ASSIGNED" || a.status === "STARTED");
    const data = {
      createdAt: joined,
      startedAt: new Date(first),
      consentVersion: hasConsent ? study.consentVersion : null,
      consentedAt: hasConsent ? new Date(first - 2 * 60_000) : null,
      tutorialDoneAt: hasTutorial ? new Date(first - 60_000) : null,
      status: open ? ("ACTIVE" as const) : ("COMPLETE" as const),
      statusAt: open ? null : new Date(last),
    };
    await db.studyMember.upsert({ where: { studyId_userId: { studyId, userId } }, create: { studyId, userId, ...data }, update: data });
  }
}
