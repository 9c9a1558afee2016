import "server-only";
import { db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ConfidenceScale, ParticipantStatus, StudyStatus } from "@/lib/generated/prisma/enums";

/**
 * Data access for studies (Study, with its batches and versions): the reads and writes of a
 * study's own row that services need, each with the columns it needs. Rules about studies live in
 * lib/studies.
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

// ---------------------------------------------------------------------------------------------
// Creating, listing and the study's header

/** The new study; null when its slug is taken. */
export async function insertStudy(data: Prisma.StudyUncheckedCreateInput): Promise<{ id: string; slug: string } | null> {
  try {
    return await db.study.create({ data, select: { id: true, slug: true } });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return null;
    throw error;
  }
}

export async function findStudyOverview(slug: string) {
  return db.study.findUnique({
    where: { slug },
    select: {
      id: true,
      slug: true,
      title: true,
      instructions: true,
      overlap: true,
      confidenceScale: true,
      status: true,
      idleCapSeconds: true,
      completionCode: true,
      version: true,
      createdAt: true,
      createdById: true,
      archivedAt: true,
    },
  });
}

/** The studies, archived or not, newest first, with their counts of items, batches and members. */
export async function listStudiesWithSizes(archived: boolean) {
  return db.study.findMany({
    where: { archivedAt: archived ? { not: null } : null },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      slug: true,
      title: true,
      status: true,
      overlap: true,
      version: true,
      createdAt: true,
      archivedAt: true,
      _count: { select: { items: true, batches: true, members: true } },
    },
  });
}

/** Submitted assignments per study, for every study. */
export async function countSubmittedByStudy(): Promise<Map<string, number>> {
  const submitted = await db.assignment.groupBy({ by: ["studyId"], where: { status: "SUBMITTED" }, _count: { _all: true } });
  return new Map(submitted.map((row) => [row.studyId, row._count._all]));
}

export async function listStudyBatches(studyId: string) {
  return db.batch.findMany({
    where: { studyId },
    orderBy: { createdAt: "desc" },
    select: { id: true, fileName: true, itemCount: true, checksum: true, createdAt: true, importedBy: { select: { name: true } } },
  });
}

export async function listUnarchivedStudyChoices() {
  return db.study.findMany({ where: { archivedAt: null }, orderBy: { createdAt: "desc" }, select: { slug: true, title: true, version: true } });
}

export async function findStudyHeader(slug: string) {
  return db.study.findUnique({ where: { slug }, select: { title: true, status: true, slug: true, version: true, archivedAt: true } });
}

export async function countArchivedStudies(): Promise<number> {
  return db.study.count({ where: { archivedAt: { not: null } } });
}

// ---------------------------------------------------------------------------------------------
// Archiving and deleting

export async function findStudyOwnership(slug: string) {
  return db.study.findUnique({ where: { slug }, select: { id: true, slug: true, title: true, createdById: true, archivedAt: true } });
}

export async function setStudyArchivedAt(tx: Tx, studyId: string, archivedAt: Date | null): Promise<void> {
  await tx.study.update({ where: { id: studyId }, data: { archivedAt }, select: { id: true } });
}

/** What deleting the study removes: its items, participants, assignments, responses and events. */
export async function countStudyContents(tx: Tx, studyId: string): Promise<Record<"items" | "participants" | "assignments" | "responses" | "events", number>> {
  const [counts] = await tx.$queryRaw<Array<Record<"items" | "participants" | "assignments" | "responses" | "events", bigint>>>`
        SELECT (SELECT count(*) FROM "Item" WHERE "studyId" = ${studyId}) AS items,
               (SELECT count(*) FROM "StudyMember" WHERE "studyId" = ${studyId}) AS participants,
               (SELECT count(*) FROM "Assignment" WHERE "studyId" = ${studyId}) AS assignments,
               (SELECT count(*) FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."studyId" = ${studyId}) AS responses,
               (SELECT count(*) FROM "Event" e JOIN "Assignment" a ON a.id = e."assignmentId" WHERE a."studyId" = ${studyId}) AS events`;
  return {
    items: Number(counts.items),
    participants: Number(counts.participants),
    assignments: Number(counts.assignments),
    responses: Number(counts.responses),
    events: Number(counts.events),
  };
}

/** Deletes the study with everything of it: its import jobs (no foreign key), the rest by the schema's cascades. */
export async function deleteStudyRows(tx: Tx, studyId: string): Promise<void> {
  await tx.importJob.deleteMany({ where: { studyId } });
  await tx.study.delete({ where: { id: studyId }, select: { id: true } });
}

