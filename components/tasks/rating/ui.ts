import { lazy } from "react";
import type { Shortcut, TaskUi } from "@/components/tasks/shared/types";
import { stimulusImages } from "@/components/tasks/shared/media/stimulus-images";
import type { RatingPublic, RatingValue } from "@/lib/tasks/rating";

const load = () => import("@/components/tasks/rating/rating-task");

type View = Pick<RatingPublic, "media" | "rubric">;

function ratingsOf(answer: unknown): Record<string, RatingValue> {
  const ratings = answer && typeof answer === "object" ? (answer as { ratings?: unknown }).ratings : undefined;
  return ratings && typeof ratings === "object" ? (ratings as Record<string, RatingValue>) : {};
}

/** The rating kind's entry in components/tasks/registry.ts. */
export function ratingUi(shortcuts: Shortcut[]): TaskUi {
  return {
    shortcuts,
    importExample: { id: "wmb-001", tags: { model: "gen-a" } },
    Component: lazy(load),
    preload: load,
    images: (view) => stimulusImages((view as View).media),
    candidateName: (view, candidate) => (view as View).rubric[candidate]?.label ?? `entry ${candidate + 1}`,
    initialAnswer: () => null,
    answerOf: (answer, view) => {
      const ratings = ratingsOf(answer);
      const rubric = (view as View).rubric;
      return rubric.every((entry) => ratings[entry.id] !== undefined)
        ? { ratings: Object.fromEntries(rubric.map((entry) => [entry.id, ratings[entry.id]])) }
        : null;
    },
    missing: (answer, view) => {
      const ratings = ratingsOf(answer);
      const left = (view as View).rubric.filter((entry) => ratings[entry.id] === undefined).length;
      return left === 0 ? "" : `Rate ${left} more rubric ${left === 1 ? "entry" : "entries"}`;
    },
    displayAnswer: (answer) => answer,
    describeAnswer: (answer) =>
      Object.entries(ratingsOf(answer))
        .map(([id, value]) => `${id} ${String(value)}`)
        .join(", ") || "no ratings",
  };
}
