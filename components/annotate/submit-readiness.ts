"use client";

import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import type { TaskUi } from "@/components/tasks/shared/types";

/**
 * What a submit bar says is still missing (the kind's own words while its answer is incomplete,
 * then the confidence), and whether the item can be submitted now.
 */
export function useSubmitReadiness(ui: TaskUi, view: unknown): { ready: boolean; missing: string } {
  const hasConfidence = useAnnotationStore((s) => s.confidence !== null);
  const submitted = useAnnotationStore((s) => s.submitted);
  const answerMissing = useAnnotationStore((s) => (s.currentAnswer() === null ? ui.missing?.(s.answer, view) || "Answer first" : ""));
  return { ready: answerMissing === "" && hasConfidence && !submitted, missing: answerMissing || (!hasConfidence ? "Choose your confidence" : "") };
}
