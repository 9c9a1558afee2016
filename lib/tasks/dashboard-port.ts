import type { AssignmentPurpose, ExplorationStepLabel } from "@/lib/generated/prisma/enums";
import type { ModelPredictionsLoader } from "@/lib/dashboard/types";
import type { ModelRunSummary } from "@/lib/models/types";
import type { LlmScoringStatus } from "@/lib/scoring/types";

/**
 * What a kind's dashboard section reads beyond the snapshot (KindDashboardContext.data): the study
 * dashboard (lib/dashboard/kind-dashboard-data.ts) implements it with repository functions and
 * passes it in, so that a kind's dashboard.ts queries nothing itself and imports no service that
 * imports the task registry back. Every function reads one study's rows; `kind` is the caller's own
 * kind id, and the items read are its non-practice items unless a function says otherwise.
 */
export interface KindDashboardData {
  /** the items' id and public part */
  itemPublicParts(studyId: string, kind: string): Promise<Array<{ id: string; public: unknown }>>;
  /** the items' id, external id, public part and key, by external id */
  itemsWithKeys(studyId: string, kind: string): Promise<Array<{ id: string; externalId: string; public: unknown; key: unknown }>>;
  /** the items' id, external id, public part, key and tags */
  itemsOfKind(studyId: string, kind: string): Promise<Array<{ id: string; externalId: string; public: unknown; key: unknown; tags: unknown }>>;
  /** the items' id, the `answer` of their key and their tags */
  itemAnswersAndTags(studyId: string, kind: string): Promise<Array<{ id: string; answer: unknown; tags: unknown }>>;
  /** how many items have no `answer` in their key (withheld by their benchmark), of how many */
  itemAnswerKeyCounts(studyId: string, kind: string): Promise<{ withheld: bigint; total: bigint }>;
  /** the `gradingKind` items of any study whose key's source is this study (people's grades of its answers) */
  gradingItemsOf(studyId: string, gradingKind: string): Promise<Array<{ id: string; key: unknown }>>;

  /** the responses to these items, practice items included */
  responsesToItems(
    studyId: string,
    itemIds: readonly string[],
  ): Promise<Array<{ id: string; answer: unknown; assignment: { itemId: string; userId: string } }>>;
  /** the responses to these (grading) items, practice items left out */
  responsesToGradingItems(itemIds: readonly string[]): Promise<Array<{ answer: unknown; assignment: { itemId: string; userId: string } }>>;
  /** the predictions of the study's model runs for these items */
  predictionsForItems(studyId: string, itemIds: readonly string[]): Promise<Array<{ id: string; answer: unknown; itemId: string; runId: string }>>;
  /** the non-practice, answered assignments of these items, with who answered and how */
  answeredAssignmentsOfItems(studyId: string, itemIds: readonly string[]): Promise<AnsweredAssignment[]>;
  /** the non-practice, answered assignments of the kind's items, with their play steps and the events of `eventTypes`, each by seq */
  playedAssignments(studyId: string, kind: string, eventTypes: readonly string[]): Promise<PlayedAssignment[]>;
  /** the assignments' play steps after the start (seq > 0), by assignment and seq */
  playStepsAfterStart(assignmentIds: readonly string[]): Promise<Array<{ assignmentId: string; seq: number; valid: boolean }>>;
  /** the assignments' events of one type, by assignment and seq */
  eventsOfType(assignmentIds: readonly string[], type: string): Promise<Array<{ assignmentId: string; payload: unknown }>>;
  /** the events of `eventTypes` of every submitted, non-practice answer to items of `kinds`, by assignment and seq (an answer without one: one row, type null) */
  mediaEventsOfAnswers(
    studyId: string,
    kinds: readonly string[],
    eventTypes: readonly string[],
  ): Promise<Array<{ assignmentId: string; itemId: string; userId: string; type: string | null; payload: unknown }>>;
  /** the `left` field of the payload of each assignment's last event of `eventType` (the side shown on the left) */
  lastLeftSides(studyId: string, kind: string, eventType: string): Promise<Array<{ itemId: string; userId: string; left: string | null }>>;

  /** researchers' labels of these assignments' steps */
  stepLabelsOf(assignmentIds: readonly string[]): Promise<Array<{ assignmentId: string; seq: number; label: ExplorationStepLabel }>>;
  /** researchers' labels of the study's steps (of these assignments only, when given), with the labeller */
  stepLabelsOfStudy(
    studyId: string,
    assignmentIds?: readonly string[],
  ): Promise<Array<{ assignmentId: string; seq: number; labellerId: string; label: ExplorationStepLabel }>>;

  /** the study's model runs and agents as runs (a kind's section loaded alone, outside the study dashboard) */
  modelRuns(studyId: string): Promise<ModelRunSummary[]>;
  /** a loader of the predictions of these runs, once */
  modelPredictions(studyId: string, runs: readonly ModelRunSummary[]): ModelPredictionsLoader;
  /** the study's imported model runs' id and name, oldest first */
  modelRunNames(studyId: string): Promise<Array<{ id: string; name: string }>>;

  /** the LLM scorer's results of the study's answers (responses and predictions) to items of the kind */
  llmResultsOfKind(
    studyId: string,
    kind: string,
  ): Promise<Array<{ model: string; promptVersion: string; score: unknown; responseId: string | null; predictionId: string | null }>>;
  /** every LLM scorer result of the study, with the item and the person or run it scored */
  llmResultsWithTargets(studyId: string): Promise<
    Array<{
      model: string;
      promptVersion: string;
      score: unknown;
      response: { assignment: { itemId: string; userId: string } } | null;
      prediction: { runId: string; itemId: string } | null;
    }>
  >;
  /** what the dashboard's LLM scorer panel shows for the kind (the server's configured scorer) */
  llmScoringStatus(studyId: string, kind: string): Promise<LlmScoringStatus>;
}

export interface AnsweredAssignment {
  id: string;
  itemId: string;
  userId: string;
  condition: string | null;
  purpose: AssignmentPurpose;
  agent: boolean;
  playState: unknown;
  user: { isAgent: boolean; name: string; agentModel: string | null };
  response: { answer: unknown; correct: boolean | null; confidence: number | null } | null;
}

export interface PlayedAssignment {
  itemId: string;
  userId: string;
  response: { answer: unknown; score: unknown } | null;
  playSteps: Array<{ seq: number; action: unknown; createdAt: Date }>;
  events: Array<{ seq: number; type: string; payload: unknown }>;
}

/**
 * Model agents on the dashboard: their answers are stored and scored as a person's, and each agent
 * is shown as a run of its own; a run id `agent:<userId>` tells an agent from an imported run.
 */
export const AGENT_RUN_PREFIX = "agent:";

export function isAgentRun(runId: string): boolean {
  return runId.startsWith(AGENT_RUN_PREFIX);
}
