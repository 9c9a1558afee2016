"use client";

import { createElement, lazy, Suspense, type ComponentType } from "react";
import type { EnactForwardPublic } from "@/lib/tasks/enact-forward";
import type { EnactInversePublic } from "@/lib/tasks/enact-inverse";
import { letterOf, type TaskUiProps } from "@/components/tasks/shared/types";

/**
 * Task kind -> its UI (DESIGN.md, "The task-kind contract"): a lazily loaded component that reads
 * and changes the annotation store, plus what the pages need to know about a public view without
 * loading it. Adding a benchmark task: a module in lib/tasks/, a folder here, one entry below.
 *
 * React.lazy over one loader function per kind, so that `preload()` fetches exactly the chunk the
 * component will use (a prefetched item of another kind may have to render while offline;
 * next/dynamic compiles its import into a chunk of its own that a plain import() does not warm).
 */
export interface TaskUi {
  Component: ComponentType<TaskUiProps>;
  /** loads the component's code ahead of time */
  preload(): Promise<unknown>;
  /** slots to fill (the answer's length) */
  slotCount(view: unknown): number;
  /** every image of the view (to preload the next item) */
  images(view: unknown): string[];
  /** how a candidate is named in the replay timeline, e.g. "image C" */
  candidateName(view: unknown, candidate: number): string;
}

const loadEnactForward = () => import("@/components/tasks/enact-forward/enact-forward-task");
const loadEnactInverse = () => import("@/components/tasks/enact-inverse/enact-inverse-task");

export const taskUis: Record<string, TaskUi> = {
  "enact-forward": {
    Component: lazy(loadEnactForward),
    preload: loadEnactForward,
    slotCount: (view) => (view as EnactForwardPublic).candidates.length,
    images: (view) => [(view as EnactForwardPublic).initialImage, ...(view as EnactForwardPublic).candidates],
    candidateName: (_view, candidate) => `image ${letterOf(candidate)}`,
  },
  "enact-inverse": {
    Component: lazy(loadEnactInverse),
    preload: loadEnactInverse,
    slotCount: (view) => (view as EnactInversePublic).candidates.length,
    images: (view) => [...(view as EnactInversePublic).observations],
    candidateName: (_view, candidate) => `action ${letterOf(candidate)}`,
  },
};

export function getTaskUi(kind: string): TaskUi | null {
  return Object.hasOwn(taskUis, kind) ? taskUis[kind] : null;
}

const loading = createElement("div", { role: "status", "aria-label": "Loading the task", className: "h-full animate-pulse rounded-lg bg-slate-200" });

/** The kind's task UI with a loading placeholder while its code arrives. */
export function TaskView({ ui, ...props }: TaskUiProps & { ui: TaskUi }) {
  return createElement(Suspense, { fallback: loading }, createElement(ui.Component, props));
}
