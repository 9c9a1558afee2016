import "server-only";
import { db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";
import type { ConfidenceScale } from "@/lib/generated/prisma/enums";

/**
 * Data access for studies (Study): the reads of a study's own row that services need, each with
 * the columns it needs. Rules about studies live in lib/studies.
 */

export async function findStudyIdBySlug(slug: string): Promise<{ id: string } | null> {
  return db.study.findUnique({ where: { slug }, select: { id: true } });
}

/** What a participant's steps (consent, tutorial, withdrawal) read of the study. */
export async function findStudyForParticipants(slug: string) {
  return db.study.findUnique({
    where: { slug },
    select: {
      id: true,
      slug: true,
      title: true,
      status: true,
      consentMarkdown: true,
      consentVersion: true,
      tutorialPages: true,
      completionCode: true,
      completionRedirectUrl: true,
    },
  });
}

export async function findStudyConsentVersion(studyId: string): Promise<{ consentVersion: number }> {
  return db.study.findUniqueOrThrow({ where: { id: studyId }, select: { consentVersion: true } });
}

export async function findStudyAgentStepCap(slug: string): Promise<{ agentStepCap: number | null } | null> {
  return db.study.findUnique({ where: { slug }, select: { agentStepCap: true } });
}

export async function findStudyRefBySlug(slug: string): Promise<{ id: string; slug: string } | null> {
  return db.study.findUnique({ where: { slug }, select: { id: true, slug: true } });
}

/** The study's design: answers per item (overlap) and items per participant. */
export async function findStudyDesign(slug: string): Promise<{ id: string; overlap: number; itemsPerParticipant: number | null } | null> {
  return db.study.findUnique({ where: { slug }, select: { id: true, overlap: true, itemsPerParticipant: true } });
}

/** Sets the study's confidence scale while it is the default (LIKERT_5); false when it was not. */
export async function setConfidenceScaleIfDefault(tx: Tx, studyId: string, confidenceScale: ConfidenceScale): Promise<boolean> {
  const changed = await tx.study.updateMany({ where: { id: studyId, confidenceScale: "LIKERT_5" }, data: { confidenceScale } });
  return changed.count > 0;
}

/** The study's id and its owner (the user who created it; null when that user is gone). */
export async function findStudyOwner(slug: string): Promise<{ id: string; createdById: string | null } | null> {
  return db.study.findUnique({ where: { slug }, select: { id: true, createdById: true } });
}
