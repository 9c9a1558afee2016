import "server-only";
import { AppError } from "@/lib/errors";
import { signedOutError } from "@/lib/db/enabled-user";
import { isForeignKeyViolation } from "@/lib/db/errors";
import type { ConfidenceScale } from "@/lib/generated/prisma/enums";
import { getTaskModule, kindSettings } from "@/lib/tasks";
import type { PlayedStep } from "@/lib/tasks/types";
import { taskItemOf } from "@/lib/annotate/assignment-view";
import { endParticipation, reclaimReleasedPlace } from "@/lib/assignment";
import { alreadySubmitted, writerConflict } from "@/lib/responses/writer";
import {
  countResponsesOfAssignment,
  findResponseByClientId,
  findSubmitTarget,
  insertResponse,
  listGoldAnswers,
  listPlayedSteps,
  type SubmitTarget,
} from "@/lib/repos/responses";
import { inTransaction } from "@/lib/repos/transactions";
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
 *
 * Queue rules on submission (lib/assignment, docs/assignment.md):
 * - item time limit: a response submitted more than Study.itemTimeLimitSeconds +
 *   ITEM_TIME_GRACE_SECONDS after the item was first shown (Assignment.startedAt, else its
 *   creation) is stored like any other, with Response.timedOut = true; researchers decide what to
 *   do with it (nothing is thrown away: the participant's time was spent);
 * - a late submission to a RELEASED assignment (lease expired, participant excluded or timed out)
 *   is stored too; the assignment takes its place back (SUBMITTED) only if the item still has
 *   room, else it stays RELEASED and does not count toward k;
 * - a gold item's answer runs the exclusion rule (applyGoldRule).
 */

/** Confidence as given, checked against the study's scale, and normalised to [0, 1]. */
export function normaliseConfidence(value: number, scale: ConfidenceScale): number {
  if (scale === "LIKERT_5") {
    if (!Number.isInteger(value) || value < 1 || value > 5)
      throw new AppError("INVALID", `confidence must be an integer from 1 to 5 on this study's scale; got ${value}`);
    return (value - 1) / 4;
  }
  if (!Number.isFinite(value) || value < 0 || value > 100)
    throw new AppError("INVALID", `confidence must be from 0 to 100 on this study's scale; got ${value}`);
  return value / 100;
}

interface StoredResponse {
  id: string;
  clientId: string;
  correct: boolean | null;
  assignment: { id: string; userId: string; purpose: "MAIN" | "PRACTICE" | "AGREEMENT"; item: { kind: string; key: unknown } };
}

function ackOf(response: StoredResponse, duplicate: boolean): ResponseAck {
  const ack: ResponseAck = {
    responseId: response.id,
    assignmentId: response.assignment.id,
    clientId: response.clientId,
    duplicate,
    purpose: response.assignment.purpose,
  };
  if (response.assignment.purpose === "PRACTICE") {
    const { kind, key } = response.assignment.item;
    // a practice answer with no correctness (not graded yet) is shown the key, as a wrong one is
    ack.feedback = { correct: response.correct === true };
    // the key as an answer of the kind (the right order, letter, verdict or scene), which the kind's UI lays out
    const keyAnswer = getTaskModule(kind).keyAnswer;
    if (keyAnswer) ack.feedback.answer = keyAnswer(key);
  }
  return ack;
}

async function findByClientId(clientId: string, userId: string): Promise<ResponseAck | null> {
  const stored = await findResponseByClientId(clientId);
  if (!stored) return null;
  if (stored.assignment.userId !== userId) throw new AppError("CONFLICT", `Submission ${clientId} belongs to another annotator`, { reason: "client-id" });
  return ackOf(stored, true);
}

/** Wall and active time from the stored trajectory (events 0..submitSeq in seq order, client times in ms), or null when it is incomplete. */
function timesFromEvents(
  events: ReadonlyArray<{ seq: number; type: string; clientTime: number }>,
  submitSeq: number,
  capMs: number,
): { wallMs: number; activeMs: number } | null {
  const complete = events.length === submitSeq + 1 && events.every((event, i) => event.seq === i) && events[events.length - 1]?.type === "submitted";
  if (!complete) return null;
  return { wallMs: wallTimeMs(events), activeMs: activeTimeMs(events, capMs) };
}

const INT_MAX = 2_147_483_647;

async function playedSteps(assignmentId: string): Promise<PlayedStep[]> {
  return listPlayedSteps(assignmentId);
}

/** Grace on top of Study.itemTimeLimitSeconds before a submission is flagged timed out (the page submits when its timer ends; the request takes a moment). */
export const ITEM_TIME_GRACE_SECONDS = 10;

/** `userId`: the session's user; this function checks that the account is enabled (UNAUTHORIZED otherwise). */
export async function submitResponse(userId: string, input: ResponseCreateInput): Promise<ResponseAck> {
  // one read (one round trip): the account, the assignment, its stored response (a retry), the study's settings, the item and the trajectory up to the submission
  // `userId` comes from the session token; the account check (enabled) rides on this read
  const target = await findSubmitTarget(userId, input.assignmentId, input.submitSeq);
  if (!target?.userEnabled) throw signedOutError();
  if (target.id === null) throw new AppError("NOT_FOUND", `No assignment ${input.assignmentId}`);
  const assignment: SubmitTarget = target;
  if (assignment.userId !== userId) throw new AppError("FORBIDDEN", `Assignment ${input.assignmentId} belongs to another annotator`);
  const ack = (responseId: string, correct: boolean | null, duplicate: boolean) =>
    ackOf(
      { id: responseId, clientId: input.clientId, correct, assignment: { id: assignment.id, userId, purpose: assignment.purpose, item: assignment.item } },
      duplicate,
    );
  if (assignment.responseId !== null) {
    if (assignment.responseClientId === input.clientId) return ack(assignment.responseId, assignment.responseCorrect, true);
    // a second answer (another tab's, another device's): refused plainly, for the page to say so
    throw alreadySubmitted(input.assignmentId);
  }
  // a closed study takes no more writes (a retry of a stored submission is still acknowledged above)
  if (assignment.studyClosed) throw new AppError("INVALID", "This study is closed: it takes no more answers. Nothing was stored.");
  const writer = input.writer ?? "";
  if (assignment.writer !== null && assignment.writer !== writer) throw writerConflict(assignment.writer);

  const kindModule = getTaskModule(assignment.item.kind);
  const item = taskItemOf(assignment.item);
  const answerSchema = kindModule.answerSchemaFor
    ? kindModule.answerSchemaFor(item, kindSettings(assignment.taskSettings, assignment.item.kind))
    : kindModule.answerSchema;
  // interactive kinds: the answer is rebuilt from the steps the server recorded (lib/annotate/play.ts)
  const submitted = kindModule.playAnswer ? kindModule.playAnswer(input.answer, await playedSteps(assignment.id), item) : input.answer;
  const answer = answerSchema.parse(submitted);
  const confidence = normaliseConfidence(input.confidence, assignment.confidenceScale);
  const score = kindModule.score(answer, item.key, item);
  const correct = kindModule.correct(score);

  const recomputed = timesFromEvents(assignment.events, input.submitSeq, idleCapMs(assignment.idleCapSeconds));
  const wallMs = Math.min(INT_MAX, recomputed?.wallMs ?? input.wallMs);
  const activeMs = Math.min(wallMs, recomputed?.activeMs ?? input.activeMs);

  // one statement: the response (flagged when past the item time limit) and, only if it was
  // stored, the assignment SUBMITTED. A copy racing this one (same clientId), another clientId
  // for the same assignment, or a clientId used elsewhere stores nothing (ON CONFLICT DO NOTHING).
  const written = await insertResponse({
    assignmentId: assignment.id,
    clientId: input.clientId,
    writer,
    answer,
    confidenceRaw: input.confidence,
    confidence,
    wallMs,
    activeMs,
    score,
    correct,
    timeGraceSeconds: ITEM_TIME_GRACE_SECONDS,
  }).catch((error: unknown) => {
    // the assignment was deleted (a withdrawal, a study removed) after it was read: its response has nothing to belong to
    if (isForeignKeyViolation(error)) throw new AppError("NOT_FOUND", `No assignment ${input.assignmentId}`);
    throw error;
  });

  if (!written?.responseId) {
    // two copies of the same submission racing: the loser finds the winner's row
    const winner = await findByClientId(input.clientId, userId);
    if (winner) {
      if (winner.assignmentId !== input.assignmentId)
        throw new AppError("CONFLICT", `Submission ${input.clientId} was stored for another assignment`, { reason: "client-id" });
      return winner;
    }
    if (await countResponsesOfAssignment(input.assignmentId)) throw alreadySubmitted(input.assignmentId);
    throw writerConflict();
  }
  // a late submission to an assignment whose place went back to the pool (lease expired, participant excluded or timed out): kept, and the place taken back if the item still has room
  if (written.submitted === 0) await reclaimReleasedPlace(assignment.id);
  if (assignment.item.gold && assignment.goldFailLimit !== null) {
    await applyGoldRule(assignment.studyId, userId, written.responseId, assignment.goldFailLimit, assignment.goldFailWindow);
  }
  return ack(written.responseId, correct, false);
}

/**
 * The exclusion rule (Study.goldFailLimit of the first Study.goldFailWindow gold answers, in the
 * order they were stored), evaluated on each gold submission. It fires once, at the failed answer
 * that reaches the limit within the window: a participant a researcher re-included is not
 * excluded again by later answers, and concurrent submissions cannot both miss it.
 */
async function applyGoldRule(studyId: string, userId: string, responseId: string, limit: number, window: number | null): Promise<void> {
  const answers = await listGoldAnswers(studyId, userId, window ?? 2_147_483_647);
  const index = answers.findIndex((answer) => answer.id === responseId);
  // a gold answer with no correctness (not graded yet) is no failure
  if (index < 0 || answers[index].correct !== false) return;
  const failures = answers.slice(0, index + 1).filter((answer) => answer.correct === false).length;
  if (failures !== limit) return;
  const rule = window === null ? `${limit} failed gold items` : `${limit} failed among the first ${window} gold items`;
  await inTransaction((tx) => endParticipation(tx, studyId, userId, "EXCLUDED", `failed ${failures} of ${index + 1} gold items (rule: ${rule})`));
}
