import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { ExplorationStepLabel } from "@/lib/generated/prisma/enums";
import type { EsiStepLabelSummary } from "@/lib/tasks/esi-explore/figures";
import { krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import { getTaskModule, isTaskKind } from "@/lib/tasks";
import type { Json } from "@/lib/tasks/types";

/**
 * Researchers' labels of the steps of replayed ESI-Bench trajectories (the paper's annotation):
 * each step redundant, confirmatory or contrastive, one label per labeller and step (StepLabel),
 * with Krippendorff's alpha over labellers. A step counts as labelled contrastive in the metrics
 * when at least half of its labels say so.
 */

export const STEP_LABELS = ["redundant", "confirmatory", "contrastive"] as const;
export type StepLabelName = (typeof STEP_LABELS)[number];

const toDb: Record<StepLabelName, ExplorationStepLabel> = { redundant: "REDUNDANT", confirmatory: "CONFIRMATORY", contrastive: "CONTRASTIVE" };
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

/** Whether a kind's replayed trajectories take step labels: only ESI-Bench's kind has a replay hook that labels steps. */
function takesStepLabels(kind: string): boolean {
  return isTaskKind(kind) && getTaskModule(kind).replay !== undefined;
}

async function assignmentInStudy(slug: string, assignmentId: string) {
  const assignment = await db.assignment.findFirst({
    where: { id: assignmentId, study: { slug } },
    select: { id: true, studyId: true, item: { select: { kind: true } } },
  });
  if (!assignment) throw new AppError("NOT_FOUND", `No assignment ${assignmentId} in the study "${slug}"`);
  if (!takesStepLabels(assignment.item.kind))
    throw new AppError("INVALID", `Assignment ${assignmentId} is not an ESI-Bench exploration (its kind is ${assignment.item.kind})`);
  return assignment;
}

/** Sets (or, with label null, removes) the labeller's label of one recorded step. */
export async function setStepLabel(slug: string, labellerId: string, input: StepLabelInput): Promise<{ seq: number; label: StepLabelName | null }> {
  const assignment = await assignmentInStudy(slug, input.assignmentId);
  const step = await db.playStep.findUnique({ where: { assignmentId_seq: { assignmentId: assignment.id, seq: input.seq } }, select: { seq: true } });
  if (!step) throw new AppError("NOT_FOUND", `Assignment ${assignment.id} has no step ${input.seq}`);
  const where = { assignmentId_seq_labellerId: { assignmentId: assignment.id, seq: input.seq, labellerId } };
  if (input.label === null) {
    await db.stepLabel.deleteMany({ where: { assignmentId: assignment.id, seq: input.seq, labellerId } });
    return { seq: input.seq, label: null };
  }
  await db.stepLabel.upsert({
    where,
    create: { assignmentId: assignment.id, seq: input.seq, labellerId, label: toDb[input.label] },
    update: { label: toDb[input.label] },
  });
  return { seq: input.seq, label: input.label };
}

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

/** The recorded steps of one trajectory with their labels, for the replay page. */
export async function getReplaySteps(slug: string, assignmentId: string, viewerId: string): Promise<ReplaySteps> {
  const assignment = await assignmentInStudy(slug, assignmentId);
  const [steps, labels, agreement] = await Promise.all([
    db.playStep.findMany({
      where: { assignmentId: assignment.id },
      orderBy: { seq: "asc" },
      select: { seq: true, action: true, valid: true, message: true, view: true },
    }),
    db.stepLabel.findMany({
      where: { assignmentId: assignment.id },
      orderBy: [{ seq: "asc" }, { labellerId: "asc" }],
      select: { seq: true, labellerId: true, label: true, labeller: { select: { name: true } } },
    }),
    stepLabelAgreement(assignment.studyId),
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
        mine: own.find((label) => label.labellerId === viewerId) ? fromDb(own.find((label) => label.labellerId === viewerId)!.label) : null,
        labels: own.filter((label) => label.labellerId !== viewerId).map((label) => ({ labeller: label.labeller.name, label: fromDb(label.label) })),
      };
    }),
    agreement,
  };
}

/** Label counts and Krippendorff's alpha (nominal) over labellers, for one study's ESI steps. */
export async function stepLabelAgreement(studyId: string, assignmentIds?: readonly string[]): Promise<EsiStepLabelSummary> {
  const rows = await db.stepLabel.findMany({
    where: { assignment: { studyId }, ...(assignmentIds ? { assignmentId: { in: [...assignmentIds] } } : {}) },
    select: { assignmentId: true, seq: true, labellerId: true, label: true },
  });
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
