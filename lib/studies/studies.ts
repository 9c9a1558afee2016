import "server-only";
import { db } from "@/lib/db";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ItemFilter, StudyCreateInput } from "@/lib/validations/study";

export async function createStudy(input: StudyCreateInput, createdById: string) {
  try {
    const study = await db.study.create({
      data: { ...input, createdById },
      select: { id: true, slug: true },
    });
    await recordAudit(createdById, "study.create", `study:${study.id}`, { slug: study.slug, title: input.title });
    return study;
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", `A study with the slug "${input.slug}" exists already`);
    }
    throw error;
  }
}

export async function getStudyBySlug(slug: string) {
  const study = await db.study.findUnique({
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
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  return study;
}

/** The studies of the research home, newest first: the archived ones only with `archived` (lib/studies/archive.ts). */
export async function listStudiesWithCounts(options: { archived?: boolean } = {}) {
  const studies = await db.study.findMany({
    where: { archivedAt: options.archived ? { not: null } : null },
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
  const submitted = await db.assignment.groupBy({ by: ["studyId"], where: { status: "SUBMITTED" }, _count: { _all: true } });
  const submittedByStudy = new Map(submitted.map((row) => [row.studyId, row._count._all]));
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
  const [total, items] = await Promise.all([
    db.item.count({ where }),
    db.item.findMany({
      where,
      orderBy: [{ createdAt: "asc" }, { externalId: "asc" }],
      skip: (filter.page - 1) * ITEMS_PAGE_SIZE,
      take: ITEMS_PAGE_SIZE,
      select: {
        id: true,
        externalId: true,
        kind: true,
        tags: true,
        practice: true,
        gold: true,
        batch: { select: { fileName: true } },
        _count: { select: { assignments: { where: { status: "SUBMITTED" } } } },
      },
    }),
  ]);
  return { total, items, pageSize: ITEMS_PAGE_SIZE };
}

/** Distinct kinds and tag values of a study, for filters. */
export async function studyFacets(studyId: string) {
  const kinds = await db.item.groupBy({ by: ["kind"], where: { studyId }, _count: { _all: true }, orderBy: { kind: "asc" } });
  const tags = await db.$queryRaw<Array<{ key: string; value: string; n: bigint }>>`
    SELECT t.key, t.value #>> '{}' AS value, count(*) AS n
    FROM "Item" i, jsonb_each(i.tags) t
    WHERE i."studyId" = ${studyId}
    GROUP BY 1, 2 ORDER BY 1, 2`;
  const tagValues = new Map<string, Array<{ value: string; count: number }>>();
  for (const row of tags) {
    const list = tagValues.get(row.key) ?? [];
    list.push({ value: row.value, count: Number(row.n) });
    tagValues.set(row.key, list);
  }
  for (const list of tagValues.values()) list.sort((a, b) => Number(a.value) - Number(b.value) || a.value.localeCompare(b.value));
  return { kinds: kinds.map((k) => ({ kind: k.kind, count: k._count._all })), tags: [...tagValues.entries()].map(([key, values]) => ({ key, values })) };
}

export async function listStudyBatches(studyId: string) {
  return db.batch.findMany({
    where: { studyId },
    orderBy: { createdAt: "desc" },
    select: { id: true, fileName: true, itemCount: true, checksum: true, createdAt: true, importedBy: { select: { name: true } } },
  });
}

/** Every study but the archived ones, newest first, as a choice in a form (the import page's study picker). */
export async function listStudyChoices() {
  return db.study.findMany({ where: { archivedAt: null }, orderBy: { createdAt: "desc" }, select: { slug: true, title: true, version: true } });
}

/** What the study pages' header shows; null for an unknown slug. */
export async function getStudyHeader(slug: string) {
  return db.study.findUnique({ where: { slug }, select: { title: true, status: true, slug: true, version: true, archivedAt: true } });
}

/**
 * Who can import a batch (the admins with an email, enabled), for a study with no items yet: a
 * researcher cannot import, so the page names whom to ask.
 */
export async function listAdminContacts(): Promise<Array<{ name: string; email: string }>> {
  const admins = await db.user.findMany({
    where: { role: "ADMIN", disabled: false, isAgent: false, email: { not: null } },
    orderBy: { name: "asc" },
    take: 5,
    select: { name: true, email: true },
  });
  return admins.map((admin) => ({ name: admin.name, email: admin.email! }));
}

/** How many studies are archived (the research home links to them). */
export async function countArchivedStudies(): Promise<number> {
  return db.study.count({ where: { archivedAt: { not: null } } });
}
