import { z } from "zod";
import { payloadField } from "@/lib/tasks/shared/event-fields";
import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import type { RecordedEvent } from "@/lib/tasks/types";

/**
 * The video player's trajectory events (components/tasks/shared/media), shared by every generic
 * kind: each kind's events.ts spreads `mediaPayloadSchemas` into its own payload schemas (the
 * same schema objects, so the event registry accepts one event type in several kinds), returns
 * `describeMediaEvent(event)` from its describe, and leaves these events to the next kind in its
 * reduce (they change no answer). Browser-safe.
 *
 * Times are media seconds (the clip's clock: a video's currentTime, a frame folder's frame / fps),
 * `duration` the clip's length after `cutAt` (null while unknown). `side` says which player of a
 * synced pair: "a" or "b" (the item's sides, not the screen's), "both" for the pair's shared
 * controls; absent for a single player.
 */

const mediaTime = z.number().min(0).max(86_400);
const duration = mediaTime.nullable();
const side = z.enum(["a", "b", "both"]).optional();
/** how the action was made: "auto" for the player's own (the page was hidden, the question shown, cutAt reached) */
const mediaVia = z.enum(["click", "keyboard", "touch", "auto"]);
export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;
const rate = z.number().min(0.25).max(4);

export const mediaPayloadSchemas = {
  /** playback started at `time` */
  media_play: z.strictObject({ time: mediaTime, duration, rate, side, via: mediaVia }),
  /** playback stopped at `time` */
  media_pause: z.strictObject({ time: mediaTime, duration, side, via: mediaVia }),
  /** the playhead moved from `from` to `to`; `blocked`: the study's playback rule forbids seeking, the seek was reverted */
  media_seek: z.strictObject({ from: mediaTime, to: mediaTime, duration, side, via: mediaVia, blocked: z.boolean().optional() }),
  /** the playback rate changed at `time` */
  media_rate: z.strictObject({ rate, previous: rate, time: mediaTime, duration, side, via: mediaVia }),
  /** the clip reached its end (or cutAt) at `time` */
  media_ended: z.strictObject({ time: mediaTime, duration, side }),
  /** played again from the start after it ended (`from`: where the playhead was) */
  media_replay: z.strictObject({ from: mediaTime, duration, side, via: mediaVia }),
  /** a synced pair was shown: which of the item's sides is on the left (randomised per person, pairSides) */
  media_sides: z.strictObject({ left: z.enum(["a", "b"]), right: z.enum(["a", "b"]) }),
  /** "hide" rule: the question was shown and the video hidden at `time` */
  media_hidden: z.strictObject({ time: mediaTime, duration, via: mediaVia }),
} as const;

export type MediaEventType = keyof typeof mediaPayloadSchemas;
export type MediaPayload<T extends MediaEventType> = z.infer<(typeof mediaPayloadSchemas)[T]>;
export type MediaEventInput = { [T in MediaEventType]: { type: T; payload: MediaPayload<T> } }[MediaEventType];
export const MEDIA_EVENT_TYPES = Object.keys(mediaPayloadSchemas) as MediaEventType[];

export function isMediaEvent(type: string): type is MediaEventType {
  return Object.hasOwn(mediaPayloadSchemas, type);
}

// ---------------------------------------------------------------------------------------------
// Playback rules per study

export const PLAYBACK_MODES = ["free", "once", "hide"] as const;
export type PlaybackMode = (typeof PLAYBACK_MODES)[number];

/**
 * The study's playback rule, one field each generic kind spreads into its settingsSchema:
 * free re-watching (the default), "once": watch once without seeking (no seek bar, no replay, no
 * rate change; a seek is reverted and logged blocked), "hide": the video is hidden once the person
 * shows the question (the question stays hidden until then).
 */
