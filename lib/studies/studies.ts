import "server-only";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { countItemsByKind, countItemsByTag, listItemsPage } from "@/lib/repos/items";
import {
  countArchivedStudies as countArchived,
  countSubmittedByStudy,
  findStudyHeader,
  findStudyOverview,
  insertStudy,
  listStudiesWithSizes,
  listStudyBatches as listBatches,
  listUnarchivedStudyChoices,
} from "@/lib/repos/studies";
import { listAdminsWithEmail } from "@/lib/repos/users";
import type { ItemFilter, StudyCreateInput } from "@/lib/validations/study";

export async function createStudy(input: StudyCreateInput, createdById: string) {
  const study = await insertStudy({ ...input, createdById });
  if (!study) throw new AppError("CONFLICT", `A study with the slug "${input.slug}" exists already`);
  await recordAudit(createdById, "study.create", `study:${study.id}`, { slug: study.slug, title: input.title });
  return study;
}

export async function getStudyBySlug(slug: string) {
  const study = await findStudyOverview(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  return study;
}

/** The studies of the research home, newest first: the archived ones only with `archived` (lib/studies/archive.ts). */
export async function listStudiesWithCounts(options: { archived?: boolean } = {}) {
  const studies = await listStudiesWithSizes(Boolean(options.archived));
  const submittedByStudy = await countSubmittedByStudy();
  return studies.map((study) => ({ ...study, responses: submittedByStudy.get(study.id) ?? 0 }));
}

export const ITEMS_PAGE_SIZE = 50;

/** Items of a study for the item browser, filtered by kind and one tag (key=value). */
export async function listStudyItems(studyId: string, filter: ItemFilter) {
  const where: Prisma.ItemWhereInput = { studyId };
  if (filter.kind) where.kind = filter.kind;
  if (filter.tag) {
    const [key, ...rest] = filter.tag.split("=");
    const raw = rest.join("=");
    const numeric = Number(raw);
    const values: Array<string | number | boolean> = [raw];
    if (raw !== "" && Number.isFinite(numeric)) values.push(numeric);
    if (raw === "true" || raw === "false") values.push(raw === "true");
    where.OR = values.map((value) => ({ tags: { path: [key], equals: value } }));
  }
  const { total, items } = await listItemsPage(where, (filter.page - 1) * ITEMS_PAGE_SIZE, ITEMS_PAGE_SIZE);
  return { total, items, pageSize: ITEMS_PAGE_SIZE };
}

/** Distinct kinds and tag values of a study, for filters. */
export async function studyFacets(studyId: string) {
  const kinds = await countItemsByKind(studyId);
  const tags = await countItemsByTag(studyId);
  const tagValues = new Map<string, Array<{ value: string; count: number }>>();
  for (const row of tags) {
    const list = tagValues.get(row.key) ?? [];
    list.push({ value: row.value, count: row.count });
    tagValues.set(row.key, list);
  }
  for (const list of tagValues.values()) list.sort((a, b) => Number(a.value) - Number(b.value) || a.value.localeCompare(b.value));
  return { kinds, tags: [...tagValues.entries()].map(([key, values]) => ({ key, values })) };
}

export async function listStudyBatches(studyId: string) {
  return listBatches(studyId);
}

/** Every study but the archived ones, newest first, as a choice in a form (the import page's study picker). */
export async function listStudyChoices() {
  return listUnarchivedStudyChoices();
}

/** What the study pages' header shows; null for an unknown slug. */
export async function getStudyHeader(slug: string) {
  return findStudyHeader(slug);
}

/**
 * Who can import a batch (the admins with an email, enabled), for a study with no items yet: a
 * researcher cannot import, so the page names whom to ask.
 */
export async function listAdminContacts(): Promise<Array<{ name: string; email: string }>> {
  const admins = await listAdminsWithEmail(5);
  return admins.map((admin) => ({ name: admin.name, email: admin.email! }));
}

/** How many studies are archived (the research home links to them). */
export async function countArchivedStudies(): Promise<number> {
  return countArchived();
}
