"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useAnnotationStore, useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";
import { clipDuration, frameIndexAt, useClock, type Clock, type ClockState } from "@/components/tasks/shared/media/clock";
import { mediaClock, PLAYBACK_RATES, type MediaEventInput, type PlaybackMode } from "@/lib/tasks/shared/media/events";
import type { Media } from "@/lib/tasks/shared/media/schema";

/**
 * The video player of the generic kinds: one clip (a video file, or frames played at `fps`), or a
 * synced pair driven by one set of controls. Every action is a trajectory event
 * (lib/tasks/shared/media/events.ts) recorded through the store's dispatch: play, pause, seek
 * (from, to), speed, end, replay; the page being hidden or the item being left pauses it (via
 * "auto"). Our own controls, never the browser's, so nothing goes unrecorded; videos play muted.
 *
 * Playback rules (the study's `playback` setting): "free"; "once": no seek bar, no replay and no
 * speed control, and a seek by key is reverted and recorded `blocked`; "hide": as free, plus a
 * "Show the question" button that hides the video for good (usePlaybackGate).
 *
 * Keys while the player has focus: Space or K play / pause, ← / → 5 s back / on, Home to the
 * start, R replay, < / > slower / faster. Touch: the same buttons, and the seek bar.
 */

export type PlayerSide = "a" | "b" | "both";
type Via = "click" | "keyboard" | "touch" | "auto";

export const SEEK_STEP_SECONDS = 5;
const SEEK_COMMIT_MS = 250;

export function hasClip(media: Media | undefined): boolean {
  return Boolean(media && (media.video || media.frames));
}

/** Records one media event (nothing in read-only stores; false when refused). */
function useMediaDispatch(): (event: MediaEventInput) => boolean {
  const dispatch = useAnnotationStore((s) => s.dispatch);
  // the media events are in the compiled event union once a kind that spreads them is registered; dispatch checks the payload either way
  return useCallback((event: MediaEventInput) => dispatch(event as unknown as Parameters<typeof dispatch>[0]), [dispatch]);
}

const HAVE_METADATA = 1;

/** The element's length; a stream whose header gives none (Infinity) is as long as its seekable range. */
function elementDuration(element: HTMLVideoElement): number | null {
  if (Number.isFinite(element.duration)) return element.duration;
  const seekable = element.seekable;
  return seekable.length > 0 && Number.isFinite(seekable.end(seekable.length - 1)) ? seekable.end(seekable.length - 1) : null;
}