export const playbackSettingsFields = {
  playback: z
    .enum(PLAYBACK_MODES)
    .default("free")
    .describe("Video playback: free re-watching, once (watch once, no seeking), or hide (the video is hidden once the question shows)"),
};
export const playbackSettingsSchema = z.strictObject(playbackSettingsFields);

/** The playback mode of a kind's settings (Study.taskSettings[kind] as kindSettings parsed it); "free" when absent. */
export function playbackOf(settings: Record<string, unknown> | undefined): PlaybackMode {
  const mode = settings?.playback;
  return (PLAYBACK_MODES as readonly unknown[]).includes(mode) ? (mode as PlaybackMode) : "free";
}

// ---------------------------------------------------------------------------------------------
// Sides of a synced pair

/**
 * Which of the item's sides a person sees on the left: a fair coin seeded from the assignment id
 * (one person, one item), so it is the same on every reload and device, and differs between people.
 */
export function pairSides(seed: string): { left: "a" | "b"; right: "a" | "b" } {
  const left = mulberry32(seedFromString(`pair-sides|${seed}`))() < 0.5 ? "a" : "b";
  return { left, right: left === "a" ? "b" : "a" };
}

// ---------------------------------------------------------------------------------------------
// Watch time and share watched

export interface WatchStats {
  /** seconds of playback: media seconds played divided by the rate in force */
  watchSeconds: number;
  /** the union of the media intervals played over the clip's duration, in [0, 1]; null while no duration was logged */
  shareWatched: number | null;
  /** the last duration logged, seconds */
  duration: number | null;
  plays: number;
  pauses: number;
  seeks: number;
  blockedSeeks: number;
  replays: number;
  rateChanges: number;
  /** the clip reached its end at least once */
  ended: boolean;
  /** the sides' order shown (synced pairs), the last logged */
  left: "a" | "b" | null;
}

const num = (payload: unknown, name: string): number | null => {
  const value = payloadField(payload, name);
  return typeof value === "number" && Number.isFinite(value) ? value : null;
};

