import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clipDuration, frameIndexAt, MediaClock, type ClockState } from "@/components/tasks/shared/media/clock";

/**
 * `cutAt` ends a clip early: the player's clock stops at the cut for a video and for
 * frames, the video is paused there, and no frame past the cut is shown. The clock is driven here
 * by a stand-in for the browser's animation frames (the unit tests run in node, without a DOM).
 */

let pending: FrameRequestCallback | null = null;
let now = 0;

beforeEach(() => {
  pending = null;
  now = 0;
  vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => {
    pending = callback;
    return 1;
  });
  vi.stubGlobal("cancelAnimationFrame", () => {
    pending = null;
  });
  vi.spyOn(performance, "now").mockImplementation(() => now);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Animation frames of `stepMs` each, for `totalMs`; returns the clock states seen after each. */
function run(clock: MediaClock, totalMs: number, stepMs = 1000 / 60): ClockState[] {
  const seen: ClockState[] = [];
  for (let elapsed = 0; elapsed < totalMs; elapsed += stepMs) {
    now += stepMs;
    const callback = pending;
    pending = null;
    callback?.(now);
    seen.push(clock.now());
  }
  return seen;
}

/** What the clock does to a video element: where it puts it, whether it plays it. */
function fakeVideo() {
  const video = {
    currentTime: 0,
    playbackRate: 1,
    paused: true,
    readyState: 4,
    plays: 0,
    play() {
      video.paused = false;
      video.plays++;
      return Promise.resolve();
    },
    pause() {
      video.paused = true;
    },
  };
  return video;
}

function started(sources: Array<{ video: ReturnType<typeof fakeVideo> | null; duration: number | null }>) {
  const clock = new MediaClock(sources.length);
  const ended: ClockState[] = [];
  clock.setOnEnded((state) => ended.push(state));
  sources.forEach((source, index) => clock.setSource(index, { video: source.video as unknown as HTMLVideoElement | null, duration: source.duration }));
  const unsubscribe = clock.subscribe(() => undefined);
  return { clock, ended, unsubscribe };
}

describe("a clip's length after cutAt", () => {
  it("is min(length, cutAt): a video's once its metadata is known, frames' from their count and fps", () => {
    expect(clipDuration({ video: "v.webm", cutAt: 2.4 }, null)).toBeNull();
    expect(clipDuration({ video: "v.webm", cutAt: 2.4 }, 4)).toBe(2.4);
    expect(clipDuration({ video: "v.webm", cutAt: 9 }, 4)).toBe(4);
    expect(clipDuration({ video: "v.webm" }, 4)).toBe(4);
    const frames = Array.from({ length: 16 }, (_, i) => `f${i}.png`);
    expect(clipDuration({ frames, fps: 8 }, null)).toBe(2);
    expect(clipDuration({ frames, fps: 8, cutAt: 1.75 }, null)).toBe(1.75);
  });
});

describe("the player's clock stops at cutAt", () => {
  it("for a video: time stops at the cut, the video is paused there and ended is recorded once", () => {
    const video = fakeVideo();
    const duration = clipDuration({ video: "demo-ball.webm", cutAt: 2.4 }, 4);
    const { clock, ended } = started([{ video, duration }]);
    clock.play();
    expect(video.paused).toBe(false);
    const seen = run(clock, 3_500);
    expect(Math.max(...seen.map((state) => state.time))).toBe(2.4);
    expect(clock.now()).toMatchObject({ time: 2.4, playing: false, ended: true, duration: 2.4 });
    expect(video.paused).toBe(true);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ time: 2.4, duration: 2.4 });
    // more frames change nothing; a seek past the cut lands on it; play again starts over from 0
    run(clock, 500);
    expect(clock.now().time).toBe(2.4);
    expect(video.paused).toBe(true);
    clock.seek(3.5);
    expect(clock.now().time).toBe(2.4);
    expect(video.currentTime).toBe(2.4);
    clock.play();
    expect(clock.now()).toMatchObject({ time: 0, playing: true, ended: false });
    expect(video.currentTime).toBe(0);
  });

  it("for frames: time stops at the cut and no frame past it is shown", () => {
    const frames = Array.from({ length: 16 }, (_, i) => `f${i}.png`);
    const duration = clipDuration({ frames, fps: 8, cutAt: 1.75 }, null);
    const { clock, ended } = started([{ video: null, duration }]);
    clock.play();
    const seen = run(clock, 3_000);
    expect(clock.now()).toMatchObject({ time: 1.75, playing: false, ended: true });
    expect(ended).toHaveLength(1);
    const shown = seen.map((state) => frameIndexAt(frames.length, 8, state.time, duration));
    // 1.75 s at 8 fps: the 14th frame (index 13) is the last one shown; 15 and 16 never are
    expect(Math.max(...shown)).toBe(13);
    expect(shown.at(-1)).toBe(13);
    // without the cut the same frames play to the last one
    expect(frameIndexAt(frames.length, 8, 2, clipDuration({ frames, fps: 8 }, null))).toBe(15);
  });

  it("in a pair: the cut clip stops (its video paused) while the clock runs on to the longer clip's end", () => {
    const video = fakeVideo();
    const frames = Array.from({ length: 16 }, (_, i) => `f${i}.png`);
    const { clock, ended } = started([
      { video, duration: clipDuration({ video: "a.webm", cutAt: 1 }, 4) },
      { video: null, duration: clipDuration({ frames, fps: 8 }, null) },
    ]);
    clock.play();
    run(clock, 1_500);
    expect(clock.now()).toMatchObject({ playing: true, ended: false });
    expect(clock.now().time).toBeGreaterThan(1);
    expect(video.paused).toBe(true);
    run(clock, 1_000);
    expect(clock.now()).toMatchObject({ time: 2, playing: false, ended: true, duration: 2 });
    expect(ended).toHaveLength(1);
    expect(video.plays).toBe(1);
  });

  it("waits for a video's metadata: no length and no end before it is known", () => {
    const video = fakeVideo();
    const { clock, ended } = started([{ video, duration: clipDuration({ video: "v.webm", cutAt: 0.5 }, null) }]);
    clock.play();
    run(clock, 1_000);
    expect(clock.now()).toMatchObject({ playing: true, ended: false, duration: null });
    clock.setSource(0, { video: video as unknown as HTMLVideoElement, duration: clipDuration({ video: "v.webm", cutAt: 0.5 }, 4) });
    run(clock, 100);
    expect(clock.now()).toMatchObject({ time: 0.5, playing: false, ended: true, duration: 0.5 });
    expect(ended).toHaveLength(1);
  });
});
