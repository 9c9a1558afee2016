import "server-only";
import { AppError } from "@/lib/errors";
import {
  stepLabelAgreement,
  stepLabelFromDb,
  stepLabelInputSchema,
  stepLabelToDb,
  type EsiReplayPanel,
  type ReplaySteps,
  type StepLabelInput,
  type StepLabelName,
} from "@/lib/tasks/esi-explore/step-labels";
import type { KindReplayData } from "@/lib/tasks/replay-port";
import type { Json, KindReplay } from "@/lib/tasks/types";

/** the one kind whose replayed trajectories take step labels (its module is the one with this replay hook) */
const ESI_KIND = "esi-explore";

async function assignmentInStudy(data: KindReplayData, slug: string, assignmentId: string) {
  const assignment = await data.findAssignmentInStudy(slug, assignmentId);
  if (!assignment) throw new AppError("NOT_FOUND", `No assignment ${assignmentId} in the study "${slug}"`);
  if (assignment.item.kind !== ESI_KIND)
    throw new AppError("INVALID", `Assignment ${assignmentId} is not an ESI-Bench exploration (its kind is ${assignment.item.kind})`);
  return assignment;
}

/** Sets (or, with label null, removes) the labeller's label of one recorded step. */
export async function setStepLabel(
  data: KindReplayData,
  slug: string,
  labellerId: string,
  input: StepLabelInput,
): Promise<{ seq: number; label: StepLabelName | null }> {
  const assignment = await assignmentInStudy(data, slug, input.assignmentId);
  const step = await data.findPlayStepSeq(assignment.id, input.seq);
  if (!step) throw new AppError("NOT_FOUND", `Assignment ${assignment.id} has no step ${input.seq}`);
  if (input.label === null) {
    await data.deleteStepLabel(assignment.id, input.seq, labellerId);
    return { seq: input.seq, label: null };
  }
  await data.upsertStepLabel(assignment.id, input.seq, labellerId, stepLabelToDb[input.label]);
  return { seq: input.seq, label: input.label };
}

/** The recorded steps of one trajectory with their labels, for the replay page. */
export async function getReplaySteps(data: KindReplayData, slug: string, assignmentId: string, viewerId: string): Promise<ReplaySteps> {
  const assignment = await assignmentInStudy(data, slug, assignmentId);
  const [steps, labels, agreement] = await Promise.all([
    data.findReplaySteps(assignment.id),
    data.findStepLabelsWithLabellers(assignment.id),
    data.findStepLabelsOfStudy(assignment.studyId).then(stepLabelAgreement),
  ]);
  return {
    steps: steps.map((step) => {
      const own = labels.filter((label) => label.seq === step.seq);
      return {
        seq: step.seq,
        action: step.action as Json,
        valid: step.valid,
        message: step.message,
        view: step.view as Json,
        mine: own.find((label) => label.labellerId === viewerId) ? stepLabelFromDb(own.find((label) => label.labellerId === viewerId)!.label) : null,
        labels: own.filter((label) => label.labellerId !== viewerId).map((label) => ({ labeller: label.labeller.name, label: stepLabelFromDb(label.label) })),
      };
    }),
    agreement,
  };
}

/**
 * ESI-Bench's replay hook (the module's `replay`): the player gets the frame of every recorded step
 * (the task shows the one at the replayed position), and the page the step-label panel, where
 * researchers label each step redundant, confirmatory or contrastive.
 */
export const replay: KindReplay = {
  async load({ slug, assignmentId, viewerId, view, data }) {
    const { steps, agreement } = await getReplaySteps(data, slug, assignmentId, viewerId);
    const played =
      view && typeof view === "object"
        ? {
            ...(view as Record<string, Json>),
            replay: steps.map((step) => ({ seq: step.seq, view: step.view, action: step.action, valid: step.valid, message: step.message })),
          }
        : view;
    const panel: EsiReplayPanel = {
      agreement,
      steps: steps
        .filter((step) => step.seq > 0)
        .map((step) => ({
          seq: step.seq,
          action: step.action,
          valid: step.valid,
          message: step.message,
          image: typeof (step.view as { image?: unknown } | null)?.image === "string" ? (step.view as { image: string }).image : null,
          mine: step.mine,
          labels: step.labels,
        })),
    };
    return { view: played, panel: panel as unknown as Json };
  },
  labelStep: (slug, labellerId, input, data) => setStepLabel(data, slug, labellerId, stepLabelInputSchema.parse(input)),
};
