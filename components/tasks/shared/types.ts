import type { ComponentType } from "react";
/** Props every task UI gets (components/tasks/registry.ts); state and actions come from the annotation store. */
export interface TaskUiProps {
  /** the kind's public view of the item (lib/tasks/<kind>/index.ts publicView) */
  view: unknown;
  /** per-slot notes drawn under the slots: practice feedback, the answer key on review pages */
  slotNotes?: Array<SlotNote | null>;
}

export interface SlotNote {
  tone: "good" | "bad" | "neutral";
  text: string;
}

/** Candidates are lettered (A, B, ...) so that they are not confused with the numbered steps. */
export function letterOf(index: number): string {
  return index < 26 ? String.fromCharCode(65 + index) : `#${index + 1}`;
}

/** One keyboard shortcut listed on the item page. */
export interface Shortcut {
  keys: string;
  action: string;
}

/** What practice feedback shows (TaskUi.feedback): the answer laid out in the task, its notes and the sentence above it. */
export interface PracticeFeedbackView {
  /** the answer the task shows (read-only; laid out through displayAnswer) */
  shown: unknown;
  notes: Array<SlotNote | null>;
  message: string;
}

/** What a kind's practice feedback is made from: the person's answer, the key as an answer of the kind (null when the kind gives none) and whether the answer was right. */
export interface PracticeFeedbackInput {
  answer: unknown;
  key: unknown;
  correct: boolean;
  view: unknown;
}

/** A kind's UI in the client registry (components/tasks/registry.ts): a lazily loaded component plus what the pages need to know about a public view without loading it. */
export interface TaskUi {
  Component: ComponentType<TaskUiProps>;
  /** loads the component's code ahead of time */
  preload(): Promise<unknown>;
  /** every image of the view (to preload the next item) */
  images(view: unknown): string[];
  /** how a candidate is named in the replay timeline, e.g. "image C" */
  candidateName(view: unknown, candidate: number): string;
  /**
   * The answer (or draft) before any of the kind's events (the empty slots, the empty scene form),
   * and the answer to submit from it (null while incomplete).
   */
  initialAnswer(view: unknown): unknown;
  answerOf(answer: unknown, view: unknown): unknown;
  /** what is still missing while answerOf gives null, for the submit bar (default "Answer first") */
  missing?(answer: unknown, view: unknown): string;
  /** the store answer that shows a given answer (the key after a practice item, a replayed answer) */
  displayAnswer?(answer: unknown, view: unknown): unknown;
  /** an answer in a few words (practice feedback, replay) */
  describeAnswer?(answer: unknown): string;
  /**
   * How the `submitted` event carries the answer: `{ answer }` by default; the ordering kinds
   * keep their own form, `{ order }`, in which their stored trajectories are.
   */
  submittedFields?(answer: unknown): { order?: number[]; answer?: Record<string, unknown> };
  /**
   * Practice feedback of its own: the answer to show, its notes and the sentence above it. Without
   * it the feedback shows the key's answer (the person's when right) with a note where
   * `answerPlace` puts each answer.
   */
  feedback?(input: PracticeFeedbackInput): PracticeFeedbackView;
  /** where an answer sits in the task's notes (slotNotes) for the default practice feedback, or null when the task marks none */
  answerPlace?(answer: unknown): number | null;
  /** the notes comparing an answer with the key (the replay's last event), when the task draws them */
  keyNotes?(answer: unknown, key: unknown): Array<SlotNote | null> | undefined;
  /** the replay's final answer (and key), when not in words (describeAnswer) */
  ReplayAnswer?: ComponentType<{ answer: unknown; keyAnswer: unknown }>;
  /** true when the task shows and records the confidence itself (ESI's belief panel): the submit bar then shows none */
  confidenceInTask?: boolean;
  /** the kind's keyboard shortcuts, listed on the item page (components/tasks/<kind>/shortcuts.ts) */
  shortcuts?: Shortcut[];
  /** the item id and tags of the example item line on the import page (the first kind that has one is shown) */
  importExample?: { id: string; tags: Record<string, string | number> };
}

/**
 * What a kind changes on the researchers' item page: `keyInTask`, the key laid out in the task
 * itself (the key as an answer shown through displayAnswer, with notes under its parts from the
 * review view) instead of the item and the key side by side; how an answer and a score read in
 * the responses table (else the answer's JSON, and no score text).
 */
export interface ItemPageView {
  keyInTask?: { title: string; description: string; notes(review: unknown, keyAnswer: unknown): Array<SlotNote | null> };
  /** an answer in one line, or null for the generic JSON */
  answerText?(answer: unknown): string | null;
  scoreText?(score: unknown): string;
}

/** What a kind's panel below the replay player is given (components/tasks/replay-panels.ts): the data of its replay hook (lib/tasks/<kind>/replay.ts). */
export interface ReplayPanelProps {
  slug: string;
  assignmentId: string;
  panel: unknown;
}

/** Where an answer's `choice` sits among lettered notes: its first letter, A = 0 (null without a text choice). */
export function choicePlace(answer: unknown): number | null {
  const choice = answer !== null && typeof answer === "object" ? (answer as { choice?: unknown }).choice : undefined;
  return typeof choice === "string" ? choice.charCodeAt(0) - 65 : null;
}
