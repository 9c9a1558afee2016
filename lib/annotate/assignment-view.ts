import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getTaskModule, kindSettings } from "@/lib/tasks";
import type { Json, TaskItem } from "@/lib/tasks/types";
import type { AssignmentPurpose, AssignmentStatus } from "@/lib/generated/prisma/enums";

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
  /** Study.itemTimeLimitSeconds (null: no limit): a submission later than startedAt + this (+ a grace) is stored flagged timed out (lib/responses.ts) */
  timeLimitSeconds: number | null;
  /** the study condition this item is done under (Study.conditions; lib/assignment.ts), null when the study has none */
  condition: string | null;
  /** stored events in seq order, for resuming */
  history: Array<{ seq: number; type: string; payload: Json; clientTime: number }>;
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
export async function getAssignmentView(assignmentId: string, userId: string): Promise<AssignmentView> {
  const assignment = await db.assignment.findUnique({
    where: { id: assignmentId },
    select: {
      id: true,
      userId: true,
      purpose: true,
      status: true,
      startedAt: true,
      condition: true,
      item: { select: { externalId: true, kind: true, public: true, key: true, tags: true } },
      study: { select: { taskSettings: true, itemTimeLimitSeconds: true } },
      events: { orderBy: { seq: "asc" }, select: { seq: true, type: true, payload: true, clientTime: true } },
    },
  });
  if (!assignment) throw new AppError("NOT_FOUND", `No assignment ${assignmentId}`);
  if (assignment.userId !== userId) throw new AppError("FORBIDDEN", `Assignment ${assignmentId} belongs to another annotator`);
  const kindModule = getTaskModule(assignment.item.kind);
  return {
    assignmentId: assignment.id,
    purpose: assignment.purpose,
    status: assignment.status,
    kind: assignment.item.kind,
    view: kindModule.publicView(taskItemOf(assignment.item), kindSettings(assignment.study.taskSettings, assignment.item.kind)),
    startedAt: assignment.startedAt?.getTime() ?? null,
    timeLimitSeconds: assignment.study.itemTimeLimitSeconds,
    condition: assignment.condition,
    history: assignment.events.map((event) => ({ seq: event.seq, type: event.type, payload: event.payload as Json, clientTime: event.clientTime.getTime() })),
  };
}
