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

/** A kind's UI in the client registry (components/tasks/registry.ts): a lazily loaded component plus what the pages need to know about a public view without loading it. */
export interface TaskUi {
  Component: ComponentType<TaskUiProps>;
  /** loads the component's code ahead of time */
  preload(): Promise<unknown>;
  /** ordering kinds: slots to fill (the answer's length) */
  slotCount?(view: unknown): number;
  /** every image of the view (to preload the next item) */
  images(view: unknown): string[];
  /** how a candidate is named in the replay timeline, e.g. "image C" */
  candidateName(view: unknown, candidate: number): string;
  /**
   * Non-ordering kinds (GridWM): the answer (or draft) before any answer event, the answer to
   * submit from it (null while incomplete), and what is still missing, for the submit bar.
   */
  initialAnswer?(view: unknown): unknown;
  answerOf?(answer: unknown, view: unknown): unknown;
  missing?(answer: unknown, view: unknown): string;
  /** the store answer that shows a given answer (the key after a practice item, a replayed answer) */
  displayAnswer?(answer: unknown, view: unknown): unknown;
  /** an answer in a few words (practice feedback, replay) */
  describeAnswer?(answer: unknown): string;
  /** true when the task shows and records the confidence itself (ESI's belief panel): the submit bar then shows none */
  confidenceInTask?: boolean;
  /** the kind's keyboard shortcuts, listed on the item page (components/tasks/<kind>/shortcuts.ts) */
  shortcuts?: Shortcut[];
  /** the item id and tags of the example item line on the import page (the first kind that has one is shown) */
  importExample?: { id: string; tags: Record<string, string | number> };
}
