"use client";

import { createElement, lazy, Suspense } from "react";
import type { AnnotationInit } from "@/lib/client/annotation-store";
import type { EnactForwardPublic } from "@/lib/tasks/enact-forward";
import type { EnactInversePublic } from "@/lib/tasks/enact-inverse";
import { initialSceneDraft, sceneAnswerOf, sceneDraftFromAnswer, sceneDraftProblem, isSceneDraft } from "@/lib/tasks/shared/gridwm/scene-form";
import { choicePlace, letterOf, type TaskUi, type TaskUiProps } from "@/components/tasks/shared/types";
import { stimulusImages } from "@/components/tasks/shared/media/stimulus-images";
import { orderingShortcuts } from "@/components/tasks/shared/enact/shortcuts";
import { orderingUi } from "@/components/tasks/shared/enact/ui";
import { shortcuts as gridwmNextObsShortcuts } from "@/components/tasks/gridwm-next-obs/shortcuts";
import { shortcuts as gridwmSceneJsonShortcuts } from "@/components/tasks/gridwm-scene-json/shortcuts";
import { shortcuts as gridwmJudgeShortcuts } from "@/components/tasks/gridwm-judge/shortcuts";
import { shortcuts as exploreSceneShortcuts } from "@/components/tasks/explore-scene/shortcuts";
import { shortcuts as esiExploreShortcuts } from "@/components/tasks/esi-explore/shortcuts";
import { shortcuts as ego2worldPlayShortcuts } from "@/components/tasks/ego2world-play/shortcuts";
import { shortcuts as ratingShortcuts } from "@/components/tasks/rating/shortcuts";
import { ratingUi } from "@/components/tasks/rating/ui";
import { shortcuts as pairwiseShortcuts } from "@/components/tasks/pairwise/shortcuts";
import { pairwiseUi } from "@/components/tasks/pairwise/ui";
import type { JudgeView, NextObsView, SceneView } from "@/components/tasks/shared/gridwm/views";
import { emptyExploreDraft, isExploreDraft } from "@/lib/tasks/explore-scene/events";
import { describeEsiAnswer, esiAnswerFor, esiDisplayAnswer, esiInitialAnswer, esiMissingFor, type EsiItemView } from "@/components/tasks/esi-explore/esi-view";
import {
  describeExploreAnswer,
  exploreAnswerOf,
  exploreDraftFromAnswer,
  exploreMissing,
  isFreeTextView,
  type ExploreView,
} from "@/components/tasks/explore-scene/explore-draft";
import { emptyEgoDraft } from "@/lib/tasks/ego2world-play/notes";
import { shortcuts as freeTextShortcuts } from "@/components/tasks/free-text/shortcuts";
import { shortcuts as freeTextGradeShortcuts } from "@/components/tasks/free-text-grade/shortcuts";
import type { FreeTextView } from "@/lib/tasks/free-text";
import { isFreeTextDraft } from "@/lib/tasks/free-text/events";
import { describeEgo2worldAnswer, ego2worldAnswerOf, ego2worldMissing, type EpisodeView } from "@/components/tasks/ego2world-play/player-view";
import { shortcuts as choiceShortcuts } from "@/components/tasks/choice/shortcuts";
import { choiceAnswerOf, choiceImages, describeChoiceAnswer } from "@/components/tasks/choice/choice-view";
import { shortcuts as numericShortcuts } from "@/components/tasks/numeric/shortcuts";
import { describeNumericAnswer, numericAnswerOf, numericDisplayAnswer, numericImages, numericMissing } from "@/components/tasks/numeric/numeric-view";

export type { TaskUi };

/** What AnnotationInit needs from the kind's UI: its initial draft, the answer of a draft, and how `submitted` carries it. */
export function storeInitOf(ui: TaskUi, view: unknown): Pick<AnnotationInit, "initialAnswer" | "answerOf" | "submittedFields"> {
  return {
    initialAnswer: ui.initialAnswer(view) ?? null,
    answerOf: (answer) => ui.answerOf(answer, view),
    ...(ui.submittedFields ? { submittedFields: ui.submittedFields } : {}),
  };
}

const field = (answer: unknown, name: string): unknown =>
  answer !== null && typeof answer === "object" ? (answer as Record<string, unknown>)[name] : undefined;

/**
 * Task kind -> its UI (DESIGN.md, "The task-kind contract"): a lazily loaded component that reads
 * and changes the annotation store, plus what the pages need to know about a public view without
 * loading it. Adding a benchmark task: a module in lib/tasks/, a folder here, one entry below.
 *
 * React.lazy over one loader function per kind, so that `preload()` fetches exactly the chunk the
 * component will use (a prefetched item of another kind may have to render while offline;
 * next/dynamic compiles its import into a chunk of its own that a plain import() does not warm).
 */
