import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";
import { confidenceToProbability } from "@/lib/tasks/esi-explore/confidence";
import { effectiveCondition, predictionCondition } from "@/lib/tasks/esi-explore/conditions";
import { esiSection, modelName, type EsiSection, type HumanAnswer, type ModelAnswer } from "@/lib/tasks/esi-explore/figures";
import type { BeliefChoice, BeliefPoint, TracePoint, Trajectory } from "@/lib/tasks/esi-explore/metrics";
import { contrastiveByMajority, stepLabelFromDb, stepLabelAgreement } from "@/lib/tasks/esi-explore/step-labels";
import { AGENT_RUN_PREFIX, isAgentRun, type KindDashboardData } from "@/lib/tasks/dashboard-port";
import { scoreEsi, type EsiKey } from "@/lib/tasks/esi-explore";
import type { ModelPredictionsLoader } from "@/lib/dashboard/types";
import type { KindDashboard } from "@/lib/tasks/types";
import type { ModelRunSummary } from "@/lib/models/types";

/**
 * Loads a study's ESI-Bench answers for the dashboard (lib/tasks/esi-explore/figures.ts computes the figures):
 * non-practice `esi-explore` items, their non-practice responses with the assignment's condition
 * (none: active), the hidden episode trace (viewpoints and contrastive states visited), the
 * recorded steps, the belief events and the researchers' step labels (answers given for the
 * agreement plan only when the researcher includes them, as in the study's main table); model
 * agents' answers the same way, each agent a run whose condition is its assignment's; and imported
 * model runs, whose condition is the answer's `condition`, else a condition named in the run's name.
 */

export const ESI_KIND = "esi-explore";

function traceOf(playState: unknown): TracePoint[] | null {
  if (!playState || typeof playState !== "object") return null;
  const trace = (playState as { trace?: unknown }).trace;
  if (!Array.isArray(trace)) return null;
  return trace
    .filter((point): point is Record<string, unknown> => point !== null && typeof point === "object")
    .map((point) => ({
      seq: Number(point.seq) || 0,
      valid: point.valid !== false,
      // earlier versions stored a state's id ("state:<id>") for a state without a viewpoint: not a camera position
      viewpoint: typeof point.viewpoint === "string" && !point.viewpoint.startsWith("state:") ? point.viewpoint : null,
      contrastive: point.contrastive === true,
      state: typeof point.node === "string" ? point.node : null,
    }));
}

/** A belief's answer as stored: an option or a map of parts to options (anything else: none). */
function beliefChoice(value: unknown): BeliefChoice {
  if (typeof value === "string") return value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const parts = Object.entries(value as Record<string, unknown>).filter((entry): entry is [string, string] => typeof entry[1] === "string");
  return parts.length ? Object.fromEntries(parts) : null;
}

function tagText(tags: unknown, name: string, fallback: string): string {
  const value = tags && typeof tags === "object" ? (tags as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" || typeof value === "number" ? String(value) : fallback;
}

function byAssignment<T extends { assignmentId: string }>(rows: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.assignmentId);
    if (list) list.push(row);
    else out.set(row.assignmentId, [row]);
  }
  return out;
}

