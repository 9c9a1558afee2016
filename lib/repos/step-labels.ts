import "server-only";
import { db } from "@/lib/db";
import type { ExplorationStepLabel } from "@/lib/generated/prisma/enums";

/**
 * Data access for researchers' labels of replayed steps (StepLabel, one per labeller and step) and
 * the recorded steps they label. Which kinds take labels, and what a label means, is the kind's.
 */

/** The assignment in the study of that slug, with its study and its item's kind; null when there is none. */
export async function findAssignmentInStudy(slug: string, assignmentId: string) {
  return db.assignment.findFirst({
    where: { id: assignmentId, study: { slug } },
    select: { id: true, studyId: true, item: { select: { kind: true } } },
  });
}

export async function findPlayStepSeq(assignmentId: string, seq: number) {
  return db.playStep.findUnique({ where: { assignmentId_seq: { assignmentId, seq } }, select: { seq: true } });
}

export async function deleteStepLabel(assignmentId: string, seq: number, labellerId: string): Promise<void> {
  await db.stepLabel.deleteMany({ where: { assignmentId, seq, labellerId } });
}

export async function upsertStepLabel(assignmentId: string, seq: number, labellerId: string, label: ExplorationStepLabel): Promise<void> {
  await db.stepLabel.upsert({
    where: { assignmentId_seq_labellerId: { assignmentId, seq, labellerId } },
    create: { assignmentId, seq, labellerId, label },
    update: { label },
  });
}

/** The assignment's recorded steps, by seq. */
export async function findReplaySteps(assignmentId: string) {
  return db.playStep.findMany({
    where: { assignmentId },
    orderBy: { seq: "asc" },
    select: { seq: true, action: true, valid: true, message: true, view: true },
  });
}

/** The labels of the assignment's steps, with the labeller's name, by seq and labeller. */
export async function findStepLabelsWithLabellers(assignmentId: string) {
  return db.stepLabel.findMany({
    where: { assignmentId },
    orderBy: [{ seq: "asc" }, { labellerId: "asc" }],
    select: { seq: true, labellerId: true, label: true, labeller: { select: { name: true } } },
  });
}
