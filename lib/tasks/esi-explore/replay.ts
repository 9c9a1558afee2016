import "server-only";
import { getReplaySteps, setStepLabel, stepLabelInputSchema, type EsiReplayPanel } from "@/lib/tasks/esi-explore/step-labels";
import type { Json, KindReplay } from "@/lib/tasks/types";

/**
 * ESI-Bench's replay hook (the module's `replay`): the player gets the frame of every recorded step
 * (the task shows the one at the replayed position), and the page the step-label panel, where
 * researchers label each step redundant, confirmatory or contrastive.
 */
export const replay: KindReplay = {
  async load({ slug, assignmentId, viewerId, view }) {
    const { steps, agreement } = await getReplaySteps(slug, assignmentId, viewerId);
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
  labelStep: (slug, labellerId, input) => setStepLabel(slug, labellerId, stepLabelInputSchema.parse(input)),
};
