import "server-only";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db/client-types";
import { findLastPlaySeq, findPlayStep, insertPlayStep, listPlaySteps, lockAssignmentForPlay, markAssignmentStarted } from "@/lib/repos/play-steps";
import { inTransaction } from "@/lib/repos/transactions";
import { getTaskModule, kindSettings } from "@/lib/tasks";
import { playAdviceOf, type PlayAdvice } from "@/lib/tasks/agent-contract";
import { taskItemOf } from "@/lib/annotate/assignment-view";
import type { InteractiveTask, Json, PlayContext, PlayResult } from "@/lib/tasks/types";
import { assertAgentStepAllowed } from "@/lib/participants/agents";

/**
 * Interactive items (ESI-Bench exploration, Ego2World episodes): the episode runs on the server,
 * one action per request, and only the kind's view of the current observation reaches the
 * browser. The hidden state lives in Assignment.playState; every step is a PlayStep row.
 *
 * - The episode starts on the first GET (seq 0 is the start view); later GETs resume it.
 * - A step names its seq (last + 1). (assignmentId, seq) is unique, so a step retried after a
 *   network failure is applied once and answered with the stored result; any other seq is a
 *   409 that tells the browser where the episode is.
 * - The assignment row is locked (SELECT ... FOR UPDATE) while a step reads and writes the state,
 *   so two tabs cannot interleave steps. The kind's step may be async (a remote simulator): it
 *   runs inside that transaction, bounded by the transaction timeout below.
 */

/** A remote simulator step (ESI) waits at most this long before the kind reports it down. */
const STEP_TRANSACTION_TIMEOUT_MS = 30_000;

export interface PlayStepView {
  seq: number;
  action: Json;
  valid: boolean;
  message: string | null;
}

export interface PlayState {
  /** the seq of the latest step (0: only the start) */
  seq: number;
  view: Json;
  /** every step after the start, in order (what the annotator did and was told) */
  steps: PlayStepView[];
  /** callers with an API token (`withPlayAdvice`): whether the episode takes another action now (the kind says; the agent contract) */
  canAct?: boolean;
  /** callers with an API token: the kind's trivial next action from this view; null: stop acting and answer */
  exampleAction?: Json | null;
}

/** What a caller of getPlay / playStep asks for besides the episode. */
export interface PlayOptions {
  /** add `canAct` and `exampleAction` (PlayAdvice, lib/tasks/agent-contract.ts): the caller has an API token (an agent, a script) */
  withPlayAdvice?: boolean;
}

export interface PlayStepAck {
  seq: number;
  view: Json;
  valid: boolean;
  message: string | null;
  /** true when this seq was stored before: a retry, answered from the record */
  duplicate: boolean;
  /** as in PlayState, after this step (callers with an API token only) */
  canAct?: boolean;
  exampleAction?: Json | null;
}

interface LockedAssignment {
  id: string;
  userId: string;
  status: string;
  condition: string | null;
  playState: unknown;
  studyId: string;
  taskSettings: unknown;
  item: { externalId: string; kind: string; public: unknown; key: unknown; tags: unknown };
}

async function lockAssignment(tx: Tx, assignmentId: string, userId: string): Promise<LockedAssignment> {
  const assignment = await lockAssignmentForPlay(tx, assignmentId);
  if (!assignment) throw new AppError("NOT_FOUND", `No assignment ${assignmentId}`);
  if (assignment.userId !== userId) throw new AppError("FORBIDDEN", `Assignment ${assignmentId} belongs to another annotator`);
  return assignment;
}

function interactiveOf(kind: string): InteractiveTask {
  const interactive = getTaskModule(kind).interactive;
  if (!interactive) throw new AppError("INVALID", `Items of kind ${kind} are not interactive`);
  return interactive;
}

function contextOf(assignment: LockedAssignment): PlayContext {
  const all = assignment.taskSettings && typeof assignment.taskSettings === "object" ? (assignment.taskSettings as Record<string, unknown>) : {};
  const own = all[assignment.item.kind];
  return { assignmentId: assignment.id, condition: assignment.condition, settings: own && typeof own === "object" ? (own as Record<string, unknown>) : {} };
}

async function storeStep(tx: Tx, assignmentId: string, seq: number, action: unknown, result: PlayResult): Promise<void> {
  await insertPlayStep(tx, assignmentId, {
    seq,
    action: (action ?? {}) as Prisma.InputJsonValue,
    view: result.view as Prisma.InputJsonValue,
    valid: result.valid,
    message: result.message ?? null,
    state: (result.state ?? null) as Prisma.InputJsonValue | null,
  });
}

