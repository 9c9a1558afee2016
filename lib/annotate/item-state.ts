import { applyOrderingEvent, initialOrderingState, type OrderingEventLike, type OrderingState } from "@/lib/annotate/ordering-state";
import { applySceneEdit, isSceneDraft, type SceneEditOp } from "@/lib/annotate/scene-form";
import { LETTERS, VERDICTS } from "@/lib/tasks/gridwm-common";

/**
 * The state of any item as a pure function of its trajectory: the ordering state of slot-filling
 * kinds (ENACT; lib/annotate/ordering-state.ts, unchanged) plus `answer`, the answer (or draft) of
 * every other kind, changed only by answer events:
 * - `choice_made` (GridWM Task A): answer = { choice };
 * - `verdict_made` (GridWM Task C): answer = { verdict };
 * - `scene_edited` (GridWM Task B): answer = the scene draft after the edit (lib/annotate/scene-form.ts);
 * and `frame`, the storyboard frame shown large (`frame_zoomed`).
 *
 * The browser's store applies each event it logs through `applyItemEvent`, resume and replay run
 * `replayItemEvents` over the stored events: what was recorded is what was shown.
 */

export interface ItemState extends OrderingState {
  /** the kind's answer (or draft) for non-ordering kinds; null before the first answer event */
  answer: unknown;
  /** the frame of a storyboard shown large (with `zoomed` = the storyboard), or null */
  frame: number | null;
}

export function initialItemState(length: number, answer: unknown = null): ItemState {
  return { ...initialOrderingState(length), answer, frame: null };
}

function field(payload: unknown, name: string): unknown {
  return payload !== null && typeof payload === "object" ? (payload as Record<string, unknown>)[name] : undefined;
}

/** The state after one event; unknown or malformed events leave it unchanged. */
export function applyItemEvent(state: ItemState, event: OrderingEventLike): ItemState {
  const p = event.payload;
  switch (event.type) {
    case "choice_made": {
      const choice = field(p, "choice");
      return (LETTERS as readonly unknown[]).includes(choice) ? { ...state, answer: { choice } } : state;
    }
    case "verdict_made": {
      const verdict = field(p, "verdict");
      return (VERDICTS as readonly unknown[]).includes(verdict) ? { ...state, answer: { verdict } } : state;
    }
    case "scene_edited": {
      if (!isSceneDraft(state.answer)) return state;
      const op = field(p, "op");
      const path = field(p, "path");
      if ((op !== "set" && op !== "add" && op !== "remove") || typeof path !== "string") return state;
      const answer = applySceneEdit(state.answer, { op: op as SceneEditOp, path, value: field(p, "value") });
      return answer === state.answer ? state : { ...state, answer };
    }
    case "frame_zoomed": {
      const image = field(p, "image");
      const frame = field(p, "frame");
      return typeof image === "string" && Number.isInteger(frame) ? { ...state, zoomed: image, frame: frame as number } : state;
    }
    case "image_zoomed":
    case "image_closed":
    case "item_shown":
      return { ...(applyOrderingEvent(state, event) as ItemState), frame: null };
    default:
      return applyOrderingEvent(state, event) as ItemState;
  }
}

export function replayItemEvents(length: number, events: readonly OrderingEventLike[], initialAnswer: unknown = null, from: ItemState = initialItemState(length, initialAnswer)): ItemState {
  return events.reduce(applyItemEvent, from);
}
