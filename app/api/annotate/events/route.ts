import { route } from "@/lib/http/route";
import { recordEvents } from "@/lib/responses/events";
import { MAX_EVENTS_BODY_BYTES, parseTrajectoryBatch, trajectoryBatchSchema } from "@/lib/validations/annotate";
import { jsonResponse } from "@/lib/http/json";

/**
 * POST /api/annotate/events { events: [{ assignmentId, seq, type, payload, clientTime }] }
 * -> 200 { acked: { [assignmentId]: seq[] }, rejected?: [{ index, assignmentId, seq, issues }] }
 * (events that fail validation, and those of a closed study or of an item submitted more than the
 * grace window ago, are refused one by one; the others are stored). 403 when an
 * event belongs to another annotator's assignment (nothing stored). Each (assignment, seq) is stored once, so a batch
 * may be sent any number of times. Also the target of navigator.sendBeacon on `pagehide`: the
 * body is read as text whatever its content type (text/plain or application/json), and the
 * session cookie comes along (same origin). The account is checked in the write's own statement.
 */
export const POST = route({ roles: "session-token", body: trajectoryBatchSchema, json: { maxBytes: MAX_EVENTS_BODY_BYTES } }, async ({ user, body }) => {
  const { valid, validIndexes, rejected } = parseTrajectoryBatch(body.events);
  const { acked, rejected: refused = [] } = await recordEvents(user.id, valid);
  // recordEvents numbers its refusals (closed study, late after submission) within `valid`
  const all = [...rejected, ...refused.map((r) => ({ ...r, index: validIndexes[r.index] }))].sort((a, b) => a.index - b.index);
  return jsonResponse(all.length > 0 ? { acked, rejected: all } : { acked });
});
