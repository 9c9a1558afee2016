import { stimulusImages } from "@/components/tasks/shared/media/stimulus-images";
import type { ChoiceView } from "@/components/tasks/choice/choice-task";

/** What the pages need to know about a choice view without loading its component (components/tasks/registry.ts). */

const choiceOf = (answer: unknown): string | null => {
  const choice = answer !== null && typeof answer === "object" ? (answer as { choice?: unknown }).choice : undefined;
  return typeof choice === "string" && choice !== "" ? choice : null;
};

export function choiceImages(view: unknown): string[] {
  const v = view as ChoiceView;
  return [...stimulusImages(v.media), ...v.options.flatMap((option) => (option.image ? [option.image] : []))];
}

export function choiceAnswerOf(answer: unknown): { choice: string } | null {
  const choice = choiceOf(answer);
  return choice === null ? null : { choice };
}

export function describeChoiceAnswer(answer: unknown): string {
  const choice = choiceOf(answer);
  return choice === null ? "no option" : `option ${choice}`;
}