/** null for studies without ESI items. */
export async function loadEsiSection(
  data: KindDashboardData,
  studyId: string,
  options: {
    annotators: ReadonlyArray<{ id: string; name: string }>;
    annotatorId: string | null;
    confidenceScale: "LIKERT_5" | "PERCENT";
    calibrationBins: number;
    excludedItemIds?: ReadonlySet<string>;
    includePlanAnswers?: boolean;
    models?: readonly ModelRunSummary[];
    modelPredictions?: ModelPredictionsLoader;
    over?: GeneraliseOver;
  },
): Promise<EsiSection | null> {
  const items = await data.itemAnswersAndTags(studyId, ESI_KIND);
  const kept = items.filter((item) => !options.excludedItemIds?.has(item.id));
  if (kept.length === 0) return null;
  const itemById = new Map(kept.map((item) => [item.id, item]));
  const itemIds = [...itemById.keys()];

  const assignments = await data.answeredAssignmentsOfItems(studyId, itemIds);
  const assignmentIds = assignments.map((a) => a.id);
  // the study dashboard passes the runs and predictions it loaded for every section; alone, load them here
  const runs = options.models ?? (await data.modelRuns(studyId));
  const modelPredictions = options.modelPredictions ?? data.modelPredictions(studyId, runs);
  const [steps, beliefs, labels, studyPredictions, stepLabels] = await Promise.all([
    data.playStepsAfterStart(assignmentIds),
    data.eventsOfType(assignmentIds, "belief_changed"),
    data.stepLabelsOf(assignmentIds),
    modelPredictions(),
    data.stepLabelsOfStudy(studyId, assignmentIds).then(stepLabelAgreement),
  ]);
  const stepsBy = byAssignment(steps);
  const beliefsBy = byAssignment(beliefs);
  const contrastiveLabels = contrastiveByMajority(
    labels.map((label) => ({ assignmentId: label.assignmentId, seq: label.seq, label: stepLabelFromDb(label.label) })),
  );

  // the dashboard's annotators (excluded participants are left out unless the researcher includes them)
  const counted = new Set(options.annotators.map((annotator) => annotator.id));
  const trajectoryOf = (assignment: (typeof assignments)[number], condition: string, key: EsiKey): Trajectory | null => {
    const trace = traceOf(assignment.playState);
    if (condition !== "active" || !trace) return null;
    const response = assignment.response!;
    const finalChoice = (response.answer as { choice?: unknown } | null)?.choice;
    return {
      steps: (stepsBy.get(assignment.id) ?? []).map((step) => ({ seq: step.seq, valid: step.valid })),
      trace,
      labelledContrastive: contrastiveLabels.get(assignment.id) ?? new Set(),
      beliefs: (beliefsBy.get(assignment.id) ?? []).map((event): BeliefPoint => {
        const payload = (event.payload ?? {}) as { choice?: unknown; confidence?: unknown; step?: unknown };
        const choice = beliefChoice(payload.choice ?? null);
        return {
          step: Number.isInteger(payload.step) ? (payload.step as number) : 0,
          choice,
          confidence: confidenceToProbability(payload.confidence, options.confidenceScale),
          correct: choice === null ? null : scoreEsi({ choice: choice as string | Record<string, string> }, key).correct,
        };
      }),
      final: { choice: beliefChoice(finalChoice) ?? "", confidence: response.confidence, correct: response.correct === true },
    };
  };

  const humans: HumanAnswer[] = [];
  // model agents play through the same routes as people: their answers carry the assignment's condition and episode
  const agentAnswers: ModelAnswer[] = [];
  const agentRunNames = new Map(runs.filter((run) => isAgentRun(run.id)).map((run) => [run.id, run.name]));
  for (const assignment of assignments) {
    const item = itemById.get(assignment.itemId)!;
    const response = assignment.response!;
    // the assignment's condition, never one the answer claims
    const condition = effectiveCondition(assignment.condition) ?? assignment.condition ?? "active";
    const key = { answer: item.answer } as EsiKey;
    const category = tagText(item.tags, "category", "(no category)");
    const subcategory = tagText(item.tags, "subcategory", "(no subcategory)");
    if (assignment.agent || assignment.user.isAgent) {
      const runId = AGENT_RUN_PREFIX + assignment.userId;
      const runName = agentRunNames.get(runId) ?? `Agent ${assignment.user.name}${assignment.user.agentModel ? ` (${assignment.user.agentModel})` : ""}`;
      const steps = (response.answer as { steps?: unknown } | null)?.steps;
      agentAnswers.push({
        runId,
        runName,
        itemId: assignment.itemId,
        condition,
        category,
        subcategory,
        correct: response.correct === true,
        steps: Number.isInteger(steps) ? (steps as number) : null,
        trajectory: trajectoryOf(assignment, condition, key),
      });
      continue;
    }
    if (!counted.has(assignment.userId)) continue;
    // answers given for the agreement plan feed agreement; the accuracy figures leave them out unless the researcher includes them, as the study's main table does
    if (assignment.purpose === "AGREEMENT" && !options.includePlanAnswers) continue;
    humans.push({
      annotatorId: assignment.userId,
      itemId: assignment.itemId,
      condition,
      category,
      subcategory,
      correct: response.correct === true,
      confidence: response.confidence,
      trajectory: trajectoryOf(assignment, condition, key),
    });
  }

  const runNames = new Map(runs.map((run) => [run.id, run.name]));
  // agents' answers are read from their assignments above
  const predictions = studyPredictions.filter(
    (prediction) => itemById.has(prediction.itemId) && runNames.has(prediction.runId) && !isAgentRun(prediction.runId),
  );
  const models: ModelAnswer[] = predictions.map((prediction) => {
    const runName = runNames.get(prediction.runId)!;
    const item = itemById.get(prediction.itemId)!;
    const answer = (prediction.answer ?? {}) as { steps?: unknown };
    const condition = predictionCondition(prediction.answer, runName) ?? "unspecified";
    // runs of one model in several conditions ("GPT-5 [active]", "GPT-5 [passive-gt]") share its row group
    const model = modelName(runName);
    return {
      runId: `model:${model}`,
      runName: model,
      itemId: prediction.itemId,
      condition,
      category: tagText(item.tags, "category", "(no category)"),
      subcategory: tagText(item.tags, "subcategory", "(no subcategory)"),
      correct: prediction.correct === true,
      steps: Number.isInteger(answer.steps) ? (answer.steps as number) : null,
    };
  });

  return esiSection({
    humans,
    models: [...models, ...agentAnswers],
    annotators: options.annotators,
    annotatorId: options.annotatorId,
    calibrationBins: options.calibrationBins,
    stepLabels,
    confidenceScale: options.confidenceScale,
    over: options.over,
  });
}

/** The ESI-Bench section of the study dashboard; not memoised: researchers' step labels change it without a new response. */
export const dashboard: KindDashboard = {
  section: "esi",
  load: (context) =>
    loadEsiSection(context.data, context.studyId, {
      annotators: context.snapshot.annotators,
      annotatorId: context.annotatorId,
      confidenceScale: context.confidenceScale,
      calibrationBins: context.calibrationBins,
      excludedItemIds: context.excludedItemIds,
      includePlanAnswers: context.includePlanAnswers,
      models: context.models,
      modelPredictions: context.modelPredictions,
      over: context.generaliseOver,
    }),
};
