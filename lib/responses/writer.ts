import "server-only";
import { AppError } from "@/lib/errors";
import { signedOutError } from "@/lib/db/enabled-user";
import { claimAssignmentWriter } from "@/lib/repos/responses";
import type { WriterClaim } from "@/lib/validations/annotate";

/**
 * One tab (or device) writes an item at a time. A participant who opens the work page twice would
 * otherwise have two pages that both take clicks, whose events and submissions the server could
 * not tell apart. Each page names itself with a random writer id (kept for the life of its tab,
 * so a reload is the same writer); the assignment holds the id of its writer (Assignment.writer),
 * and the server takes events (lib/responses/events.ts) and the submission
 * (lib/responses/responses.ts) from that writer only, refusing any other with a 409 that the page
 * shows as "open in another tab or device: take over here".
 *
 * A page claims the item when it shows it. The claim is granted when the item has no writer, is
 * this writer's already, its writer has been silent (no claim, no event) for WRITER_IDLE_SECONDS,
 * or its writer's last event is `submitted` (it is done; its answer may never have arrived, and
 * the item is then served reopened, docs/assignment.md); otherwise it is refused (409, details.reason "writer") unless `takeOver`,
 * which the person asks for with the button: then the other page is refused from its next write.
 * A submitted item cannot be claimed (409, details.reason "submitted").
 *
 * The reply's nextSeq is where the stored trajectory ends, so that a page that takes over goes
 * on after what the other tab stored.
 */

/** A writer silent this long (no claim, no event) gives the item up to the next page that claims it. */
export const WRITER_IDLE_SECONDS = 120;

/** `writer`: the tab that writes the item (the same person's: a page of this browser that was closed takes over without asking). */
export function writerConflict(writer?: string | null): AppError {
  return new AppError("CONFLICT", "This item is open in another tab or on another device, which is writing it. Take it over here to go on here.", {
    reason: "writer",
    ...(writer ? { writer } : {}),
  });
}

export function alreadySubmitted(assignmentId: string): AppError {
  return new AppError("CONFLICT", `This item (${assignmentId}) was submitted already, in this or another tab or device: a second answer is not taken.`, {
    reason: "submitted",
  });
}

export async function claimWriter(userId: string, assignmentId: string, writer: string, options: { takeOver: boolean }): Promise<WriterClaim> {
  // one statement: the account, the assignment as read, and the claim when it is granted
  const row = await claimAssignmentWriter(userId, assignmentId, writer, options.takeOver, WRITER_IDLE_SECONDS);
  if (!row?.enabled) throw signedOutError();
  if (row.id === null) throw new AppError("NOT_FOUND", `No assignment ${assignmentId}`);
  if (row.userId !== userId) throw new AppError("FORBIDDEN", `Assignment ${assignmentId} belongs to another annotator`);
  if (row.submitted) throw alreadySubmitted(assignmentId);
  if (!row.claimed) throw writerConflict(row.writer);
  return { writer, nextSeq: row.nextSeq ?? 0 };
}
