import "server-only";
import { AppError } from "@/lib/errors";
import type { AssignmentPurpose } from "@/lib/generated/prisma/enums";
import {
  countAssignmentsOfPurpose,
  countPlacesByCondition,
  ensureMember,
  findItemsOfUser,
  findItemStudies,
  findPlaceSettings,
  findReviewExcludedItems,
  insertAssignment,
  lastPosition,
  lockItem,
  lockParticipant,
  releaseExpiredLeasesOfItems,
  userExists,
} from "@/lib/repos/assignments";
import { inTransaction } from "@/lib/repos/transactions";
import { assertNoReviewersOf } from "@/lib/review/conflicts";

/**
 * Pre-assigns items to an annotator (the dashboards' agreement plan uses AGREEMENT); the next-item
 * logic serves them before new MAIN work (after practice). Items the annotator has already are
 * skipped, and so are items that item review excluded. MAIN pre-assignments respect k: an item at
 * k places (in every condition) is refused (CONFLICT) and nothing is written; they get a lease like
 * any place. With conditions, a MAIN pre-assignment takes the condition with the fewest places
 * held, an AGREEMENT one the annotator's next condition in rotation. The annotator becomes a member
 * of the study if not yet one.
 */
export async function assignItemsTo(
  userId: string,
  itemIds: readonly string[],
  purpose: AssignmentPurpose,
): Promise<{ created: number; skipped: number; assignmentIds: string[] }> {
  const unique = [...new Set(itemIds)];
  if (unique.length === 0) return { created: 0, skipped: 0, assignmentIds: [] };
  const items = await findItemStudies(unique);
  const missing = unique.filter((id) => !items.some((item) => item.id === id));
  if (missing.length > 0)
    throw new AppError("NOT_FOUND", `assignItemsTo: no item with id ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", ..." : ""}`);
  const studyIds = new Set(items.map((item) => item.studyId));
  if (studyIds.size !== 1) throw new AppError("INVALID", `assignItemsTo needs items of one study; got items of ${studyIds.size} studies`);
  const [studyId] = studyIds;
  if (!(await userExists(userId))) throw new AppError("NOT_FOUND", `assignItemsTo: no user with id ${userId}`);
  await assertNoReviewersOf(studyId, [userId]);

  return inTransaction(
    async (tx) => {
      await lockParticipant(tx, studyId, userId);
      // item locks in a fixed order (blocking: a claimer holds an item lock for milliseconds and never waits while holding it)
      for (const itemId of [...unique].sort()) await lockItem(tx, itemId);
      const study = await findPlaceSettings(tx, studyId);
      const had = await findItemsOfUser(tx, userId, unique);
      const hadSet = new Set(had.map((a) => a.itemId));
      const excludedRows = await findReviewExcludedItems(tx, unique);
      const excluded = new Set(excludedRows.map((row) => row.id));
      const fresh = unique.filter((id) => !hadSet.has(id) && !excluded.has(id));
      const conditions: Array<string | null> = study.conditions.length > 0 ? study.conditions : [null];
      const conditionOf = new Map<string, string | null>();
      if (purpose === "MAIN" && fresh.length > 0) {
        await releaseExpiredLeasesOfItems(tx, fresh);
        const held = await countPlacesByCondition(tx, fresh);
        const full: string[] = [];
        for (const itemId of fresh) {
          const places = (condition: string | null) => held.find((row) => row.itemId === itemId && row.condition === condition)?._count._all ?? 0;
          const best = [...conditions].sort((a, b) => places(a) - places(b))[0];
          if (places(best) >= study.overlap) full.push(itemId);
          else conditionOf.set(itemId, best);
        }
        if (full.length > 0)
          throw new AppError(
            "CONFLICT",
            `assignItemsTo: item(s) ${full.slice(0, 5).join(", ")} already have ${study.overlap} annotator(s) (the study's overlap)`,
          );
      }
      await ensureMember(tx, studyId, userId);
      let position = ((await lastPosition(tx, studyId, userId)) ?? -1) + 1;
      const rotation = await countAssignmentsOfPurpose(tx, studyId, userId, "AGREEMENT");
      const assignmentIds: string[] = [];
      for (const [index, itemId] of fresh.entries()) {
        const condition =
          purpose === "MAIN"
            ? (conditionOf.get(itemId) ?? null)
            : study.conditions.length > 0
              ? study.conditions[(rotation + index) % study.conditions.length]
              : null;
        const leaseExpiresAt = purpose === "MAIN" ? new Date(Date.now() + study.leaseSeconds * 1000) : null;
        const created = await insertAssignment(tx, { studyId, userId, itemId, purpose, position: position++, condition, leaseExpiresAt });
        assignmentIds.push(created.id);
      }
      return { created: fresh.length, skipped: unique.length - fresh.length, assignmentIds };
    },
    { maxWait: 20_000, timeout: 60_000 },
  );
}
