import "server-only";
import { modelPredictionsLoader } from "@/lib/dashboard/model-predictions";
import { listModelRuns } from "@/lib/models/runs";
import {
  countItemsWithoutAnswerKey,
  findAnsweredAssignmentsOfItems,
  findEventsOfType,
  findGradingItemsOf,
  findItemAnswersAndTags,
  findItemPublicParts,
  findItemsOfKind,
  findItemsWithKeys,
  findLastLeftSides,
  findMediaEventsOfAnswers,
  findModelRunNames,
  findPlayedAssignments,
  findPlayStepsAfterStart,
  findPredictionsForItems,
  findResponsesToGradingItems,
  findResponsesToItems,
  findScorerResultsOfKind,
  findScorerResultsWithTargets,
  findStepLabelsOf,
  findStepLabelsOfStudy,
} from "@/lib/repos/dashboard-kinds";
import { getLlmScoringStatus, LLM_SCORER } from "@/lib/scoring/llm-jobs";
import type { KindDashboardData } from "@/lib/tasks/dashboard-port";

/** The kinds' dashboard port (lib/tasks/dashboard-port.ts), read through the repositories. */
export const kindDashboardData: KindDashboardData = {
  itemPublicParts: findItemPublicParts,
  itemsWithKeys: findItemsWithKeys,
  itemsOfKind: findItemsOfKind,
  itemAnswersAndTags: findItemAnswersAndTags,
  itemAnswerKeyCounts: countItemsWithoutAnswerKey,
  gradingItemsOf: findGradingItemsOf,
  responsesToItems: findResponsesToItems,
  responsesToGradingItems: findResponsesToGradingItems,
  predictionsForItems: findPredictionsForItems,
  answeredAssignmentsOfItems: findAnsweredAssignmentsOfItems,
  playedAssignments: findPlayedAssignments,
  playStepsAfterStart: findPlayStepsAfterStart,
  eventsOfType: findEventsOfType,
  mediaEventsOfAnswers: findMediaEventsOfAnswers,
  lastLeftSides: findLastLeftSides,
  stepLabelsOf: findStepLabelsOf,
  stepLabelsOfStudy: findStepLabelsOfStudy,
  modelRuns: listModelRuns,
  modelPredictions: modelPredictionsLoader,
  modelRunNames: findModelRunNames,
  llmResultsOfKind: (studyId, kind) => findScorerResultsOfKind(studyId, LLM_SCORER, kind),
  llmResultsWithTargets: (studyId) => findScorerResultsWithTargets(studyId, LLM_SCORER),
  llmScoringStatus: (studyId, kind) => getLlmScoringStatus(studyId, undefined, kind),
};
