import "server-only";
import { AppError } from "@/lib/errors";
import { insertAuditEntry } from "@/lib/repos/audit";
import { findLatestVersion, findStudyRow, insertStudyVersion, isStudySlugTaken } from "@/lib/repos/studies";
import { inTransaction } from "@/lib/repos/transactions";

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
    if (!(await isStudySlugTaken(candidate))) return candidate;
  }
}

export async function createStudyVersion(slug: string, actorId: string): Promise<{ id: string; slug: string; version: number }> {
  const source = await findStudyRow(slug);
  if (!source) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const latest = await findLatestVersion(source.id);
  const version = Math.max(source.version, latest ?? source.version) + 1;
  const newSlug = await freeSlug(versionSlug(slug, version));

  return inTransaction(
    async (tx) => {
      const { copy, batches, items } = await insertStudyVersion(tx, source, { slug: newSlug, version, createdById: actorId });
      await insertAuditEntry(
        {
          actorId,
          action: "study.version",
          target: `study:${source.id}`,
          detail: { slug, newStudyId: copy.id, newSlug: copy.slug, version, batches, items },
        },
        tx,
      );
      await insertAuditEntry(
        {
          actorId,
          action: "study.version.created",
          target: `study:${copy.id}`,
          detail: { slug: copy.slug, fromStudyId: source.id, fromSlug: slug, version, batches, items },
        },
        tx,
      );
      return copy;
    },
    { timeout: 120_000, maxWait: 20_000 },
  );
}