const loadEnactForward = () => import("@/components/tasks/enact-forward/enact-forward-task");
const loadEnactInverse = () => import("@/components/tasks/enact-inverse/enact-inverse-task");
const loadNextObs = () => import("@/components/tasks/gridwm-next-obs/gridwm-next-obs-task");
const loadSceneJson = () => import("@/components/tasks/gridwm-scene-json/gridwm-scene-json-task");
const loadJudge = () => import("@/components/tasks/gridwm-judge/gridwm-judge-task");
const loadExplore = () => import("@/components/tasks/explore-scene/explore-scene-task");
const loadEgo2world = () => import("@/components/tasks/ego2world-play/ego2world-play-task");
const loadEsi = () => import("@/components/tasks/esi-explore/esi-explore-task");
const loadChoice = () => import("@/components/tasks/choice/choice-task");
const loadNumeric = () => import("@/components/tasks/numeric/numeric-task");
const loadFreeText = () => import("@/components/tasks/free-text/free-text-task");
const loadFreeTextGrade = () => import("@/components/tasks/free-text-grade/free-text-grade-task");

export const taskUis: Record<string, TaskUi> = {
  "enact-forward": {
    shortcuts: orderingShortcuts,
    importExample: { id: "fwd-001", tags: { steps: 5, hand: "right" } },
    Component: lazy(loadEnactForward),
    preload: loadEnactForward,
    ...orderingUi((view) => (view as EnactForwardPublic).candidates.length),
    images: (view) => [(view as EnactForwardPublic).initialImage, ...(view as EnactForwardPublic).candidates],
    candidateName: (_view, candidate) => `image ${letterOf(candidate)}`,
  },
  "enact-inverse": {
    shortcuts: orderingShortcuts,
    Component: lazy(loadEnactInverse),
    preload: loadEnactInverse,
    ...orderingUi((view) => (view as EnactInversePublic).candidates.length),
    images: (view) => [...(view as EnactInversePublic).observations],
    candidateName: (_view, candidate) => `action ${letterOf(candidate)}`,
  },
  "gridwm-next-obs": {
    shortcuts: gridwmNextObsShortcuts,
    Component: lazy(loadNextObs),
    preload: loadNextObs,
    images: (view) => {
      const v = view as NextObsView;
      return v.image ? [v.image] : [v.observation ?? "", ...(v.candidates ?? [])].filter(Boolean);
    },
    candidateName: (_view, candidate) => `candidate ${letterOf(candidate)}`,
    initialAnswer: () => null,
    answerOf: (answer) => (typeof field(answer, "choice") === "string" ? { choice: field(answer, "choice") } : null),
    missing: (answer) => (field(answer, "choice") ? "" : "Choose A–D"),
    displayAnswer: (answer) => answer,
    describeAnswer: (answer) => `candidate ${String(field(answer, "choice") ?? "?")}`,
    answerPlace: choicePlace,
  },
  "gridwm-scene-json": {
    shortcuts: gridwmSceneJsonShortcuts,
    Component: lazy(loadSceneJson),
    preload: loadSceneJson,
    images: (view) => [(view as SceneView).image],
    candidateName: (_view, candidate) => `object ${candidate + 1}`,
    initialAnswer: (view) => initialSceneDraft(view as SceneView),
    answerOf: (answer) => (isSceneDraft(answer) ? sceneAnswerOf(answer) : null),
    missing: (answer) => (isSceneDraft(answer) ? (sceneDraftProblem(answer) ?? "") : "Click the agent's cell"),
    displayAnswer: (answer, view) => sceneDraftFromAnswer(answer, view as SceneView),
    describeAnswer: (answer) => JSON.stringify(answer),
  },
  "gridwm-judge": {
    shortcuts: gridwmJudgeShortcuts,
    Component: lazy(loadJudge),
    preload: loadJudge,
    images: (view) => [(view as JudgeView).storyboard],
    candidateName: (_view, candidate) => `frame ${candidate + 1}`,
    initialAnswer: () => null,
    answerOf: (answer) => (typeof field(answer, "verdict") === "string" ? { verdict: field(answer, "verdict") } : null),
    missing: (answer) => (field(answer, "verdict") ? "" : "Success or Fail?"),
    displayAnswer: (answer) => answer,
    describeAnswer: (answer) => String(field(answer, "verdict") ?? "?"),
    // Task C's notes: 0 Success, 1 Fail
    answerPlace: (answer) => (field(answer, "verdict") === "Success" ? 0 : field(answer, "verdict") === "Fail" ? 1 : null),
  },
  "explore-scene": {
    shortcuts: exploreSceneShortcuts,
    Component: lazy(loadExplore),
    preload: loadExplore,
    images: (view) => [(view as ExploreView).initialImage],
    candidateName: (_view, candidate) => `object ${candidate + 1}`,
    initialAnswer: () => emptyExploreDraft(),
    answerOf: (answer, view) => (isExploreDraft(answer) ? exploreAnswerOf(answer, isFreeTextView(view)) : null),
    missing: (answer, view) => exploreMissing(answer, isFreeTextView(view)),
    displayAnswer: (answer) => exploreDraftFromAnswer(answer),
    describeAnswer: (answer) => describeExploreAnswer(answer),
  },
  "ego2world-play": {
    shortcuts: ego2worldPlayShortcuts,
    Component: lazy(loadEgo2world),
    preload: loadEgo2world,
    images: (view) => Object.values((view as EpisodeView).areas).map((area) => area.image),
    candidateName: (_view, candidate) => `task ${candidate + 1}`,
    initialAnswer: () => emptyEgoDraft(),
    answerOf: (answer) => ego2worldAnswerOf(answer),
    missing: (answer) => ego2worldMissing(answer),
    displayAnswer: (answer) => answer,
    describeAnswer: (answer) => describeEgo2worldAnswer(answer),
  },
  "esi-explore": {
    shortcuts: esiExploreShortcuts,
    Component: lazy(loadEsi),
    preload: loadEsi,
    images: (view) => [(view as EsiItemView).initialImage],
    candidateName: (_view, candidate) => `option ${candidate + 1}`,
    initialAnswer: () => esiInitialAnswer(),
    answerOf: (answer, view) => esiAnswerFor(answer, view),
    missing: (answer, view) => esiMissingFor(answer, view),
    displayAnswer: (answer) => esiDisplayAnswer(answer),
    describeAnswer: (answer) => describeEsiAnswer(answer),
    answerPlace: choicePlace,
    confidenceInTask: true,
  },
  rating: ratingUi(ratingShortcuts),
  pairwise: pairwiseUi(pairwiseShortcuts),
  choice: {
    shortcuts: choiceShortcuts,
    Component: lazy(loadChoice),
    preload: loadChoice,
    images: (view) => choiceImages(view),
    candidateName: (_view, candidate) => `option ${letterOf(candidate)}`,
    initialAnswer: () => null,
    answerOf: (answer) => choiceAnswerOf(answer),
    missing: (answer) => (choiceAnswerOf(answer) ? "" : "Choose an option"),
    displayAnswer: (answer) => answer,
    describeAnswer: (answer) => describeChoiceAnswer(answer),
    answerPlace: choicePlace,
  },
  numeric: {
    shortcuts: numericShortcuts,
    Component: lazy(loadNumeric),
    preload: loadNumeric,
    images: (view) => numericImages(view),
    candidateName: (_view, candidate) => `value ${candidate + 1}`,
    initialAnswer: () => ({ text: "" }),
    answerOf: (answer) => numericAnswerOf(answer),
    missing: (answer) => numericMissing(answer),
    displayAnswer: (answer) => numericDisplayAnswer(answer),
    describeAnswer: (answer) => describeNumericAnswer(answer),
  },
  "free-text": {
    shortcuts: freeTextShortcuts,
    Component: lazy(loadFreeText),
    preload: loadFreeText,
    images: (view) => stimulusImages((view as FreeTextView).media ?? undefined),
    candidateName: (_view, candidate) => `reference ${candidate + 1}`,
    initialAnswer: () => ({ text: "" }),
    answerOf: (answer) => (isFreeTextDraft(answer) && answer.text.trim() !== "" ? { text: answer.text.trim() } : null),
    missing: (answer) => (isFreeTextDraft(answer) && answer.text.trim() !== "" ? "" : "Type your answer"),
    displayAnswer: (answer) => (isFreeTextDraft(answer) ? { text: answer.text } : { text: "" }),
    describeAnswer: (answer) => (isFreeTextDraft(answer) ? `“${answer.text}”` : "?"),
  },
  "free-text-grade": {
    shortcuts: freeTextGradeShortcuts,
    Component: lazy(loadFreeTextGrade),
    preload: loadFreeTextGrade,
    images: () => [],
    candidateName: (_view, candidate) => `grade ${candidate + 1}`,
    initialAnswer: () => null,
    answerOf: (answer) => (typeof field(answer, "grade") === "number" ? { grade: field(answer, "grade") } : null),
    missing: (answer) => (typeof field(answer, "grade") === "number" ? "" : "Grade 1–5"),
    displayAnswer: (answer) => answer,
    describeAnswer: (answer) => `grade ${String(field(answer, "grade") ?? "?")}`,
  },
};

/** Registers a kind's UI at run time (the client half of registerKind in lib/tasks; tests' fixture kinds). */
export function registerTaskUi(kind: string, ui: TaskUi): void {
  taskUis[kind] = ui;
}

/** The example item of the import page: the first registered kind that gives one, else the first kind with no tags. */
export function importExample(): { kind: string; id: string; tags: Record<string, string | number> } {
  const entries = Object.entries(taskUis);
  const [kind, ui] = entries.find(([, candidate]) => candidate.importExample) ?? entries[0];
  return { kind, ...(ui.importExample ?? { id: "item-001", tags: {} }) };
}

export function getTaskUi(kind: string): TaskUi | null {
  return Object.hasOwn(taskUis, kind) ? taskUis[kind] : null;
}

const loading = createElement("div", { role: "status", "aria-label": "Loading the task", className: "h-full animate-pulse rounded-lg bg-slate-200" });

/** The kind's task UI with a loading placeholder while its code arrives. */
export function TaskView({ ui, ...props }: TaskUiProps & { ui: TaskUi }) {
  return createElement(Suspense, { fallback: loading }, createElement(ui.Component, props));
}