/** One clip on screen: a video element driven by the clock, or the frame the clock is at. */
function ClipView({ media, index, clock, time, label }: { media: Media; index: number; clock: Clock; time: number; label: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const [videoDuration, setVideoDuration] = useState<number | null>(null);
  const duration = clipDuration(media, videoDuration);
  const { setSource } = clock;
  useEffect(() => {
    setSource(index, { video: media.video ? video.current : null, duration });
  }, [setSource, index, media.video, duration]);
  // a small file's metadata can load before the page is hydrated, its loadedmetadata event gone
  // before React listens: read what the element already knows
  useEffect(() => {
    const element = video.current;
    if (element && element.readyState >= HAVE_METADATA) setVideoDuration(elementDuration(element));
  }, [media.video]);

  const frames = media.frames;
  const fps = media.fps ?? 1;
  const frameIndex = frames ? frameIndexAt(frames.length, fps, time, duration) : 0;
  // preload the next two seconds of frames
  useEffect(() => {
    if (!frames) return;
    for (let i = frameIndex + 1; i < Math.min(frames.length, frameIndex + 1 + Math.ceil(fps * 2)); i++) {
      const image = new Image();
      image.src = frames[i];
    }
  }, [frames, frameIndex, fps]);

  return (
    <div className="relative aspect-video w-full overflow-hidden rounded-md bg-black" data-testid="media-clip">
      {media.video ? (
        <video
          ref={video}
          src={media.video}
          muted
          playsInline
          preload="auto"
          aria-label={label}
          className="h-full w-full object-contain"
          onLoadedMetadata={(event) => setVideoDuration(elementDuration(event.currentTarget))}
          onDurationChange={(event) => setVideoDuration(elementDuration(event.currentTarget))}
        />
      ) : frames ? (
        // eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching
        <img
          src={frames[frameIndex]}
          alt={`${label}, frame ${frameIndex + 1} of ${frames.length}`}
          draggable={false}
          className="h-full w-full object-contain"
          data-frame={frameIndex + 1}
        />
      ) : null}
    </div>
  );
}

function viaOfPointer(event: React.MouseEvent, lastPointer: string | null): Via {
  if (event.detail === 0) return "keyboard";
  return lastPointer === "touch" ? "touch" : "click";
}

export interface PlayerProps {
  /** one clip, or the two of a synced pair (in screen order) */
  clips: Array<{ media: Media; label: string }>;
  /** the side each clip is (pairs: the item's "a" / "b"); absent for a single clip */
  sides?: Array<"a" | "b">;
  mode: PlaybackMode;
  /** "hide" mode: called when the person shows the question (after the pause is recorded) */
  onReveal?: (state: ClockState, via: Via) => void;
  /** the clips sit side by side from this width on (pairs) */
  pairLayout?: boolean;
}

/** A player of one clip or a synced pair, with its controls. */
export function MediaPlayer({ clips, sides, mode, onReveal, pairLayout }: PlayerProps) {
  const log = useMediaDispatch();
  const api = useAnnotationStoreApi();
  // a read-only view (a researcher's item page, a replay) plays the clip and records nothing: the
  // store's dispatch refuses its events
  const readOnly = useAnnotationStore((s) => s.readOnly);
  const side: PlayerSide | undefined = sides ? "both" : undefined;
  const sideField = useMemo(() => (side ? { side } : {}), [side]);
  const onEnded = useCallback(
    (state: ClockState) => {
      log({ type: "media_ended", payload: { time: state.time, duration: state.duration, ...(side ? { side } : {}) } });
    },
    [log, side],
  );
  const [clock, state] = useClock(clips.length, onEnded);
  const lastPointer = useRef<string | null>(null);
  const scrub = useRef<{ from: number; to: number; via: Via; timer: ReturnType<typeof setTimeout> | null } | null>(null);
  // the watch-once rule binds participants, not a researcher looking at the item
  const once = mode === "once" && !readOnly;

  const play = useCallback(
    (via: Via) => {
      const now = clock.now();
      if (now.playing) return;
      const atEnd = now.ended || (now.duration !== null && now.time >= now.duration);
      if (atEnd) {
        if (once) return;
        log({ type: "media_replay", payload: { from: now.time, duration: now.duration, ...sideField, via } });
      } else log({ type: "media_play", payload: { time: now.time, duration: now.duration, rate: now.rate, ...sideField, via } });
      clock.play();
    },
    [clock, log, once, sideField],
  );
  const pause = useCallback(
    (via: Via) => {
      const now = clock.now();
      if (!now.playing) return;
      clock.pause();
      log({ type: "media_pause", payload: { time: now.time, duration: now.duration, ...sideField, via } });
    },
    [clock, log, sideField],
  );
  const seekTo = useCallback(
    (to: number, via: Via) => {
      const now = clock.now();
      const target = Math.max(0, now.duration === null ? to : Math.min(to, now.duration));
      if (Math.abs(target - now.time) < 1e-3) return;
      if (once) {
        log({ type: "media_seek", payload: { from: now.time, to: target, duration: now.duration, ...sideField, via, blocked: true } });
        return;
      }
      clock.seek(target);
      log({ type: "media_seek", payload: { from: now.time, to: target, duration: now.duration, ...sideField, via } });
    },
    [clock, log, once, sideField],
  );
  const changeRate = useCallback(
    (rate: number, via: Via) => {
      const now = clock.now();
      if (once || rate === now.rate) return;
      clock.setRate(rate);
      log({ type: "media_rate", payload: { rate, previous: now.rate, time: now.time, duration: now.duration, ...sideField, via } });
    },
    [clock, log, once, sideField],
  );
  const replay = useCallback(
    (via: Via) => {
      if (once) return;
      const now = clock.now();
      log({ type: "media_replay", payload: { from: now.time, duration: now.duration, ...sideField, via } });
      clock.seek(0);
      clock.play();
    },
    [clock, log, once, sideField],
  );

  // the page hidden, the item submitted or left: a playing clip pauses (recorded, via auto)
  const submitted = useAnnotationStore((s) => s.submitted);
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === "hidden") pause("auto");
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [pause]);
  useEffect(() => {
    if (submitted) pause("auto");
  }, [submitted, pause]);
  const pauseRef = useRef(pause);
  useEffect(() => {
    pauseRef.current = pause;
  });
  useEffect(() => () => pauseRef.current("auto"), []);

  /** the seek bar: the clock follows at once, one seek (first from, last to) is recorded when it rests */
  const scrubTo = (to: number, via: Via) => {
    if (once) return;
    const pending = scrub.current;
    const from = pending ? pending.from : clock.now().time;
    if (pending?.timer) clearTimeout(pending.timer);
    clock.seek(to);
    const timer = setTimeout(() => {
      const done = scrub.current;
      scrub.current = null;
      if (!done || Math.abs(done.to - done.from) < 1e-3) return;
      const now = clock.now();
      log({ type: "media_seek", payload: { from: done.from, to: done.to, duration: now.duration, ...sideField, via: done.via } });
    }, SEEK_COMMIT_MS);
    scrub.current = { from, to, via, timer };
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey || api.getState().zoomed !== null) return;
    const target = event.target as HTMLElement;
    const onButton = target.tagName === "BUTTON" || target.tagName === "SELECT";
    const onRange = target.tagName === "INPUT";
    const now = clock.now();
    const key = event.key;
    let used = true;
    if ((key === " " && !onButton) || key === "k" || key === "K") {
      if (now.playing) pause("keyboard");
      else play("keyboard");
    } else if (key === "ArrowLeft" && !onRange) seekTo(now.time - SEEK_STEP_SECONDS, "keyboard");
    else if (key === "ArrowRight" && !onRange) seekTo(now.time + SEEK_STEP_SECONDS, "keyboard");
    else if (key === "Home" && !onRange) seekTo(0, "keyboard");
    else if (key === "r" || key === "R") replay("keyboard");
    else if (key === "<" || key === ">") {
      const index = PLAYBACK_RATES.indexOf(now.rate as (typeof PLAYBACK_RATES)[number]);
      const next = PLAYBACK_RATES[Math.max(0, Math.min(PLAYBACK_RATES.length - 1, (index < 0 ? 2 : index) + (key === ">" ? 1 : -1)))];
      changeRate(next, "keyboard");
    } else used = false;
    if (used) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const duration = state.duration;
  const atEnd = state.ended || (duration !== null && state.time >= duration && duration > 0);
  const playLabel = state.playing ? "Pause" : atEnd ? (once ? "Watched" : "Replay") : "Play";

  return (
    <div
      role="group"
      aria-label={clips.length > 1 ? "Video pair player" : "Video player"}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onPointerDown={(event) => {
        lastPointer.current = event.pointerType;
      }}
      className="flex flex-col gap-1.5 rounded-lg outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      data-testid="media-player"
      data-mode={mode}
      data-playing={state.playing ? "true" : "false"}
      data-time={state.time.toFixed(2)}
    >
      <div className={pairLayout ? "grid grid-cols-1 gap-2 sm:grid-cols-2" : ""}>
        {clips.map((clip, index) => (
          <figure key={index} className="min-w-0">
            {clips.length > 1 ? <figcaption className="mb-1 text-sm font-semibold text-slate-800">{clip.label}</figcaption> : null}
            <ClipView media={clip.media} index={index} clock={clock} time={state.time} label={clip.label} />
          </figure>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <button
          type="button"
          disabled={atEnd && once && !state.playing}
          onClick={(event) => {
            const via = viaOfPointer(event, lastPointer.current);
            if (state.playing) pause(via);
            else play(via);
          }}
          aria-label={playLabel}
          data-testid="media-play"
          className="min-h-11 min-w-20 rounded-md bg-slate-900 px-3 py-1.5 font-semibold text-white hover:bg-slate-700 disabled:opacity-40"
        >
          {state.playing ? "❚❚ Pause" : atEnd ? (once ? "✓ Watched" : "↻ Replay") : "▶ Play"}
        </button>
        {once ? (
          <div className="flex min-w-32 flex-1 items-center gap-2" aria-label="Progress (watch once: no seeking)">
            <div
              className="h-2 flex-1 overflow-hidden rounded bg-slate-200"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={duration ?? 0}
              aria-valuenow={state.time}
            >
              <div className="h-full bg-brand-600" style={{ width: `${duration ? Math.min(100, (state.time / duration) * 100) : 0}%` }} />
            </div>
          </div>
        ) : (
          <input
            type="range"
            min={0}
            max={duration ?? 0}
            step={0.05}
            value={Math.min(state.time, duration ?? 0)}
            disabled={duration === null}
            aria-label="Seek"
            aria-valuetext={mediaClock(state.time)}
            data-testid="media-seek"
            onChange={(event) => scrubTo(Number(event.target.value), lastPointer.current === "touch" ? "touch" : lastPointer.current ? "click" : "keyboard")}
            onKeyDown={() => {
              lastPointer.current = null;
            }}
            className="min-h-11 min-w-32 flex-1 accent-brand-600"
          />
        )}
        <span className="tabular-nums text-slate-600" data-testid="media-clock">
          {mediaClock(state.time)} / {mediaClock(duration)}
        </span>
        {!once ? (
          <label className="flex items-center gap-1 text-slate-600">
            <span className="sr-only sm:not-sr-only">Speed</span>
            <select
              value={state.rate}
              onChange={(event) => changeRate(Number(event.target.value), lastPointer.current === "touch" ? "touch" : "click")}
              aria-label="Playback speed"
              className="min-h-11 rounded-md border border-slate-300 bg-white px-1 py-1"
            >
              {PLAYBACK_RATES.map((rate) => (
                <option key={rate} value={rate}>
                  {rate}×
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="text-xs text-slate-500">Watch once: no seeking or replay</span>
        )}
        {mode === "hide" && onReveal ? (
          <button
            type="button"
            disabled={readOnly}
            onClick={(event) => {
              const via = viaOfPointer(event, lastPointer.current);
              pause("auto");
              onReveal(clock.now(), via);
            }}
            data-testid="media-reveal"
            className="min-h-11 rounded-md border-2 border-brand-600 px-3 py-1.5 font-semibold text-brand-700 hover:bg-brand-50"
          >
            Show the question (hides the video)
          </button>
        ) : null}
      </div>
    </div>
  );
}