// ---------------------------------------------------------------------------------------------
// The research team's contact

export async function findStudyContact(slug: string) {
  return db.study.findUnique({ where: { slug }, select: { id: true, contactName: true, contactEmail: true } });
}

export async function setStudyContact(studyId: string, contact: { contactName: string | null; contactEmail: string | null }): Promise<void> {
  await db.study.update({ where: { id: studyId }, data: contact, select: { id: true } });
}

/** A study's title and contact by its slug. */
export async function findContactBySlug(slug: string): Promise<{ title: string; contactName: string | null; contactEmail: string | null } | null> {
  return db.study.findUnique({ where: { slug }, select: { title: true, contactName: true, contactEmail: true } });
}

export async function findContactByEntryToken(entryToken: string): Promise<{ contactName: string | null; contactEmail: string | null } | null> {
  return db.study.findUnique({ where: { entryToken }, select: { contactName: true, contactEmail: true } });
}

/** The contact of the study an invite is for; null without the invite. */
export async function findContactByInviteToken(token: string): Promise<{ contactName: string | null; contactEmail: string | null } | null> {
  const invite = await db.studyInvite.findUnique({ where: { token }, select: { study: { select: { contactName: true, contactEmail: true } } } });
  return invite?.study ?? null;
}

// ---------------------------------------------------------------------------------------------
// The researchers' preview

