import { events as choiceEvents } from "@/lib/tasks/choice/events";
import { events as ego2worldPlayEvents } from "@/lib/tasks/ego2world-play/events";
import { events as enactForwardEvents } from "@/lib/tasks/enact-forward/events";
import { events as enactInverseEvents } from "@/lib/tasks/enact-inverse/events";
import { events as esiExploreEvents } from "@/lib/tasks/esi-explore/events";
import { events as exploreSceneEvents } from "@/lib/tasks/explore-scene/events";
import { events as gridwmJudgeEvents } from "@/lib/tasks/gridwm-judge/events";
import { events as gridwmNextObsEvents } from "@/lib/tasks/gridwm-next-obs/events";
import { events as gridwmSceneJsonEvents } from "@/lib/tasks/gridwm-scene-json/events";
import { events as ratingEvents } from "@/lib/tasks/rating/events";
import { events as pairwiseEvents } from "@/lib/tasks/pairwise/events";
import { events as numericEvents } from "@/lib/tasks/numeric/events";
import { events as freeTextEvents } from "@/lib/tasks/free-text/events";
import { events as freeTextGradeEvents } from "@/lib/tasks/free-text-grade/events";
import type { DraftState, EventDescribeContext, KindEvents, RecordedEvent } from "@/lib/tasks/types";

/**
 * The browser-safe half of the task-kind registry (lib/tasks/index.ts holds the modules): each
 * kind's events (lib/tasks/<kind>/events.ts). The event map, the item reducer and the replay
 * description loop over it; a unit test checks that both halves list the same kinds.
 */
const registered = {
  "enact-forward": enactForwardEvents,
  "enact-inverse": enactInverseEvents,
  "gridwm-next-obs": gridwmNextObsEvents,
  "gridwm-scene-json": gridwmSceneJsonEvents,
  "gridwm-judge": gridwmJudgeEvents,
  "explore-scene": exploreSceneEvents,
  "esi-explore": esiExploreEvents,
  "ego2world-play": ego2worldPlayEvents,
  rating: ratingEvents,
  pairwise: pairwiseEvents,
  choice: choiceEvents,
  numeric: numericEvents,
  "free-text": freeTextEvents,
  "free-text-grade": freeTextGradeEvents,
} as const;

type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;

/** Every registered kind's event payload schemas in one map (event type -> schema). */
export type KindPayloadSchemas = UnionToIntersection<(typeof registered)[keyof typeof registered]["payloadSchemas"]>;

const kindEvents = new Map<string, KindEvents>(Object.entries(registered));
let version = 0;

/** Changes whenever a kind is registered at run time (for caches of what is built from the registry). */
export function kindEventsVersion(): number {
  return version;
}

/** The events of every registered kind, in registration order. */
export function registeredKindEvents(): ReadonlyArray<[kind: string, events: KindEvents]> {
  return [...kindEvents];
}

/** The events half of a kind registered at run time (lib/tasks registerKind). */
export function registerKindEvents(kind: string, events: KindEvents): void {
  kindEvents.set(kind, events);
  version += 1;
}

/** Each kind's payload schemas merged (kinds of one family share their events). */
export function kindPayloadSchemas(): Record<string, KindEvents["payloadSchemas"][string]> {
  return Object.assign({}, ...[...kindEvents.values()].map((events) => events.payloadSchemas));
}

export const staticKindPayloadSchemas = kindPayloadSchemas() as KindPayloadSchemas;

/** The state after one event as the first kind that claims it reduces it; null when none does. */
export function reduceKindEvent<S extends DraftState>(state: S, event: RecordedEvent): S | null {
  for (const events of kindEvents.values()) {
    const change = events.reduce?.(state, event);
    if (!change) continue;
    const changed = (Object.keys(change) as Array<keyof DraftState>).some((key) => change[key] !== state[key]);
    return changed ? { ...state, ...change } : state;
  }
  return null;
}

/** A kind's event in words, null when no kind describes it. */
export function describeKindEvent(event: RecordedEvent, context: EventDescribeContext): string | null {
  for (const events of kindEvents.values()) {
    const text = events.describe?.(event, context);
    if (text !== null && text !== undefined) return text;
  }
  return null;
}
