import type { ExplorationStepLabel } from "@/lib/generated/prisma/enums";

/**
 * What a kind's replay hook reads and writes (KindReplayContext.data): the replay service
 * (lib/annotate/research.ts) implements it with repository functions and passes it in, so that a
 * kind's replay.ts does no data access itself, as its dashboard reads through
 * lib/tasks/dashboard-port.ts.
 */
export interface KindReplayData {
  /** the assignment in the study of that slug, with its study and its item's kind; null when there is none */
  findAssignmentInStudy(slug: string, assignmentId: string): Promise<{ id: string; studyId: string; item: { kind: string } } | null>;
  /** the recorded step's seq, or null when the assignment has no such step */
  findPlayStepSeq(assignmentId: string, seq: number): Promise<{ seq: number } | null>;
  /** the assignment's recorded steps, by seq */
  findReplaySteps(assignmentId: string): Promise<Array<{ seq: number; action: unknown; valid: boolean; message: string | null; view: unknown }>>;
  /** the labels of the assignment's steps, with the labeller's name, by seq and labeller */
  findStepLabelsWithLabellers(
    assignmentId: string,
  ): Promise<Array<{ seq: number; labellerId: string; label: ExplorationStepLabel; labeller: { name: string } }>>;
  /** every step label of the study */
  findStepLabelsOfStudy(studyId: string): Promise<Array<{ assignmentId: string; seq: number; labellerId: string; label: ExplorationStepLabel }>>;
  upsertStepLabel(assignmentId: string, seq: number, labellerId: string, label: ExplorationStepLabel): Promise<void>;
  deleteStepLabel(assignmentId: string, seq: number, labellerId: string): Promise<void>;
}
