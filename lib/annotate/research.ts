import "server-only";
import { AppError } from "@/lib/errors";
import { getTaskModule, isTaskKind, kindSettings } from "@/lib/tasks";
import type { Json, KindReplay } from "@/lib/tasks/types";
import type { ReplayStepLabelInput } from "@/lib/validations/replay";
import { taskItemOf } from "@/lib/annotate/assignment-view";
import type { AssignmentPurpose, AssignmentStatus, ConfidenceScale } from "@/lib/generated/prisma/enums";
import { findAssignmentForReplay, findAssignmentKind } from "@/lib/repos/assignments";
import { findStepLabelsOfStudy } from "@/lib/repos/dashboard-kinds";
import {
  deleteStepLabel,
  findAssignmentInStudy,
  findPlayStepSeq,
  findReplaySteps,
  findStepLabelsWithLabellers,
  upsertStepLabel,
} from "@/lib/repos/step-labels";
import type { KindReplayData } from "@/lib/tasks/replay-port";
import { findItemWithAssignments } from "@/lib/repos/items";
import { listStudyPeopleInJoiningOrder } from "@/lib/repos/participants";
import { findStudyForResearch } from "@/lib/repos/studies";

/**
 * Researchers' views of items, responses and trajectories. Annotators appear as a pseudonym
 * ("A3": their rank among the study's members by joining time) with their name; never an email.
 */

export interface AnnotatorLabel {
  pseudonym: string;
  name: string;
}

/** userId -> label for everyone who is a member of the study or has an assignment in it. */
export async function annotatorLabels(studyId: string): Promise<Map<string, AnnotatorLabel>> {
  const people = await listStudyPeopleInJoiningOrder(studyId);
  const labels = new Map<string, AnnotatorLabel>();
  for (const row of people) {
    if (!labels.has(row.userId)) labels.set(row.userId, { pseudonym: `A${labels.size + 1}`, name: row.user.name });
  }
  return labels;
}

