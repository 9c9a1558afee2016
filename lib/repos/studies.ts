import "server-only";
import { db } from "@/lib/db";

/**
 * Data access for studies (Study): the reads of a study's own row that services need, each with
 * the columns it needs. Rules about studies live in lib/studies.
 */

export async function findStudyIdBySlug(slug: string): Promise<{ id: string } | null> {
  return db.study.findUnique({ where: { slug }, select: { id: true } });
}