/** Sorted union length of intervals clipped to [0, limit]. */
export function unionLength(intervals: ReadonlyArray<readonly [number, number]>, limit: number): number {
  const clipped = intervals
    .map(([a, b]) => [Math.max(0, Math.min(a, limit)), Math.max(0, Math.min(b, limit))] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let start = -1;
  let end = -1;
  for (const [a, b] of clipped) {
    if (a > end) {
      if (end > start) total += end - start;
      start = a;
      end = b;
    } else if (b > end) end = b;
  }
  if (end > start) total += end - start;
  return total;
}

/**
 * Watch time and share watched from one assignment's events, in seq order (other events are
 * skipped). Playback runs from a media_play (or media_replay: from 0) at the rate in force to the
 * next pause, end, seek (`from`; it then continues at `to`) or rate change; a blocked seek moves
 * nothing. A play that no event closes (the tab was closed while playing) adds nothing: the
 * player logs a pause when the page is hidden or the item left. A synced pair has one clock (its
 * shared controls, side "both"), whose duration is the longer clip's.
 * Source: Yardstick's definition: share
 * watched = |union of watched media intervals| / duration.
 */
export function watchStats(events: ReadonlyArray<RecordedEvent>): WatchStats {
  const stats: WatchStats = {
    watchSeconds: 0,
    shareWatched: null,
    duration: null,
    plays: 0,
    pauses: 0,
    seeks: 0,
    blockedSeeks: 0,
    replays: 0,
    rateChanges: 0,
    ended: false,
    left: null,
  };
  const intervals: Array<[number, number]> = [];
  let from: number | null = null;
  let currentRate = 1;
  const close = (at: number | null) => {
    if (from !== null && at !== null && at > from) {
      intervals.push([from, at]);
      stats.watchSeconds += (at - from) / currentRate;
    }
    from = null;
  };
  for (const event of events) {
    if (!isMediaEvent(event.type)) continue;
    const p = event.payload;
    const d = num(p, "duration");
    if (d !== null) stats.duration = d;
    switch (event.type) {
      case "media_play": {
        const at = num(p, "time");
        if (at === null) break;
        close(from === null ? null : at);
        currentRate = num(p, "rate") ?? currentRate;
        from = at;
        stats.plays++;
        break;
      }
      case "media_replay":
        close(num(p, "from"));
        from = 0;
        stats.replays++;
        break;
      case "media_pause":
        close(num(p, "time"));
        stats.pauses++;
        break;
      case "media_ended":
        close(num(p, "time"));
        stats.ended = true;
        break;
      case "media_seek": {
        if (payloadField(p, "blocked") === true) {
          stats.blockedSeeks++;
          break;
        }
        stats.seeks++;
        const to = num(p, "to");
        if (from !== null && to !== null) {
          close(num(p, "from"));
          from = to;
        }
        break;
      }
      case "media_rate": {
        const next = num(p, "rate");
        if (next === null) break;
        stats.rateChanges++;
        if (from !== null) {
          const at: number = num(p, "time") ?? from;
          close(at);
          from = at;
        }
        currentRate = next;
        break;
      }
      case "media_sides": {
        const left = payloadField(p, "left");
        if (left === "a" || left === "b") stats.left = left;
        break;
      }
      default:
        break;
    }
  }
  if (stats.duration !== null && stats.duration > 0) stats.shareWatched = Math.min(1, unionLength(intervals, stats.duration) / stats.duration);
  return stats;
}

// ---------------------------------------------------------------------------------------------
// Replay descriptions

/** m:ss.s */
export function mediaClock(seconds: number | null): string {
  if (seconds === null) return "?";
  const minutes = Math.floor(seconds / 60);
  const rest = seconds - minutes * 60;
  return `${minutes}:${rest.toFixed(1).padStart(4, "0")}`;
}

function sideText(payload: unknown): string {
  const s = payloadField(payload, "side");
  return s === "a" ? " (video A)" : s === "b" ? " (video B)" : s === "both" ? " (both videos)" : "";
}

function viaText(payload: unknown): string {
  const via = payloadField(payload, "via");
  return via === "auto" ? " (by the player)" : typeof via === "string" ? ` (${via})` : "";
}

/** A media event in words for the replay timeline; null for other events. */
export function describeMediaEvent(event: RecordedEvent): string | null {
  if (!isMediaEvent(event.type)) return null;
  const p = event.payload;
  const t = (name: string) => mediaClock(num(p, name));
  switch (event.type) {
    case "media_play":
      return `Played from ${t("time")}${num(p, "rate") !== null && num(p, "rate") !== 1 ? ` at ${num(p, "rate")}×` : ""}${sideText(p)}${viaText(p)}`;
    case "media_pause":
      return `Paused at ${t("time")}${sideText(p)}${viaText(p)}`;
    case "media_seek":
      return payloadField(p, "blocked") === true
        ? `Tried to seek ${t("from")} → ${t("to")}: not allowed (watch once), reverted${sideText(p)}${viaText(p)}`
        : `Sought ${t("from")} → ${t("to")}${sideText(p)}${viaText(p)}`;
    case "media_rate":
      return `Speed ${num(p, "previous") ?? "?"}× → ${num(p, "rate") ?? "?"}× at ${t("time")}${sideText(p)}${viaText(p)}`;
    case "media_ended":
      return `Video ended at ${t("time")}${sideText(p)}`;
    case "media_replay":
      return `Replayed from the start (was at ${t("from")})${sideText(p)}${viaText(p)}`;
    case "media_sides":
      return `Videos shown: ${String(payloadField(p, "left")).toUpperCase()} on the left, ${String(payloadField(p, "right")).toUpperCase()} on the right`;
    case "media_hidden":
      return `Question shown, video hidden at ${t("time")}${viaText(p)}`;
    default:
      return null;
  }
}
