import "server-only";
import { AppError } from "@/lib/errors";
import { getTaskModule, kindSettings } from "@/lib/tasks";
import { agentContractOf, type AgentContract } from "@/lib/tasks/agent-contract";
import type { Json, TaskItem } from "@/lib/tasks/types";
import type { AssignmentPurpose, AssignmentStatus } from "@/lib/generated/prisma/enums";
import { findAssignmentWithTrajectory } from "@/lib/repos/assignments";

/**
 * What the annotator's browser receives for one assignment: the kind's public view of the item
 * (publicView, never the key) and the trajectory stored so far (to resume on any device).
 */
export interface AssignmentView {
  assignmentId: string;
  purpose: AssignmentPurpose;
  status: AssignmentStatus;
  kind: string;
  /** the kind's publicView(item) */
  view: Json;
  /** when the item was first shown (ms since the epoch; null until its first event is stored): the per-item timer counts from here */
  startedAt: number | null;
  /** Study.itemTimeLimitSeconds (null: no limit): a submission later than startedAt + this (+ a grace) is stored flagged timed out (lib/responses/responses.ts) */
  timeLimitSeconds: number | null;
  /** the study condition this item is done under (Study.conditions; lib/assignment), null when the study has none */
  condition: string | null;
  /** stored events in seq order, for resuming */
  history: Array<{ seq: number; type: string; payload: Json; clientTime: number }>;
  /**
   * The trajectory says submitted (`submittedSeq`) but no response reached the server (a tab
   * closed right after Submit, a slow server): the page reopens the item for answering, records
   * `submission_reopened` and shows `reason`; null otherwise. The browser that still holds that
   * submission in its outbox sends it instead (and does not show the item).
   */
  reopened: { submittedSeq: number; submittedAt: number; reason: string } | null;
  /**
   * The agent contract (lib/tasks/agent-contract.ts; docs/api.md): the answer's JSON Schema, the
   * instructions and an example answer, so that a model agent answers any kind without knowing
   * it. Only for callers with an API token (`withAgentContract`): the browser does not need it.
   */
  agent?: AgentContract;
}

/** What a caller of getAssignmentView / nextForMember asks for besides the view. */
export interface AssignmentViewOptions {
  /** add the agent contract (`agent`): the caller has an API token (an agent, a script) */
  withAgentContract?: boolean;
}

/**
 * The last `submitted` event not followed by a `submission_reopened`, when the assignment is still
 * open and has no response: the item must be answerable again on any device (no way on otherwise).
 */
export function pendingSubmissionOf(
  status: AssignmentStatus,
  hasResponse: boolean,
  history: ReadonlyArray<{ seq: number; type: string; clientTime: number }>,
): { submittedSeq: number; submittedAt: number; reason: string } | null {
  if (hasResponse || (status !== "ASSIGNED" && status !== "STARTED")) return null;
  let submitted: { seq: number; clientTime: number } | null = null;
  for (const event of history) {
    if (event.type === "submitted") submitted = event;
    else if (event.type === "submission_reopened") submitted = null;
  }
  if (!submitted) return null;
  return {
    submittedSeq: submitted.seq,
    submittedAt: submitted.clientTime,
    reason:
      "You submitted this item before, but the answer never reached the server (the page was closed or the connection dropped right after Submit). Your work on it is kept: check it and submit again.",
  };
}

export function taskItemOf(item: { externalId: string; kind: string; public: unknown; key: unknown; tags: unknown }): TaskItem {
  return {
    id: item.externalId,
    kind: item.kind,
    public: item.public,
    key: item.key,
    tags: (item.tags && typeof item.tags === "object" ? item.tags : {}) as TaskItem["tags"],
  };
}

/**
 * The assignment as its annotator may see it. FORBIDDEN for anyone else (staff look at
 * assignments through the research replay, which is another function), NOT_FOUND when absent.
 */
export async function getAssignmentView(assignmentId: string, userId: string, options: AssignmentViewOptions = {}): Promise<AssignmentView> {
  const assignment = await findAssignmentWithTrajectory(assignmentId);
  if (!assignment) throw new AppError("NOT_FOUND", `No assignment ${assignmentId}`);
  if (assignment.userId !== userId) throw new AppError("FORBIDDEN", `Assignment ${assignmentId} belongs to another annotator`);
  const kindModule = getTaskModule(assignment.item.kind);
  const history = assignment.events.map((event) => ({
    seq: event.seq,
    type: event.type,
    payload: event.payload as Json,
    clientTime: Number(event.clientTime),
  }));
  const settings = kindSettings(assignment.taskSettings, assignment.item.kind);
  const view = kindModule.publicView(taskItemOf(assignment.item), settings);
  return {
    assignmentId: assignment.id,
    purpose: assignment.purpose,
    status: assignment.status,
    kind: assignment.item.kind,
    view,
    startedAt: assignment.startedAt?.getTime() ?? null,
    timeLimitSeconds: assignment.itemTimeLimitSeconds,
    condition: assignment.condition,
    history,
    reopened: pendingSubmissionOf(assignment.status, assignment.hasResponse, history),
    // from the kind and the public view only (never the key)
    ...(options.withAgentContract ? { agent: agentContractOf(kindModule, view, settings) } : {}),
  };
}
