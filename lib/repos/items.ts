import "server-only";
import { db } from "@/lib/db";
import type { Tx } from "@/lib/db/client-types";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Data access for a study's items (Item) as the study pages read and flag them. Importing them is
 * lib/repos/imports.ts's; what the flags mean is lib/studies/item-flags.ts's.
 */

/** A page of the study's items (import order) matching `where`, with their batch and submitted answers, and how many match. */
export async function listItemsPage(where: Prisma.ItemWhereInput, skip: number, take: number) {
  const [total, items] = await Promise.all([
    db.item.count({ where }),
    db.item.findMany({
      where,
      orderBy: [{ createdAt: "asc" }, { externalId: "asc" }],
      skip,
      take,
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
  return { total, items };
}

/** The study's kinds with their item counts, by kind. */
export async function countItemsByKind(studyId: string): Promise<Array<{ kind: string; count: number }>> {
  const kinds = await db.item.groupBy({ by: ["kind"], where: { studyId }, _count: { _all: true }, orderBy: { kind: "asc" } });
  return kinds.map((k) => ({ kind: k.kind, count: k._count._all }));
}

/** Every (tag, value) of the study's items with its item count, by tag and value (values as text). */
export async function countItemsByTag(studyId: string): Promise<Array<{ key: string; value: string; count: number }>> {
  const tags = await db.$queryRaw<Array<{ key: string; value: string; n: bigint }>>`
    SELECT t.key, t.value #>> '{}' AS value, count(*) AS n
    FROM "Item" i, jsonb_each(i.tags) t
    WHERE i."studyId" = ${studyId}
    GROUP BY 1, 2 ORDER BY 1, 2`;
  return tags.map((row) => ({ key: row.key, value: row.value, count: Number(row.n) }));
}

/** The study's items, and of them the practice ones. */
export async function countItemsAndPractice(studyId: string): Promise<{ total: number; practice: number }> {
  const [total, practice] = await Promise.all([db.item.count({ where: { studyId } }), db.item.count({ where: { studyId, practice: true } })]);
  return { total, practice };
}

/** The item at `skip` in the order a participant meets them: practice first, then import order. */
export async function findItemInParticipantOrder(studyId: string, skip: number) {
  return db.item.findFirst({
    where: { studyId },
    orderBy: [{ practice: "desc" }, { createdAt: "asc" }, { externalId: "asc" }],
    skip,
    select: { externalId: true, kind: true, public: true, key: true, tags: true, practice: true, gold: true },
  });
}

/** The item of the study (by slug), locked until the transaction ends: an assignment being handed out holds a key-share lock on it. */
export async function findItemForUpdate(tx: Tx, slug: string, itemId: string) {
  const item = await tx.item.findFirst({
    where: { id: itemId, study: { slug } },
    select: { id: true, externalId: true, studyId: true, practice: true, gold: true },
  });
  if (!item) return null;
  await tx.$queryRaw`SELECT id FROM "Item" WHERE id = ${item.id} FOR UPDATE`;
  return item;
}

/** The item's answers, and its handed-out assignments not answered yet (RELEASED ones left out). */
export async function countItemUse(tx: Tx, itemId: string): Promise<{ answered: number; open: number }> {
  const [used] = await tx.$queryRaw<Array<{ answered: bigint; open: bigint }>>`
      SELECT count(r.id) AS answered, count(*) FILTER (WHERE a.status IN ('ASSIGNED', 'STARTED') AND r.id IS NULL) AS open
      FROM "Assignment" a LEFT JOIN "Response" r ON r."assignmentId" = a.id
      WHERE a."itemId" = ${itemId} AND a.status <> 'RELEASED'`;
  return { answered: Number(used.answered), open: Number(used.open) };
}

export async function setItemFlags(tx: Tx, itemId: string, flags: { practice: boolean; gold: boolean }): Promise<void> {
  await tx.item.update({ where: { id: itemId }, data: flags, select: { id: true } });
}

/** The kinds of the study's items. */
export async function listKindsOfStudy(studyId: string): Promise<string[]> {
  const rows = await db.item.groupBy({ by: ["kind"], where: { studyId } });
  return rows.map((row) => row.kind);
}

/** The tag names of the study's items, sorted. */
export async function listTagKeysOfStudy(studyId: string): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ key: string }>>`
    SELECT DISTINCT jsonb_object_keys(i.tags) AS key FROM "Item" i WHERE i."studyId" = ${studyId} AND jsonb_typeof(i.tags) = 'object' ORDER BY 1`;
  return rows.map((row) => row.key);
}

/** The study's items counted per (practice, gold). */
export async function countItemsByRole(studyId: string): Promise<Array<{ practice: boolean; gold: boolean; count: number }>> {
  const rows = await db.item.groupBy({ by: ["practice", "gold"], where: { studyId }, _count: { _all: true } });
  return rows.map((row) => ({ practice: row.practice, gold: row.gold, count: row._count._all }));
}

export async function countPracticeItems(studyId: string): Promise<number> {
  return db.item.count({ where: { studyId, practice: true } });
}

const responseSelect = { answer: true, confidenceRaw: true, correct: true, score: true, wallMs: true, activeMs: true, createdAt: true } as const;

/** The item of the study with its key, its batch and every assignment of it (by creation) with its response and count of events. */
export async function findItemWithAssignments(studyId: string, itemId: string) {
  return db.item.findFirst({
    where: { id: itemId, studyId },
    select: {
      id: true,
      externalId: true,
      kind: true,
      public: true,
      key: true,
      tags: true,
      practice: true,
      gold: true,
      batch: { select: { fileName: true } },
      assignments: {
        orderBy: { createdAt: "asc" },
        select: { id: true, userId: true, purpose: true, status: true, _count: { select: { events: true } }, response: { select: responseSelect } },
      },
    },
  });
}