async function studyBySlug(slug: string) {
  const study = await findStudyForResearch(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  return study;
}

export interface ResponseRow {
  assignmentId: string;
  annotator: AnnotatorLabel;
  purpose: AssignmentPurpose;
  status: AssignmentStatus;
  events: number;
  response: {
    /** the stored answer as submitted */
    answer: Json;
    confidenceRaw: number;
    /** null: the answer has no correctness (an item without a key, not graded yet) */
    correct: boolean | null;
    score: Json;
    wallMs: number;
    activeMs: number;
    createdAt: string;
  } | null;
}

export interface ItemReview {
  study: { slug: string; title: string; confidenceScale: ConfidenceScale; idleCapSeconds: number };
  item: {
    id: string;
    externalId: string;
    kind: string;
    tags: Json;
    practice: boolean;
    gold: boolean;
    batch: string;
    view: Json;
    review: Json;
    keyAnswer: Json | null;
  };
  responses: ResponseRow[];
}

/** The key as an answer of the item's kind (its module's keyAnswer), for the kind's UI to lay out; null when the kind gives none. */
function keyAnswerOf(kindModule: ReturnType<typeof getTaskModule>, key: unknown): Json | null {
  return kindModule.keyAnswer ? ((kindModule.keyAnswer(key) ?? null) as Json) : null;
}

/** One item with its key (for researchers) and every assignment of it. */
export async function getItemReview(slug: string, itemId: string): Promise<ItemReview> {
  const study = await studyBySlug(slug);
  const item = await findItemWithAssignments(study.id, itemId);
  if (!item) throw new AppError("NOT_FOUND", `No item ${itemId} in the study "${slug}"`);
  const kindModule = getTaskModule(item.kind);
  const taskItem = taskItemOf(item);
  const labels = await annotatorLabels(study.id);
  return {
    study: { slug: study.slug, title: study.title, confidenceScale: study.confidenceScale, idleCapSeconds: study.idleCapSeconds },
    item: {
      id: item.id,
      externalId: item.externalId,
      kind: item.kind,
      tags: item.tags as Json,
      practice: item.practice,
      gold: item.gold,
      batch: item.batch.fileName,
      view: kindModule.publicView(taskItem, kindSettings(study.taskSettings, item.kind)),
      review: kindModule.reviewView(taskItem),
      keyAnswer: keyAnswerOf(kindModule, item.key),
    },
    responses: item.assignments.map((a) => ({
      assignmentId: a.id,
      annotator: labels.get(a.userId) ?? { pseudonym: "A?", name: "unknown" },
      purpose: a.purpose,
      status: a.status,
      events: a._count.events,
      response: a.response
        ? {
            answer: a.response.answer as Json,
            confidenceRaw: a.response.confidenceRaw,
            correct: a.response.correct,
            score: a.response.score as Json,
            wallMs: a.response.wallMs,
            activeMs: a.response.activeMs,
            createdAt: a.response.createdAt.toISOString(),
          }
        : null,
    })),
  };
}

export interface ReplayData {
  study: { slug: string; title: string; confidenceScale: ConfidenceScale; idleCapSeconds: number };
  item: { id: string; externalId: string; kind: string; view: Json; keyAnswer: Json | null };
  annotator: AnnotatorLabel;
  assignment: { id: string; purpose: AssignmentPurpose; status: AssignmentStatus; startedAt: string | null; submittedAt: string | null };
  events: Array<{ seq: number; type: string; payload: Json; clientTime: number; serverTime: number }>;
  response: ResponseRow["response"];
}

/** One annotator's trajectory on one item, for the replay page. */
export async function getReplay(slug: string, assignmentId: string): Promise<ReplayData> {
  const study = await studyBySlug(slug);
  const assignment = await findAssignmentForReplay(study.id, assignmentId);
  if (!assignment) throw new AppError("NOT_FOUND", `No assignment ${assignmentId} in the study "${slug}"`);
  const kindModule = getTaskModule(assignment.item.kind);
  const labels = await annotatorLabels(study.id);
  const response = assignment.response;
  return {
    study: { slug: study.slug, title: study.title, confidenceScale: study.confidenceScale, idleCapSeconds: study.idleCapSeconds },
    item: {
      id: assignment.item.id,
      externalId: assignment.item.externalId,
      kind: assignment.item.kind,
      view: kindModule.publicView(taskItemOf(assignment.item), kindSettings(study.taskSettings, assignment.item.kind)),
      keyAnswer: keyAnswerOf(kindModule, assignment.item.key),
    },
    annotator: labels.get(assignment.userId) ?? { pseudonym: "A?", name: "unknown" },
    assignment: {
      id: assignment.id,
      purpose: assignment.purpose,
      status: assignment.status,
      startedAt: assignment.startedAt?.toISOString() ?? null,
      submittedAt: assignment.submittedAt?.toISOString() ?? null,
    },
    events: assignment.events.map((e) => ({
      seq: e.seq,
      type: e.type,
      payload: e.payload as Json,
      clientTime: e.clientTime.getTime(),
      serverTime: e.serverTime.getTime(),
    })),
    response: response
      ? {
          answer: response.answer as Json,
          confidenceRaw: response.confidenceRaw,
          correct: response.correct,
          score: response.score as Json,
          wallMs: response.wallMs,
          activeMs: response.activeMs,
          createdAt: response.createdAt.toISOString(),
        }
      : null,
  };
}

/** What the kinds' replay hooks read and write, through the repositories. */
export const replayData: KindReplayData = {
  findAssignmentInStudy,
  findPlayStepSeq,
  findReplaySteps,
  findStepLabelsWithLabellers,
  findStepLabelsOfStudy: (studyId) => findStepLabelsOfStudy(studyId),
  upsertStepLabel,
  deleteStepLabel,
};

/** The kind's replay hook (its module's `replay`), or null for a kind without one. */
async function kindReplayOf(kind: string): Promise<KindReplay | null> {
  const load = isTaskKind(kind) ? getTaskModule(kind).replay : undefined;
  return load ? load() : null;
}

/**
 * What the item's kind adds to a replay (its replay hook): the view the player is given and the
 * data of the kind's panel below it; the public view and no panel for a kind without a hook.
 */
export async function getKindReplay(data: ReplayData, viewerId: string): Promise<{ view: Json; panel: Json | null }> {
  const hook = await kindReplayOf(data.item.kind);
  if (!hook) return { view: data.item.view, panel: null };
  return hook.load({ slug: data.study.slug, assignmentId: data.assignment.id, viewerId, view: data.item.view, data: replayData });
}

/** A researcher's label of one recorded step of a replayed trajectory, set by the kind's replay hook (INVALID for a kind whose steps take no labels). */
export async function labelReplayStep(slug: string, labellerId: string, input: ReplayStepLabelInput): Promise<{ seq: number; label: string | null }> {
  const kind = await findAssignmentKind(slug, input.assignmentId);
  if (kind === null) throw new AppError("NOT_FOUND", `No assignment ${input.assignmentId} in the study "${slug}"`);
  const hook = await kindReplayOf(kind);
  if (!hook?.labelStep) throw new AppError("INVALID", `The steps of assignment ${input.assignmentId} take no labels (its kind, ${kind}, has none)`);
  return hook.labelStep(slug, labellerId, input, replayData);
}
