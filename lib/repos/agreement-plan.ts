import "server-only";
import { db } from "@/lib/db";

/**
 * Data access for the agreement plan (lib/dashboard/agreement-plan.ts): people's finished main
 * work, the items already planned or given to every annotator, the marks of whose sample an item
 * is, and the plan's assignments. Sampling and assigning are lib/dashboard's and lib/assignment's.
 */

/** People's finished MAIN work (model agents left out): who did which item, with the item's kind, its tag `tagKey` and whether it is their agreement sample. */
export async function findFinishedMainWork(studyId: string, tagKey: string) {
  return db.$queryRaw<Array<{ userId: string; itemId: string; kind: string; tag: string | null; own: boolean }>>`
    SELECT a."userId", a."itemId", i.kind, i.tags ->> ${tagKey} AS tag, a."agreementSample" AS own
    FROM "Assignment" a
    JOIN "Response" r ON r."assignmentId" = a.id
    JOIN "Item" i ON i.id = a."itemId"
    WHERE a."studyId" = ${studyId} AND a.purpose = 'MAIN' AND NOT a.agent AND NOT i.practice
    ORDER BY a."userId", a."itemId"`;
}

/** The items with AGREEMENT assignments. */
export async function findPlannedItemIds(studyId: string) {
  return db.$queryRaw<Array<{ itemId: string }>>`
    SELECT DISTINCT "itemId" FROM "Assignment" WHERE "studyId" = ${studyId} AND purpose = 'AGREEMENT'`;
}

/** The items every one of `annotators` has an assignment of. */
export async function findItemsAssignedToAll(studyId: string, annotators: string[]) {
  return db.$queryRaw<Array<{ itemId: string }>>`
    SELECT a."itemId" FROM "Assignment" a
    WHERE a."studyId" = ${studyId} AND a."userId" = ANY(${annotators})
    GROUP BY 1 HAVING count(DISTINCT a."userId") >= ${annotators.length}`;
}

/** Clears the agreement-sample mark of the study's assignments of items outside `planned`. */
export async function clearAgreementSamplesOutside(studyId: string, planned: string[]): Promise<void> {
  await db.assignment.updateMany({ where: { studyId, agreementSample: true, itemId: { notIn: planned } }, data: { agreementSample: false } });
}

/** Marks the annotator's MAIN assignments of these items as their agreement sample. */
export async function markAgreementSamples(studyId: string, userId: string, itemIds: string[]): Promise<void> {
  await db.assignment.updateMany({ where: { studyId, userId, purpose: "MAIN", itemId: { in: itemIds } }, data: { agreementSample: true } });
}

/** Who has an assignment of which of these items. */
export async function findAssignmentsOfItems(studyId: string, itemIds: string[]) {
  return db.assignment.findMany({
    where: { studyId, itemId: { in: itemIds } },
    select: { itemId: true, userId: true },
  });
}

/** Every non-practice assignment of the plan's items, with its purpose and whether it is answered. */
export async function findPlanItemAssignments(studyId: string) {
  return db.$queryRaw<Array<{ itemId: string; userId: string; purpose: string; done: boolean }>>`
    SELECT a."itemId", a."userId", a.purpose::text AS purpose, (r.id IS NOT NULL) AS done
    FROM "Assignment" a
    LEFT JOIN "Response" r ON r."assignmentId" = a.id
    WHERE a."studyId" = ${studyId} AND a.purpose <> 'PRACTICE'
      AND a."itemId" IN (SELECT "itemId" FROM "Assignment" WHERE "studyId" = ${studyId} AND purpose = 'AGREEMENT')`;
}
