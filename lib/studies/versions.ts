import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Study versions. A study with responses is frozen (lib/studies/settings.ts); to change its items or
 * settings a researcher copies it into a new version: the same settings, batches, items (same ids,
 * content, tags and flags) and image assets, version + 1, previousVersionId pointing back, status
 * DRAFT, no participants, no entry link yet (the old link keeps leading to the old version until
 * it is switched off). The pseudonym salt is kept, so a participant of both versions has the same
 * pseudonymous external id in exports of either.
 */

/** "pilot" -> "pilot-v2"; "pilot-v2" -> "pilot-v3"; taken slugs get a further "-2", "-3" ... */
export function versionSlug(slug: string, version: number): string {
  const base = slug.replace(/-v\d+$/, "");
  return `${base}-v${version}`.slice(0, 60);
}

async function freeSlug(wanted: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? wanted : `${wanted.slice(0, 57)}-${n}`;
    if (!(await db.study.findUnique({ where: { slug: candidate }, select: { id: true } }))) return candidate;
  }
}

export async function createStudyVersion(slug: string, actorId: string): Promise<{ id: string; slug: string; version: number }> {
  const source = await db.study.findUnique({ where: { slug } });
  if (!source) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const latest = await db.study.aggregate({ where: { OR: [{ id: source.id }, { previousVersionId: source.id }] }, _max: { version: true } });
  const version = Math.max(source.version, latest._max.version ?? source.version) + 1;
  const newSlug = await freeSlug(versionSlug(slug, version));

  return db.$transaction(
    async (tx) => {
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
          slug: newSlug,
          status: "DRAFT",
          version,
          previousVersionId: source.id,
          createdById: actorId,
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
        // items keep their creation times: practice items are served in import order
        items += await tx.$executeRaw`
          INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt")
          SELECT 'v' || replace(gen_random_uuid()::text, '-', ''), ${copy.id}, ${created.id}, i."externalId", i.kind, i.public, i.key, i.tags, i.practice, i.gold, i."contentHash", i."createdAt"
          FROM "Item" i WHERE i."batchId" = ${batch.id}`;
      }
      await tx.$executeRaw`
        INSERT INTO "StudyAsset" ("studyId", "assetHash") SELECT ${copy.id}, sa."assetHash" FROM "StudyAsset" sa WHERE sa."studyId" = ${source.id}`;
      await tx.auditLog.create({
        data: {
          actorId,
          action: "study.version",
          target: `study:${source.id}`,
          detail: { slug, newStudyId: copy.id, newSlug: copy.slug, version, batches: batches.length, items },
        },
      });
      await tx.auditLog.create({
        data: {
          actorId,
          action: "study.version.created",
          target: `study:${copy.id}`,
          detail: { slug: copy.slug, fromStudyId: source.id, fromSlug: slug, version, batches: batches.length, items },
        },
      });
      return copy;
    },
    { timeout: 120_000, maxWait: 20_000 },
  );
}
