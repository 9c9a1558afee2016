import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { insertAuditEntry } from "@/lib/repos/audit";
import { countItemUse, findItemForUpdate, setItemFlags } from "@/lib/repos/items";
import { inTransaction } from "@/lib/repos/transactions";

/**
 * Marking an imported item as practice, gold or ordinary from the study's page, with the rules the
 * queue has for them (lib/assignment/index.ts): practice items come first, to everyone, outside k,
 * and show their answer; gold items are checks mixed into the main queue, outside k, and count for
 * the exclusion rule; ordinary items have k places. An item is one of the three: a practice item
 * is never treated as gold anywhere (the queue reads `gold AND NOT practice`), so the page keeps
 * them apart and setting one clears the other.
 *
 * Refused (CONFLICT) once the item has been handed out (an assignment that is not RELEASED: open,
 * or answered): its answers were given and scored as what the item was then (a practice answer
 * shown its key, a gold answer counted toward exclusion, an ordinary answer holding a place), so
 * changing it would change past scoring and places. A new study version starts again from the
 * items (lib/studies/versions.ts). The item's content hash stays the one of its imported line, so
 * importing the same batch again is still a no-op. Audited.
 */

export const itemRoleSchema = z.enum(["ordinary", "practice", "gold"]);
export type ItemRole = z.infer<typeof itemRoleSchema>;

export const itemFlagsSchema = z.strictObject({ role: itemRoleSchema });

export function itemRoleOf(item: { practice: boolean; gold: boolean }): ItemRole {
  return item.practice ? "practice" : item.gold ? "gold" : "ordinary";
}

export async function setItemRole(slug: string, itemId: string, role: ItemRole, actorId: string): Promise<{ id: string; role: ItemRole; changed: boolean }> {
  return inTransaction(async (tx) => {
    // locked before counting: an assignment being handed out holds a key-share lock on the row (its
    // foreign key), so it is either counted below or created after this change
    const item = await findItemForUpdate(tx, slug, itemId);
    if (!item) throw new AppError("NOT_FOUND", `No item ${itemId} in the study "${slug}"`);
    const before = itemRoleOf(item);
    if (before === role) return { id: item.id, role, changed: false };
    const { answered, open } = await countItemUse(tx, item.id);
    if (answered > 0 || open > 0) {
      const what = [answered > 0 ? `${answered} answer${answered === 1 ? "" : "s"}` : null, open > 0 ? `${open} open assignment${open === 1 ? "" : "s"}` : null]
        .filter(Boolean)
        .join(" and ");
      throw new AppError(
        "CONFLICT",
        `"${item.externalId}" has ${what} given as ${before === "ordinary" ? "an ordinary" : `a ${before}`} item: making it ${role} would change how ${answered + open === 1 ? "it was" : "they were"} scored and counted. Create a new version of the study to change it.`,
        { answered, open },
      );
    }
    await setItemFlags(tx, item.id, { practice: role === "practice", gold: role === "gold" });
    await insertAuditEntry(
      { actorId, action: "item.role", target: `study:${item.studyId}`, detail: { slug, itemId: item.id, externalId: item.externalId, from: before, to: role } },
      tx,
    );
    return { id: item.id, role, changed: true };
  });
}
