/**
 * Time on item from a trajectory: wall time and active time.
 *
 * Active time sums the gaps between consecutive events (in sequence order), each gap capped at
 * the study's idle cap (Study.idleCapSeconds, 60 s by default). Reading an item between two
 * clicks counts, up to the cap; a coffee break counts at most the cap. A gap that starts when the
 * person was away counts nothing: after `page_hidden` (tab hidden, window minimised, page left)
 * until the next event, and after `idle_shown` (the "are you still working?" overlay) until the
 * next event. A gap that ends when a page view starts (`item_shown`, and `submission_reopened`
 * which a page view records just before it) counts nothing either: between the last event of one
 * page view and the start of the next no tab showed the item (closed, reloaded, the browser
 * killed before its `page_hidden` was sent). Gaps with a negative length (the client clock moved
 * back) count nothing.
 *
 * Pure: the browser runs it as events are logged (incrementally, `addToActiveTime`) and the server
 * recomputes it from the stored events (`activeTimeMs`); both give the same number for the same
 * events. O(n) time, O(1) memory.
 */

export interface TimedEvent {
  type: string;
  /** client time in milliseconds since the epoch */
  clientTime: number;
}

/** Event types after which the person is taken to be away: the next gap counts nothing. */
export const AWAY_EVENT_TYPES: ReadonlySet<string> = new Set(["page_hidden", "idle_shown"]);

/** Event types that start a page view of the item: the gap before them counts nothing. */
export const VIEW_START_EVENT_TYPES: ReadonlySet<string> = new Set(["item_shown", "submission_reopened"]);

/** The default idle cap, Study.idleCapSeconds' default, in milliseconds. */
export const DEFAULT_IDLE_CAP_MS = 60_000;

/**
 * The active part of the gap between two consecutive events.
 *
 * @throws RangeError when capMs is negative or not finite
 * @example activeGapMs({ type: "confidence_changed", clientTime: 0 }, { type: "confidence_changed", clientTime: 90_000 }, 60_000) // 60_000
 */
export function activeGapMs(previous: TimedEvent, next: TimedEvent, capMs: number): number {
  if (!Number.isFinite(capMs) || capMs < 0) throw new RangeError(`activeGapMs requires a finite, non-negative cap; got ${capMs}`);
  if (AWAY_EVENT_TYPES.has(previous.type) || VIEW_START_EVENT_TYPES.has(next.type)) return 0;
  const gap = next.clientTime - previous.clientTime;
  if (!Number.isFinite(gap) || gap <= 0) return 0;
  return Math.min(gap, capMs);
}

/**
 * Active time of a whole trajectory, events in sequence order.
 *
 * @example activeTimeMs([{ type: "item_shown", clientTime: 0 }, { type: "submitted", clientTime: 5_000 }], 60_000) // 5_000
 */
export function activeTimeMs(events: readonly TimedEvent[], capMs: number): number {
  let total = 0;
  for (let i = 1; i < events.length; i++) total += activeGapMs(events[i - 1], events[i], capMs);
  return total;
}

/** Wall time: from the first event to the last (0 for fewer than two events or a clock moved back). */
export function wallTimeMs(events: readonly TimedEvent[]): number {
  if (events.length < 2) return 0;
  return Math.max(0, events[events.length - 1].clientTime - events[0].clientTime);
}

/** Running totals, so the browser can add one event at a time (and persist the totals). */
export interface ActiveTimeTally {
  activeMs: number;
  firstTime: number;
  last: TimedEvent;
}

/** The tally after one more event; `tally` null for the first event. */
export function addToActiveTime(tally: ActiveTimeTally | null, event: TimedEvent, capMs: number): ActiveTimeTally {
  if (tally === null) return { activeMs: 0, firstTime: event.clientTime, last: { type: event.type, clientTime: event.clientTime } };
  return {
    activeMs: tally.activeMs + activeGapMs(tally.last, event, capMs),
    firstTime: tally.firstTime,
    last: { type: event.type, clientTime: event.clientTime },
  };
}

/** Wall time of a tally (first event to the last one added). */
export function tallyWallMs(tally: ActiveTimeTally | null): number {
  return tally ? Math.max(0, tally.last.clientTime - tally.firstTime) : 0;
}

/** Study.idleCapSeconds in milliseconds, falling back to the default for nonsense values. */
export function idleCapMs(idleCapSeconds: number | null | undefined): number {
  return typeof idleCapSeconds === "number" && Number.isFinite(idleCapSeconds) && idleCapSeconds > 0 ? idleCapSeconds * 1000 : DEFAULT_IDLE_CAP_MS;
}
