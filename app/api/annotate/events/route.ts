import { requireRole } from "@/lib/session";
import { AppError, toResponse } from "@/lib/errors";
import { recordEvents } from "@/lib/events";
import { MAX_EVENTS_BODY_BYTES, parseTrajectoryBatch, trajectoryBatchSchema } from "@/lib/validations/annotate";

/**
 * POST /api/annotate/events { events: [{ assignmentId, seq, type, payload, clientTime }] }
 * -> 200 { acked: { [assignmentId]: seq[] }, rejected?: [{ index, assignmentId, seq, issues }] }
 * (events that fail validation are refused one by one; the valid ones are stored). 403 when an
 * event belongs to another annotator's assignment (nothing stored). Each (assignment, seq) is stored once, so a batch
 * may be sent any number of times. Also the target of navigator.sendBeacon on `pagehide`: the
 * body is read as text whatever its content type (text/plain or application/json), and the
 * session cookie comes along (same origin).
 */
export async function POST(request: Request) {
  try {
    const user = await requireRole();
    const text = await request.text();
    if (text.length > MAX_EVENTS_BODY_BYTES) throw new AppError("TOO_LARGE", `An events request holds at most ${MAX_EVENTS_BODY_BYTES} bytes; send smaller batches`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError("INVALID", "The body is not JSON");
    }
    const { events } = trajectoryBatchSchema.parse(body);
    const { valid, rejected } = parseTrajectoryBatch(events);
    const ack = await recordEvents(user.id, valid);
    return Response.json(rejected.length > 0 ? { ...ack, rejected } : ack);
  } catch (error) {
    return toResponse(error);
  }
}
