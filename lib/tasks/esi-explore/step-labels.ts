import { z } from "zod";
import type { ExplorationStepLabel } from "@/lib/generated/prisma/enums";
import type { EsiStepLabelSummary } from "@/lib/tasks/esi-explore/figures";
import { krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import type { Json } from "@/lib/tasks/types";

/**
 * Researchers' labels of the steps of replayed ESI-Bench trajectories (the paper's annotation):
 * each step redundant, confirmatory or contrastive, one label per labeller and step (StepLabel),
 * with Krippendorff's alpha over labellers. A step counts as labelled contrastive in the metrics
 * when at least half of its labels say so.
 */

export const STEP_LABELS = ["redundant", "confirmatory", "contrastive"] as const;
export type StepLabelName = (typeof STEP_LABELS)[number];

export const stepLabelToDb: Record<StepLabelName, ExplorationStepLabel> = { redundant: "REDUNDANT", confirmatory: "CONFIRMATORY", contrastive: "CONTRASTIVE" };
const fromDb = (label: ExplorationStepLabel): StepLabelName => label.toLowerCase() as StepLabelName;

export const stepLabelInputSchema = z.strictObject({
  assignmentId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, "an assignment id"),
  seq: z.number().int().min(1).max(100_000),
  /** null removes this labeller's label */
  label: z.enum(STEP_LABELS).nullable(),
});
export type StepLabelInput = z.infer<typeof stepLabelInputSchema>;

export interface ReplayStep {
  seq: number;
  action: Json;
  valid: boolean;
  message: string | null;
  /** what the annotator was shown */
  view: Json;
  /** the viewer's own label */
  mine: StepLabelName | null;
  /** the other labellers' labels (researchers, by name) */
  labels: Array<{ labeller: string; label: StepLabelName }>;
}

export interface ReplaySteps {
  steps: ReplayStep[];
  /** study-wide agreement of the step labels */
  agreement: EsiStepLabelSummary;
}

/** Label counts and Krippendorff's alpha (nominal) over labellers, from stored labels (StepLabel rows). */
export function stepLabelAgreement(
  rows: ReadonlyArray<{ assignmentId: string; seq: number; labellerId: string; label: ExplorationStepLabel }>,
): EsiStepLabelSummary {
  return summariseStepLabels(rows.map((row) => ({ unit: `${row.assignmentId}#${row.seq}`, labeller: row.labellerId, label: fromDb(row.label) })));
}

/** Pure: counts, and alpha over units with two or more labels. */
export function summariseStepLabels(rows: ReadonlyArray<{ unit: string; labeller: string; label: StepLabelName }>): EsiStepLabelSummary {
  const counts = { redundant: 0, confirmatory: 0, contrastive: 0 };
  const byUnit = new Map<string, StepLabelName[]>();
  for (const row of rows) {
    counts[row.label] += 1;
    const list = byUnit.get(row.unit) ?? [];
    list.push(row.label);
    byUnit.set(row.unit, list);
  }
  const units = [...byUnit.values()].filter((labels) => labels.length >= 2);
  const labellers = new Set(rows.map((row) => row.labeller)).size;
  if (units.length === 0) return { counts, labelledSteps: byUnit.size, labellers, alpha: null, units: 0, reason: "no step has labels from two labellers yet" };
  const result = krippendorffAlphaFromUnits(units, "nominal");
  return { counts, labelledSteps: byUnit.size, labellers, alpha: result.alpha, units: units.length, ...(result.reason ? { reason: result.reason } : {}) };
}

/** The steps counted as labelled contrastive: at least half of their labels say contrastive. */
export function contrastiveByMajority(rows: ReadonlyArray<{ assignmentId: string; seq: number; label: StepLabelName }>): Map<string, Set<number>> {
  const tally = new Map<string, { contrastive: number; all: number }>();
  for (const row of rows) {
    const key = `${row.assignmentId}#${row.seq}`;
    const cell = tally.get(key) ?? { contrastive: 0, all: 0 };
    cell.all += 1;
    if (row.label === "contrastive") cell.contrastive += 1;
    tally.set(key, cell);
  }
  const out = new Map<string, Set<number>>();
  for (const [key, cell] of tally) {
    if (cell.contrastive * 2 < cell.all) continue;
    const [assignmentId, seq] = key.split("#");
    const set = out.get(assignmentId) ?? new Set<number>();
    set.add(Number(seq));
    out.set(assignmentId, set);
  }
  return out;
}

export { fromDb as stepLabelFromDb };

/** One recorded step as the replay's label panel shows it (the kind's replay panel). */
export interface LabelledStep {
  seq: number;
  action: unknown;
  valid: boolean;
  message: string | null;
  /** the frame the annotator saw after the step */
  image: string | null;
  mine: StepLabelName | null;
  labels: Array<{ labeller: string; label: StepLabelName }>;
}

/** The data of the replay's label panel: the steps after the start, and the study-wide agreement. */
export interface EsiReplayPanel {
  steps: LabelledStep[];
  agreement: EsiStepLabelSummary;
}