/**
 * What the kind tells an agent after `stepsTaken` steps (the agent contract, lib/tasks/agent-contract.ts),
 * from the item's public view and the current play view: never from the hidden state or the key.
 */
function adviceAfter(assignment: LockedAssignment, playView: Json, stepsTaken: number): PlayAdvice {
  const kindModule = getTaskModule(assignment.item.kind);
  // the public view only when the kind's example reads it
  const view = kindModule.agent?.exampleAction
    ? kindModule.publicView(taskItemOf(assignment.item), kindSettings(assignment.taskSettings, assignment.item.kind))
    : null;
  return playAdviceOf(kindModule, view, playView, stepsTaken);
}

/** The episode as the annotator may see it; starts it (seq 0) on the first call. */
export async function getPlay(userId: string, assignmentId: string, options: PlayOptions = {}): Promise<PlayState> {
  const { rows, assignment } = await inTransaction(
    async (tx) => {
      const assignment = await lockAssignment(tx, assignmentId, userId);
      const interactive = interactiveOf(assignment.item.kind);
      const existing = await listPlaySteps(tx, assignmentId);
      if (existing.length > 0) return { rows: existing, assignment };
      if (assignment.status === "SUBMITTED" || assignment.status === "RELEASED") throw new AppError("CONFLICT", `Assignment ${assignmentId} is closed`);
      const result = await interactive.start(taskItemOf(assignment.item), contextOf(assignment));
      await storeStep(tx, assignmentId, 0, {}, result);
      return { rows: await listPlaySteps(tx, assignmentId), assignment };
    },
    { timeout: STEP_TRANSACTION_TIMEOUT_MS },
  );
  const last = rows[rows.length - 1]!;
  return {
    seq: last.seq,
    view: last.view as Json,
    steps: rows.filter((row) => row.seq > 0).map((row) => ({ seq: row.seq, action: row.action as Json, valid: row.valid, message: row.message })),
    ...(options.withPlayAdvice ? adviceAfter(assignment, last.view as Json, last.seq) : {}),
  };
}

/** Applies one action (seq = last + 1) once; a retried seq gets the stored result. */
export async function playStep(userId: string, assignmentId: string, input: { seq: number; action: unknown }, options: PlayOptions = {}): Promise<PlayStepAck> {
  const { ack, assignment } = await inTransaction(
    async (tx) => {
      const assignment = await lockAssignment(tx, assignmentId, userId);
      const interactive = interactiveOf(assignment.item.kind);
      const stored = await findPlayStep(tx, assignmentId, input.seq);
      if (stored) return { ack: { seq: stored.seq, view: stored.view as Json, valid: stored.valid, message: stored.message, duplicate: true }, assignment };
      if (assignment.status === "SUBMITTED" || assignment.status === "RELEASED")
        throw new AppError("CONFLICT", `Assignment ${assignmentId} is closed: no more steps`);
      const lastSeq = await findLastPlaySeq(tx, assignmentId);
      if (lastSeq === null) throw new AppError("CONFLICT", `The episode of assignment ${assignmentId} has not started: load it first`, { expectedSeq: 0 });
      if (input.seq !== lastSeq + 1)
        throw new AppError("CONFLICT", `Step ${input.seq} is out of order: the next step is ${lastSeq + 1}`, { expectedSeq: lastSeq + 1 });
      await assertAgentStepAllowed(tx, userId, assignment.studyId);
      const action = interactive.actionSchema.parse(input.action);
      const item = taskItemOf(assignment.item);
      const result = await interactive.step(item, assignment.playState, action, { ...contextOf(assignment), seq: input.seq });
      await assertAgentStepAllowed(tx, userId, assignment.studyId, { lock: true });
      await storeStep(tx, assignmentId, input.seq, action, result);
      if (assignment.status === "ASSIGNED") await markAssignmentStarted(tx, assignmentId);
      return { ack: { seq: input.seq, view: result.view as Json, valid: result.valid, message: result.message ?? null, duplicate: false }, assignment };
    },
    { timeout: STEP_TRANSACTION_TIMEOUT_MS },
  );
  return options.withPlayAdvice ? { ...ack, ...adviceAfter(assignment, ack.view, ack.seq) } : ack;
}
