import { reduceKindEvent } from "@/lib/tasks/event-registry";
import type { RecordedEvent } from "@/lib/tasks/types";

/**
 * The state of any item as a pure function of its trajectory: what every kind shares (the
 * confidence, the image shown large, visibility, idleness, submission) plus `answer`, the kind's
 * answer or draft, changed only by the kind's own events (its reducer, lib/tasks/<kind>/events.ts).
 *
 * The browser's store applies each event it logs through `applyItemEvent`, resume and replay run
 * `replayItemEvents` over the stored events: what was recorded is what was shown.
 *
 * No React, no database: imported by browser and server code alike.
 */

export interface ItemState {
  /** the kind's answer (or draft); its initial value before the first answer event (null for most kinds) */
  answer: unknown;
  confidence: number | null;
  /** image shown large, if any */
  zoomed: string | null;
  /** the part of the image shown large (a storyboard's frame), set by a kind's event, or null */
  frame: number | null;
  hidden: boolean;
  idle: boolean;
  submitted: boolean;
}

export function initialItemState(answer: unknown = null): ItemState {
  return { answer, confidence: null, zoomed: null, frame: null, hidden: false, idle: false, submitted: false };
}

function field(payload: unknown, name: string): unknown {
  return payload !== null && typeof payload === "object" ? (payload as Record<string, unknown>)[name] : undefined;
}

/** The state after one of the events every kind records (lib/validations/annotate.ts); the same state for any other. */
function applyCommonEvent(state: ItemState, event: RecordedEvent): ItemState {
  switch (event.type) {
    case "confidence_changed": {
      const value = field(event.payload, "value");
      return typeof value === "number" ? { ...state, confidence: value } : state;
    }
    case "image_zoomed": {
      const image = field(event.payload, "image");
      return typeof image === "string" ? { ...state, zoomed: image, frame: null } : { ...state, frame: null };
    }
    case "image_closed":
      return { ...state, zoomed: null, frame: null };
    case "page_hidden":
      return { ...state, hidden: true };
    case "page_visible":
      return { ...state, hidden: false };
    case "idle_shown":
      return { ...state, idle: true };
    case "idle_dismissed":
      return { ...state, idle: false };
    case "submitted":
      return { ...state, submitted: true };
    case "submission_reopened":
      // a submission whose answer never reached the server: answering again (lib/annotate/assignment-view.ts)
      return { ...state, submitted: false };
    case "item_shown":
      // a fresh render: no lightbox, the page is visible
      return { ...state, zoomed: null, frame: null, hidden: false, idle: false };
    default:
      return state;
  }
}

/**
 * The state after one event; unknown or malformed events leave it unchanged. The events every kind
 * records are applied first; then the kinds' reducers are asked (lib/tasks/event-registry.ts), for
 * their own events and for what a common event does to their draft (a drag let go on submission).
 */
export function applyItemEvent(state: ItemState, event: RecordedEvent): ItemState {
  const common = applyCommonEvent(state, event);
  return reduceKindEvent(common, event) ?? common;
}

export function replayItemEvents(
  events: readonly RecordedEvent[],
  initialAnswer: unknown = null,
  from: ItemState = initialItemState(initialAnswer),
): ItemState {
  return events.reduce(applyItemEvent, from);
}
