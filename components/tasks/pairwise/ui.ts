import { lazy } from "react";
import type { Shortcut, TaskUi } from "@/components/tasks/shared/types";
import { stimulusImages } from "@/components/tasks/shared/media/stimulus-images";
import type { PairwisePublic, Preference } from "@/lib/tasks/pairwise";

const load = () => import("@/components/tasks/pairwise/pairwise-task");

type View = Pick<PairwisePublic, "a" | "b" | "dimensions">;

function prefsOf(answer: unknown): Record<string, Preference> {
  const prefs = answer && typeof answer === "object" ? (answer as { prefs?: unknown }).prefs : undefined;
  return prefs && typeof prefs === "object" ? (prefs as Record<string, Preference>) : {};
}

/** The pairwise kind's entry in components/tasks/registry.ts. */
export function pairwiseUi(shortcuts: Shortcut[]): TaskUi {
  return {
    shortcuts,
    Component: lazy(load),
    preload: load,
    images: (view) => [...stimulusImages((view as View).a), ...stimulusImages((view as View).b)],
    candidateName: (view, candidate) => (view as View).dimensions[candidate]?.label ?? `dimension ${candidate + 1}`,
    initialAnswer: () => null,
    answerOf: (answer, view) => {
      const prefs = prefsOf(answer);
      const dimensions = (view as View).dimensions;
      return dimensions.every((d) => prefs[d.id] !== undefined) ? { prefs: Object.fromEntries(dimensions.map((d) => [d.id, prefs[d.id]])) } : null;
    },
    missing: (answer, view) => {
      const prefs = prefsOf(answer);
      const left = (view as View).dimensions.filter((d) => prefs[d.id] === undefined).length;
      return left === 0 ? "" : `Choose 1, 2 or tie for ${left} more ${left === 1 ? "dimension" : "dimensions"}`;
    },
    displayAnswer: (answer) => answer,
    describeAnswer: (answer) =>
      Object.entries(prefsOf(answer))
        .map(([id, value]) => `${id} ${value === "tie" ? "tie" : value.toUpperCase()}`)
        .join(", ") || "no preferences",
  };
}
