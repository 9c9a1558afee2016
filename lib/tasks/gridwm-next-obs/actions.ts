import type { Letter } from "@/lib/tasks/shared/gridwm/common";
import type { AnswerContext, ChoiceVia } from "@/lib/tasks/shared/gridwm/actions";

/** What the answer controls of Task A record: the one event to dispatch, or null when nothing changes. */

/** A candidate letter chosen: `choice_made` with the one chosen before, unless it is that one already. */
export function chooseEvent(state: AnswerContext, choice: Letter, via: ChoiceVia) {
  const previous = (state.answer as { choice?: Letter } | null)?.choice ?? null;
  if (state.submitted || state.readOnly || previous === choice) return null;
  return { type: "choice_made" as const, payload: { choice, previous, via } };
}
