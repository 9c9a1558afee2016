import type { Verdict } from "@/lib/tasks/shared/gridwm/common";
import type { AnswerContext, ChoiceVia } from "@/lib/tasks/shared/gridwm/actions";

/** What Task C's controls record: the one event to dispatch, or null when nothing changes. */

/** A verdict given: `verdict_made` with the one before, unless it is that one already. */
export function judgeEvent(state: AnswerContext, verdict: Verdict, via: ChoiceVia) {
  const previous = (state.answer as { verdict?: Verdict } | null)?.verdict ?? null;
  if (state.submitted || state.readOnly || previous === verdict) return null;
  return { type: "verdict_made" as const, payload: { verdict, previous, via } };
}

/** One frame of the storyboard shown large, unless it is shown already. */
export function zoomFrameEvent(state: { zoomed: string | null; frame: number | null }, image: string, frame: number, via: "click" | "keyboard") {
  if (state.zoomed === image && state.frame === frame) return null;
  return { type: "frame_zoomed" as const, payload: { image, frame, via } };
}
