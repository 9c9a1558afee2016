import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ConfidenceScale } from "@/lib/generated/prisma/enums";
import { getTaskModule } from "@/lib/tasks";
import { taskItemOf } from "@/lib/annotate/assignment-view";
import { activeTimeMs, idleCapMs, wallTimeMs } from "@/lib/timing/active-time";
import type { ResponseAck, ResponseCreateInput } from "@/lib/validations/annotate";

/**
 * Stores an annotator's response, scored on the server with the kind's own scorer. A submission
 * carries a client-generated id: however often it is retried it is stored once, and a retry gets
 * the same reply (`duplicate: true`).
 *
 * Times: the browser sends its wall and active time, but the stored values are recomputed here
 * from the stored events 0..submitSeq whenever that trajectory is complete (gapless up to the
 * `submitted` event), with the same pure function (lib/timing/active-time.ts). The browser sends a
 * submission only after its events are acknowledged, so this is the normal case; the browser's
 * values are the fallback (e.g. events lost with a cleared browser storage). The server's copy is
 * preferred because it is computed from the very record that researchers replay and export.
 */

/** Confidence as given, checked against the study's scale, and normalised to [0, 1]. */
export function normaliseConfidence(value: number, scale: ConfidenceScale): number {
  if (scale === "LIKERT_5") {
    if (!Number.isInteger(value) || value < 1 || value > 5) throw new AppError("INVALID", `confidence must be an integer from 1 to 5 on this study's scale; got ${value}`);
    return (value - 1) / 4;
  }
  if (!Number.isFinite(value) || value < 0 || value > 100) throw new AppError("INVALID", `confidence must be from 0 to 100 on this study's scale; got ${value}`);
  return value / 100;
}

/** The key's order (shown after a practice item, and to researchers): ENACT-like keys carry `order`. */
export function keyOrderOf(key: unknown): number[] | null {
  const order = key && typeof key === "object" ? (key as { order?: unknown }).order : undefined;
  return Array.isArray(order) && order.every((value) => typeof value === "number") ? (order as number[]) : null;
}

interface StoredResponse {
  id: string;
  clientId: string;
  correct: boolean;
  assignment: { id: string; userId: string; purpose: "MAIN" | "PRACTICE" | "AGREEMENT"; item: { kind: string; key: unknown } };
}

function ackOf(response: StoredResponse, duplicate: boolean): ResponseAck {
  const ack: ResponseAck = { responseId: response.id, assignmentId: response.assignment.id, clientId: response.clientId, duplicate, purpose: response.assignment.purpose };
  if (response.assignment.purpose === "PRACTICE") {
    const { kind, key } = response.assignment.item;
    ack.feedback = { correct: response.correct, order: keyOrderOf(key) ?? [] };
    // non-ordering kinds: the key as an answer of the kind (GridWM: the right letter, verdict or scene)
    const keyAnswer = getTaskModule(kind).keyAnswer;
    if (keyAnswer) ack.feedback.answer = keyAnswer(key);
  }
  return ack;
}

const storedSelect = {
  id: true,
  clientId: true,
  correct: true,
  assignment: { select: { id: true, userId: true, purpose: true, item: { select: { kind: true, key: true } } } },
} as const;

async function findByClientId(clientId: string, userId: string): Promise<ResponseAck | null> {
  const stored = await db.response.findUnique({ where: { clientId }, select: storedSelect });
  if (!stored) return null;
  if (stored.assignment.userId !== userId) throw new AppError("CONFLICT", `Submission ${clientId} belongs to another annotator`);
  return ackOf(stored, true);
}

/** Wall and active time from the stored trajectory, or null when it is incomplete. */
async function timesFromEvents(assignmentId: string, submitSeq: number, capMs: number): Promise<{ wallMs: number; activeMs: number } | null> {
  const events = await db.event.findMany({ where: { assignmentId, seq: { lte: submitSeq } }, orderBy: { seq: "asc" }, select: { seq: true, type: true, clientTime: true } });
  const complete = events.length === submitSeq + 1 && events.every((event, i) => event.seq === i) && events[events.length - 1]?.type === "submitted";
  if (!complete) return null;
  const timed = events.map((event) => ({ type: event.type, clientTime: event.clientTime.getTime() }));
  return { wallMs: wallTimeMs(timed), activeMs: activeTimeMs(timed, capMs) };
}

const INT_MAX = 2_147_483_647;

export async function submitResponse(userId: string, input: ResponseCreateInput): Promise<ResponseAck> {
  const retried = await findByClientId(input.clientId, userId);
  if (retried) {
    if (retried.assignmentId !== input.assignmentId) throw new AppError("CONFLICT", `Submission ${input.clientId} was stored for another assignment`);
    return retried;
  }

  const assignment = await db.assignment.findUnique({
    where: { id: input.assignmentId },
    select: {
      id: true,
      userId: true,
      purpose: true,
      response: { select: { clientId: true } },
      study: { select: { confidenceScale: true, idleCapSeconds: true } },
      item: { select: { externalId: true, kind: true, public: true, key: true, tags: true } },
    },
  });
  if (!assignment) throw new AppError("NOT_FOUND", `No assignment ${input.assignmentId}`);
  if (assignment.userId !== userId) throw new AppError("FORBIDDEN", `Assignment ${input.assignmentId} belongs to another annotator`);
  if (assignment.response) throw new AppError("CONFLICT", `Assignment ${input.assignmentId} has a stored response already (submission ${assignment.response.clientId})`);

  const kindModule = getTaskModule(assignment.item.kind);
  const item = taskItemOf(assignment.item);
  const answerSchema = kindModule.answerSchemaFor ? kindModule.answerSchemaFor(item) : kindModule.answerSchema;
  const answer = answerSchema.parse(input.answer);
  const confidence = normaliseConfidence(input.confidence, assignment.study.confidenceScale);
  const score = kindModule.score(answer, item.key, item);
  const correct = kindModule.correct(score);

  const recomputed = await timesFromEvents(assignment.id, input.submitSeq, idleCapMs(assignment.study.idleCapSeconds));
  const wallMs = Math.min(INT_MAX, recomputed?.wallMs ?? input.wallMs);
  const activeMs = Math.min(wallMs, recomputed?.activeMs ?? input.activeMs);

  try {
    const [stored] = await db.$transaction([
      db.response.create({
        data: {
          assignmentId: assignment.id,
          clientId: input.clientId,
          answer: answer as Prisma.InputJsonValue,
          confidenceRaw: input.confidence,
          confidence,
          wallMs,
          activeMs,
          score: score as Prisma.InputJsonValue,
          correct,
        },
        select: storedSelect,
      }),
      db.assignment.update({ where: { id: assignment.id }, data: { status: "SUBMITTED", submittedAt: new Date() }, select: { id: true } }),
    ]);
    return ackOf(stored, false);
  } catch (error) {
    // two copies of the same submission racing: the loser finds the winner's row
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const winner = await findByClientId(input.clientId, userId);
      if (winner) return winner;
      throw new AppError("CONFLICT", `Assignment ${input.assignmentId} has a stored response already`);
    }
    throw error;
  }
}