export async function findStudyForPreview(slug: string) {
  return db.study.findUnique({
    where: { slug },
    select: {
      id: true,
      slug: true,
      title: true,
      instructions: true,
      consentMarkdown: true,
      consentVersion: true,
      tutorialPages: true,
      confidenceScale: true,
      idleCapSeconds: true,
      itemTimeLimitSeconds: true,
      taskSettings: true,
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Versions

export async function isStudySlugTaken(slug: string): Promise<boolean> {
  return (await db.study.findUnique({ where: { slug }, select: { id: true } })) !== null;
}

/** The study's whole row (a new version copies it). */
export async function findStudyRow(slug: string) {
  return db.study.findUnique({ where: { slug } });
}

export type StudyRow = NonNullable<Awaited<ReturnType<typeof findStudyRow>>>;

/** The highest version among the study and the versions made from it. */
export async function findLatestVersion(studyId: string): Promise<number | null> {
  const latest = await db.study.aggregate({ where: { OR: [{ id: studyId }, { previousVersionId: studyId }] }, _max: { version: true } });
  return latest._max.version;
}

/**
 * A copy of the study as a new version: its settings (tutorial, kinds' settings and endings as
 * they are), DRAFT, no entry link; its batches and their items (same ids, content, tags, flags and
 * creation times: practice items are served in import order) and its links to image assets.
 */
export async function insertStudyVersion(
  tx: Tx,
  source: StudyRow,
  copyOf: { slug: string; version: number; createdById: string },
): Promise<{ copy: { id: string; slug: string; version: number }; batches: number; items: number }> {
  const {
    id: _id,
    slug: _slug,
    status: _status,
    entryToken: _entryToken,
    version: _version,
    previousVersionId: _previous,
    createdById: _createdBy,
    createdAt: _createdAt,
    updatedAt: _updatedAt,
    tutorialPages,
    taskSettings,
    endings,
    reportingAnswers,
    ...settings
  } = source;
  const copy = await tx.study.create({
    data: {
      ...settings,
      slug: copyOf.slug,
      status: "DRAFT",
      version: copyOf.version,
      previousVersionId: source.id,
      createdById: copyOf.createdById,
      tutorialPages: tutorialPages as Prisma.InputJsonValue,
      taskSettings: taskSettings as Prisma.InputJsonValue,
      endings: endings as Prisma.InputJsonValue,
      reportingAnswers: reportingAnswers as Prisma.InputJsonValue,
    },
    select: { id: true, slug: true, version: true },
  });
  const batches = await tx.batch.findMany({ where: { studyId: source.id }, orderBy: { createdAt: "asc" } });
  let items = 0;
  for (const batch of batches) {
    const created = await tx.batch.create({
      data: {
        studyId: copy.id,
        fileName: batch.fileName,
        checksum: batch.checksum,
        itemCount: batch.itemCount,
        importedById: batch.importedById,
        createdAt: batch.createdAt,
      },
      select: { id: true },
    });
    items += await tx.$executeRaw`
          INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt")
          SELECT 'v' || replace(gen_random_uuid()::text, '-', ''), ${copy.id}, ${created.id}, i."externalId", i.kind, i.public, i.key, i.tags, i.practice, i.gold, i."contentHash", i."createdAt"
          FROM "Item" i WHERE i."batchId" = ${batch.id}`;
  }
  await tx.$executeRaw`
        INSERT INTO "StudyAsset" ("studyId", "assetHash") SELECT ${copy.id}, sa."assetHash" FROM "StudyAsset" sa WHERE sa."studyId" = ${source.id}`;
  return { copy, batches: batches.length, items };
}

// ---------------------------------------------------------------------------------------------
// Entry links

export async function findStudyByEntryToken(entryToken: string) {
  return db.study.findUnique({ where: { entryToken }, select: { id: true, slug: true, title: true, status: true, overlap: true, archivedAt: true } });
}

export async function findStudyTitleBySlug(slug: string): Promise<{ id: string; title: string } | null> {
  return db.study.findUnique({ where: { slug }, select: { id: true, title: true } });
}

/** The study's public entry token (null when its link is off); throws for an unknown study. */
export async function findEntryToken(studyId: string): Promise<string | null> {
  const { entryToken } = await db.study.findUniqueOrThrow({ where: { id: studyId }, select: { entryToken: true } });
  return entryToken;
}

// ---------------------------------------------------------------------------------------------
// Settings, status, analysis and the entry link

const settingsSelect = {
  id: true,
  slug: true,
  title: true,
  instructions: true,
  overlap: true,
  confidenceScale: true,
  idleCapSeconds: true,
  status: true,
  completionCode: true,
  consentMarkdown: true,
  consentVersion: true,
  tutorialPages: true,
  practicePassMark: true,
  goldRate: true,
  goldFailLimit: true,
  goldFailWindow: true,
  itemsPerParticipant: true,
  itemTimeLimitSeconds: true,
  sessionTimeLimitSeconds: true,
  leaseSeconds: true,
  firstItemLeaseSeconds: true,
  completionRedirectUrl: true,
  endings: true,
  desktopOnly: true,
  balanceTag: true,
  entryToken: true,
  version: true,
  previousVersionId: true,
  conditions: true,
  taskSettings: true,
  generaliseOver: true,
  contactName: true,
  contactEmail: true,
} as const satisfies Prisma.StudySelect;

export type StudySettingsRow = Prisma.StudyGetPayload<{ select: typeof settingsSelect }>;

/** The study's settings and what the settings page shows beside them. */
export async function findStudySettingsRow(slug: string): Promise<StudySettingsRow | null> {
  return db.study.findUnique({ where: { slug }, select: settingsSelect });
}

/** Locks the study's row until the transaction ends. */
export async function lockStudy(tx: Tx, studyId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Study" WHERE id = ${studyId} FOR UPDATE`;
}

/** Writes the settings; `raiseConsentVersion` moves the consent version on by one. */
export async function updateStudySettingsRow(tx: Tx, studyId: string, settings: Prisma.StudyUpdateInput, raiseConsentVersion: boolean): Promise<void> {
  await tx.study.update({
    where: { id: studyId },
    data: { ...settings, ...(raiseConsentVersion ? { consentVersion: { increment: 1 } } : {}) },
    select: { id: true },
  });
}

export async function findVersionRef(studyId: string): Promise<{ slug: string; version: number } | null> {
  return db.study.findUnique({ where: { id: studyId }, select: { slug: true, version: true } });
}

/** The versions made from the study, by version. */
export async function listNextVersions(studyId: string): Promise<Array<{ slug: string; version: number }>> {
  return db.study.findMany({ where: { previousVersionId: studyId }, orderBy: { version: "asc" }, select: { slug: true, version: true } });
}

export async function findStudyStatus(slug: string): Promise<{ id: string; status: StudyStatus } | null> {
  return db.study.findUnique({ where: { slug }, select: { id: true, status: true } });
}

/** Sets the status while it is still `from`; false when it changed meanwhile. */
export async function setStudyStatusIf(studyId: string, from: StudyStatus, to: StudyStatus): Promise<boolean> {
  const updated = await db.study.updateMany({ where: { id: studyId, status: from }, data: { status: to } });
  return updated.count > 0;
}

/** The stored choice of what the dashboards' intervals generalise over (unchecked JSON); undefined for an unknown study. */
export async function findGeneraliseOver(studyId: string): Promise<Prisma.JsonValue | undefined> {
  return (await db.study.findUnique({ where: { id: studyId }, select: { generaliseOver: true } }))?.generaliseOver;
}

export async function findStudyGeneraliseOverBySlug(slug: string) {
  return db.study.findUnique({ where: { slug }, select: { id: true, generaliseOver: true } });
}

export async function setGeneraliseOver(studyId: string, generaliseOver: string): Promise<void> {
  await db.study.update({ where: { id: studyId }, data: { generaliseOver }, select: { id: true } });
}

export async function findStudyEntryLink(slug: string): Promise<{ id: string; entryToken: string | null } | null> {
  return db.study.findUnique({ where: { slug }, select: { id: true, entryToken: true } });
}

export async function setEntryToken(studyId: string, entryToken: string | null): Promise<void> {
  await db.study.update({ where: { id: studyId }, data: { entryToken }, select: { id: true } });
}

// ---------------------------------------------------------------------------------------------
// A study as its participants see it

const memberStudySelect = {
  id: true,
  slug: true,
  title: true,
  instructions: true,
  status: true,
  confidenceScale: true,
  idleCapSeconds: true,
  completionCode: true,
  completionRedirectUrl: true,
  itemTimeLimitSeconds: true,
  sessionTimeLimitSeconds: true,
  practicePassMark: true,
  itemsPerParticipant: true,
  endings: true,
  desktopOnly: true,
  contactName: true,
  contactEmail: true,
} as const satisfies Prisma.StudySelect;

export type MemberStudyRow = Prisma.StudyGetPayload<{ select: typeof memberStudySelect }>;

/** What a participant sees of the study, and whether the user is a member of it; null without the study. */
export async function findStudyForMember(slug: string, userId: string): Promise<(MemberStudyRow & { isMember: boolean }) | null> {
  const study = await db.study.findUnique({ where: { slug }, select: { ...memberStudySelect, members: { where: { userId }, select: { userId: true } } } });
  if (!study) return null;
  const { members, ...rest } = study;
  return { ...rest, isMember: members.length > 0 };
}

/** The study as a participant sees it, with its consent and tutorial, and the user's membership (timestamps as ISO text without a zone, holding UTC). */
export interface StudyWithMemberRow extends MemberStudyRow {
  consentMarkdown: string;
  consentVersion: number;
  tutorialPages: unknown;
  member: {
    status: ParticipantStatus;
    statusReason: string | null;
    statusAt: string | null;
    consentVersion: number | null;
    consentedAt: string | null;
    tutorialDoneAt: string | null;
    startedAt: string | null;
  } | null;
}

/** The study with the user's membership in one round trip (next-item, the busiest call of the annotation API: bench/load); undefined without the study. */
export async function findStudyWithMember(slug: string, userId: string): Promise<StudyWithMemberRow | undefined> {
  const [row] = await db.$queryRaw<StudyWithMemberRow[]>`
    SELECT s.id, s.slug, s.title, s.instructions, s.status::text AS status, s."confidenceScale"::text AS "confidenceScale", s."idleCapSeconds",
      s."completionCode", s."completionRedirectUrl", s."itemTimeLimitSeconds", s."sessionTimeLimitSeconds", s."practicePassMark", s."itemsPerParticipant",
      s.endings, s."desktopOnly", s."contactName", s."contactEmail",
      s."consentMarkdown", s."consentVersion", s."tutorialPages",
      CASE WHEN m."userId" IS NULL THEN NULL ELSE json_build_object(
        'status', m.status, 'statusReason', m."statusReason", 'statusAt', m."statusAt", 'consentVersion', m."consentVersion",
        'consentedAt', m."consentedAt", 'tutorialDoneAt', m."tutorialDoneAt", 'startedAt', m."startedAt") END AS member
    FROM "Study" s
    LEFT JOIN "StudyMember" m ON m."studyId" = s.id AND m."userId" = ${userId}
    WHERE s.slug = ${slug}`;
  return row;
}

/** What the researchers' item and replay pages show of the study. */
export async function findStudyForResearch(slug: string) {
  return db.study.findUnique({
    where: { slug },
    select: { id: true, slug: true, title: true, confidenceScale: true, idleCapSeconds: true, taskSettings: true },
  });
}

/** The study's id and its owner (the user who created it; null when that user is gone). */
export async function findStudyOwner(slug: string): Promise<{ id: string; createdById: string | null } | null> {
  return db.study.findUnique({ where: { slug }, select: { id: true, createdById: true } });
}
