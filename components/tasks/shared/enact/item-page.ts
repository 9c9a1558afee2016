import { orderOf } from "@/lib/tasks/shared/enact/ordering-draft";
import { letterOf, type ItemPageView, type SlotNote } from "@/components/tasks/shared/types";

/**
 * The ordering kinds on the researchers' item page: the key's order laid out in the task's steps,
 * each step noted with the reference change its review view gives (when the key has one); answers
 * as step:letter pairs, scores as correct pairs of L.
 */

interface ReviewStep {
  visibleChange?: string[] | null;
  stepChanges?: string[] | null;
}

function reviewSteps(review: unknown): ReviewStep[] {
  if (!review || typeof review !== "object") return [];
  const record = review as { steps?: ReviewStep[]; transitions?: ReviewStep[] };
  return record.steps ?? record.transitions ?? [];
}

export const orderingItemPage: ItemPageView = {
  keyInTask: {
    title: "The item, with the key's order",
    description: "As annotators see it; the steps hold the right order. Under each step: the reference change (when the key has one).",
    notes(review, keyAnswer) {
      const steps = reviewSteps(review);
      return (orderOf(keyAnswer) ?? []).map((_, i): SlotNote => {
        const changes = steps[i]?.visibleChange ?? steps[i]?.stepChanges ?? null;
        return { tone: "neutral", text: changes && changes.length > 0 ? changes.join(" ") : "key" };
      });
    },
  },
  answerText(answer) {
    const order = orderOf(answer);
    return order ? order.map((c, s) => `${s + 1}:${letterOf(c)}`).join(" ") : null;
  },
  scoreText(score) {
    if (!score || typeof score !== "object") return "";
    const s = score as { correctPairs?: number; L?: number };
    return typeof s.correctPairs === "number" && typeof s.L === "number" ? `${Math.round(s.correctPairs * 100) / 100} / ${s.L} pairs` : "";
  },
};
