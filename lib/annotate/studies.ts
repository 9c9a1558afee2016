import "server-only";
import { AppError } from "@/lib/errors";
import { progressFor, type Progress } from "@/lib/assignment";
import type { ConfidenceScale, ParticipantStatus, StudyStatus } from "@/lib/generated/prisma/enums";
import { participationOf, type Participation } from "@/lib/participants/participants";
import { countPracticeItems as countPractice } from "@/lib/repos/items";
import { listOpenMemberships } from "@/lib/repos/participants";
import { findStudyForMember, findStudyWithMember } from "@/lib/repos/studies";

/**
 * The annotator's side of studies: which studies they are a member of, and a study as they may
 * see it (never the answer keys, never other annotators).
 */

export interface MemberStudy {
  id: string;
  slug: string;
  title: string;
  instructions: string;
  status: StudyStatus;
  confidenceScale: ConfidenceScale;
  idleCapSeconds: number;
  completionCode: string | null;
  /** shown at the end, `{code}` replaced (lib/validations/study-settings.ts completionRedirectFor) */
  completionRedirectUrl: string | null;
  /** the visible per-item timer (null: none) */
  itemTimeLimitSeconds: number | null;
  sessionTimeLimitSeconds: number | null;
  /** share of practice items to get right before the real items (null: no gate) */
  practicePassMark: number | null;
  itemsPerParticipant: number | null;
  /** the other endings' codes and redirects (lib/validations/study-settings.ts ENDINGS) */
  endings: unknown;
  /** phones and tablets get a notice instead of the task (lib/client/device.ts) */
  desktopOnly: boolean;
  /** how participants reach the research team (lib/studies/contact.ts contactOf) */
  contactName: string | null;
  contactEmail: string | null;
}

/** The study if the user is a member of it: NOT_FOUND when there is no such study, FORBIDDEN when not a member. */
export async function getMemberStudy(slug: string, userId: string): Promise<MemberStudy> {
  const study = await findStudyForMember(slug, userId);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  if (!study.isMember) throw new AppError("FORBIDDEN", `You are not a member of the study "${slug}"`);
  const { isMember: _isMember, ...rest } = study;
  return rest;
}

/**
 * getMemberStudy and getParticipation in one round trip, for next-item (the busiest call of the
 * annotation API: bench/load). Same errors: NOT_FOUND without the study, FORBIDDEN for a non-member.
 */
export async function getMemberStanding(slug: string, userId: string): Promise<{ study: MemberStudy; participation: Participation }> {
  const row = await findStudyWithMember(slug, userId);
  if (!row) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const { member, consentMarkdown, consentVersion, tutorialPages, ...study } = row;
  if (!member) throw new AppError("FORBIDDEN", `You are not a member of the study "${slug}"`);
  // json_build_object writes timestamp(3) columns as ISO text without a zone; they hold UTC (as Prisma writes them)
  const utc = (text: string | null) => (text === null ? null : new Date(`${text}Z`));
  const participation = participationOf(
    { id: study.id, slug: study.slug, title: study.title, status: study.status, consentMarkdown, consentVersion, tutorialPages },
    {
      ...member,
      statusAt: utc(member.statusAt),
      consentedAt: utc(member.consentedAt),
      tutorialDoneAt: utc(member.tutorialDoneAt),
      startedAt: utc(member.startedAt),
    },
  );
  return { study, participation };
}

export interface MemberStudySummary {
  slug: string;
  title: string;
  status: StudyStatus;
  /** the participant's standing: ACTIVE, COMPLETE, EXCLUDED, RETURNED, TIMED_OUT */
  participantStatus: ParticipantStatus;
  progress: Progress;
  completionCode: string | null;
}

/** Studies the user is a member of (drafts left out), with their progress; the completion code only once finished. */
export async function listMemberStudies(userId: string): Promise<MemberStudySummary[]> {
  // archived studies are gone from participants' lists (lib/studies/archive.ts)
  const memberships = await listOpenMemberships(userId);
  return Promise.all(
    memberships.map(async ({ study, status }) => {
      const progress = await progressFor(study.id, userId);
      return {
        slug: study.slug,
        title: study.title,
        status: study.status,
        participantStatus: status,
        progress,
        completionCode: progress.finished ? study.completionCode : null,
      };
    }),
  );
}

/** How many practice items the study has (the tutorial's last button names them). */
export async function countPracticeItems(studyId: string): Promise<number> {
  return countPractice(studyId);
}
