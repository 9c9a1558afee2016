"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import type { Media } from "@/lib/tasks/shared/media/schema";

/**
 * The player's clock (browser only): one clock per player or synced pair, in media seconds. It
 * advances with performance.now() at the playback rate while playing, and holds while a video it
 * drives is waiting for data; the videos follow it (their currentTime is corrected when it drifts
 * more than DRIFT_SECONDS) and frames are derived from it (frame = floor(time * fps)). The clock
 * ends at the longest source's end (each source's own end is min(its length, cutAt)).
 */

export const DRIFT_SECONDS = 0.3;

/** A clip's own length in seconds after cutAt: frames / fps, or the video's (null until its metadata loads). */
export function clipDuration(media: Media, videoDuration: number | null): number | null {
  const length = media.frames && media.fps ? media.frames.length / media.fps : videoDuration;
  if (length === null || !Number.isFinite(length)) return null;
  return media.cutAt !== undefined ? Math.min(length, media.cutAt) : length;
}

/** The frame (0-based) shown at clock time `time` of a clip of frames whose length is `duration` (after cutAt): the frame playing at that instant, never one past the cut. */
export function frameIndexAt(frameCount: number, fps: number, time: number, duration: number | null): number {
  return Math.max(0, Math.min(frameCount - 1, Math.floor(Math.min(time, duration ?? Infinity) * fps - 1e-9)));
}

export interface ClockSource {
  /** a video element to drive (null for frames, or before it is mounted) */
  video: HTMLVideoElement | null;
  /** the source's length in seconds after cutAt; null while unknown (video metadata not loaded) */
  duration: number | null;
}

export interface ClockState {
  time: number;
  playing: boolean;
  rate: number;
  /** reached the end (stays true until played again or sought) */
  ended: boolean;
  /** the clock's length (the longest source), null while a source's is unknown */
  duration: number | null;
}

/** The clock's controls: one stable object for the player's life. */
export interface Clock {
  /** the current state without waiting for a render (event payloads) */
  now(): ClockState;
  play(): void;
  pause(): void;
  seek(to: number): void;
  setRate(rate: number): void;
  /** register a source's video and duration (index = position in the pair) */
  setSource(index: number, source: ClockSource): void;
}

/** The clock itself (plain TypeScript, outside React): useClock holds one per player. */
export class MediaClock implements Clock {
  private sources: ClockSource[];
  private live: ClockState = { time: 0, playing: false, rate: 1, ended: false, duration: null };
  private snapshot: ClockState = { ...this.live };
  private listeners = new Set<() => void>();
  private frame = 0;
  private last = 0;
  private shownTick = -1;
  private onEnded: (state: ClockState) => void = () => undefined;

  setOnEnded(onEnded: (state: ClockState) => void): void {
    this.onEnded = onEnded;
  }

  constructor(sourceCount: number) {
    this.sources = Array.from({ length: sourceCount }, () => ({ video: null, duration: null }));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      this.last = performance.now();
      this.frame = requestAnimationFrame(this.tick);
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) cancelAnimationFrame(this.frame);
    };
  };

  getSnapshot = (): ClockState => this.snapshot;

  private publish(): void {
    this.snapshot = { ...this.live };
    for (const listener of this.listeners) listener();
  }

  private durationOf(): number | null {
    let longest = 0;
    for (const source of this.sources) {
      if (source.duration === null) return null;
      longest = Math.max(longest, source.duration);
    }
    return longest;
  }

  /** each video to the clock's time and play state (paused past its own end) */
  private syncVideos(force: boolean): void {
    const { time, playing, rate } = this.live;
    for (const source of this.sources) {
      const video = source.video;
      if (!video) continue;
      const end = source.duration ?? Infinity;
      const target = Math.min(time, end);
      if (video.playbackRate !== rate) video.playbackRate = rate;
      if (force || Math.abs(video.currentTime - target) > DRIFT_SECONDS) {
        try {
          video.currentTime = target;
        } catch {
          // not seekable yet: the next tick tries again
        }
      }
      const shouldPlay = playing && time < end;
      if (shouldPlay && video.paused) void video.play().catch(() => undefined);
      else if (!shouldPlay && !video.paused) video.pause();
    }
  }

  private tick = (now: number): void => {
    const dt = (now - this.last) / 1000;
    this.last = now;
    const clock = this.live;
    if (clock.playing) {
      const waiting = this.sources.some((source) => source.video && clock.time < (source.duration ?? Infinity) && source.video.readyState < 3);
      if (!waiting) clock.time += dt * clock.rate;
      const duration = this.durationOf();
      clock.duration = duration;
      if (duration !== null && clock.time >= duration) {
        clock.time = duration;
        clock.playing = false;
        clock.ended = true;
        this.syncVideos(false);
        this.publish();
        this.onEnded({ ...clock });
      } else {
        this.syncVideos(false);
        // the screen follows at 20 steps a second (frames at up to 20 fps exactly; the videos play on their own)
        const step = Math.floor(clock.time * 20);
        if (step !== this.shownTick) {
          this.shownTick = step;
          this.publish();
        }
      }
    }
    this.frame = requestAnimationFrame(this.tick);
  };

  now = (): ClockState => ({ ...this.live, duration: this.durationOf() });

  play = (): void => {
    const clock = this.live;
    if (clock.ended || (clock.duration !== null && clock.time >= clock.duration)) clock.time = 0;
    clock.ended = false;
    clock.playing = true;
    this.syncVideos(true);
    this.publish();
  };

  pause = (): void => {
    this.live.playing = false;
    this.syncVideos(false);
    this.publish();
  };

  seek = (to: number): void => {
    const duration = this.durationOf();
    this.live.time = Math.max(0, duration === null ? to : Math.min(to, duration));
    this.live.ended = false;
    this.syncVideos(true);
    this.publish();
  };

  setRate = (rate: number): void => {
    this.live.rate = rate;
    this.syncVideos(false);
    this.publish();
  };

  setSource = (index: number, source: ClockSource): void => {
    const previous = this.sources[index];
    if (previous && previous.video === source.video && previous.duration === source.duration) return;
    this.sources[index] = source;
    this.live.duration = this.durationOf();
    this.syncVideos(true);
    this.publish();
  };
}

export function useClock(sourceCount: number, onEnded: (state: ClockState) => void): [Clock, ClockState] {
  const [clock] = useState(() => new MediaClock(sourceCount));
  useEffect(() => {
    clock.setOnEnded(onEnded);
  }, [clock, onEnded]);
  const state = useSyncExternalStore(clock.subscribe, clock.getSnapshot, clock.getSnapshot);
  return [clock, state];
}
