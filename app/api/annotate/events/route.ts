import { route } from "@/lib/http/route";
import { NOT_WRITER_MESSAGE, recordEvents } from "@/lib/responses/events";
import { MAX_EVENTS_BODY_BYTES, parseTrajectoryBatch, trajectoryBatchSchema } from "@/lib/validations/annotate";
import { jsonResponse } from "@/lib/http/json";

/**
 * POST /api/annotate/events { events: [{ assignmentId, seq, type, payload, clientTime }] }
 * -> 200 { acked: { [assignmentId]: seq[] }, rejected?: [{ index, assignmentId, seq, issues }] }
 * (409 with the same fields and `notWriter: [assignmentId]` when another tab or device writes one
 * of the items: its events of the batch are refused, the others stored; lib/responses/writer.ts)
 * (events that fail validation, and those of a closed study or of an item submitted more than the
 * grace window ago, are refused one by one; the others are stored). 403 when an
 * event belongs to another annotator's assignment (nothing stored). Each (assignment, writer, seq) is stored once, so a batch
 * may be sent any number of times. Also the target of navigator.sendBeacon on `pagehide`: the
 * body is read as text whatever its content type (text/plain or application/json), and the
 * session cookie comes along (same origin). The account is checked in the write's own statement.
 */
export const POST = route(
  {
    roles: "session-token",
    summary: "Store a batch of trajectory events of one assignment, each once (409 when this tab is not the writer)",
    body: trajectoryBatchSchema,
    json: { maxBytes: MAX_EVENTS_BODY_BYTES },
  },
  async ({ user, body }) => {
    const { valid, validIndexes, rejected } = parseTrajectoryBatch(body.events);
    const { acked, rejected: refused = [], notWriter } = await recordEvents(user.id, valid);
    // recordEvents numbers its refusals (closed study, late after submission) within `valid`
    const all = [...rejected, ...refused.map((r) => ({ ...r, index: validIndexes[r.index] }))].sort((a, b) => a.index - b.index);
    const reply = { acked, ...(all.length > 0 ? { rejected: all } : {}), ...(notWriter ? { notWriter } : {}) };
    // another tab or device writes one of these items: its events were refused, the writer's stored
    if (notWriter)
      return jsonResponse({ ...reply, error: NOT_WRITER_MESSAGE, code: "CONFLICT", details: { reason: "writer", assignments: notWriter } }, { status: 409 });
    return jsonResponse(reply);
  },
);
