import { describe, expect, it } from "vitest";
import {
  describeMediaEvent,
  mediaPayloadSchemas,
  pairSides,
  playbackOf,
  playbackSettingsSchema,
  unionLength,
  watchStats,
} from "@/lib/tasks/shared/media/events";
import { watchFigures } from "@/lib/tasks/shared/media/watch-figures";

const e = (type: string, payload: Record<string, unknown>) => ({ type, payload });

describe("unionLength", () => {
  it("merges overlapping stretches and clips them to the clip", () => {
    expect(
      unionLength(
        [
          [0, 2],
          [1, 3],
          [5, 6],
        ],
        10,
      ),
    ).toBe(4);
    expect(
      unionLength(
        [
          [4, 12],
          [0, 1],
        ],
        8,
      ),
    ).toBe(5);
    expect(
      unionLength(
        [
          [2, 2],
          [3, 1],
        ],
        8,
      ),
    ).toBe(0);
    expect(unionLength([], 8)).toBe(0);
  });
});

describe("watchStats", () => {
  it("counts a straight watch to the end as the whole clip", () => {
    const s = watchStats([e("item_shown", {}), e("media_play", { time: 0, duration: 8, rate: 1, via: "click" }), e("media_ended", { time: 8, duration: 8 })]);
    expect(s.watchSeconds).toBe(8);
    expect(s.shareWatched).toBe(1);
    expect(s.ended).toBe(true);
    expect(s.plays).toBe(1);
  });

  it("splits playback at a seek, counts watch time at the rate in force, and unions rewatched stretches", () => {
    const s = watchStats([
      e("media_play", { time: 0, duration: 10, rate: 1, via: "click" }),
      e("media_seek", { from: 4, to: 2, duration: 10, via: "keyboard" }), // watched 0-4
      e("media_rate", { rate: 2, previous: 1, time: 3, duration: 10, via: "click" }), // watched 2-3 at 1x
      e("media_pause", { time: 5, duration: 10, via: "click" }), // watched 3-5 at 2x: 1 s
    ]);
    expect(s.watchSeconds).toBeCloseTo(4 + 1 + 1, 12);
    expect(s.shareWatched).toBeCloseTo(0.5, 12); // union 0-5 of 10
    expect(s.seeks).toBe(1);
    expect(s.rateChanges).toBe(1);
    expect(s.pauses).toBe(1);
  });

  it("moves nothing for a blocked seek, restarts at 0 on replay, and adds nothing for a play never closed", () => {
    const s = watchStats([
      e("media_play", { time: 0, duration: 6, rate: 1, via: "click" }),
      e("media_seek", { from: 2, to: 5, duration: 6, via: "keyboard", blocked: true }),
      e("media_ended", { time: 6, duration: 6 }),
      e("media_replay", { from: 6, duration: 6, via: "click" }),
      e("media_pause", { time: 1.5, duration: 6, via: "auto" }),
      e("media_play", { time: 1.5, duration: 6, rate: 1, via: "click" }),
    ]);
    expect(s.watchSeconds).toBe(7.5);
    expect(s.shareWatched).toBe(1);
    expect(s.blockedSeeks).toBe(1);
    expect(s.seeks).toBe(0);
    expect(s.replays).toBe(1);
  });

  it("has no share without a duration, and reads the sides shown", () => {
    const s = watchStats([
      e("media_sides", { left: "b", right: "a" }),
      e("media_play", { time: 0, duration: null, rate: 1, via: "click" }),
      e("media_pause", { time: 2, duration: null, via: "click" }),
    ]);
    expect(s.shareWatched).toBeNull();
    expect(s.watchSeconds).toBe(2);
    expect(s.left).toBe("b");
  });
});

describe("watchFigures", () => {
  it("averages per item over people and pools over every answer", () => {
    const full = [e("media_play", { time: 0, duration: 4, rate: 1, via: "click" }), e("media_ended", { time: 4, duration: 4 })];
    const half = [e("media_play", { time: 0, duration: 4, rate: 1, via: "click" }), e("media_pause", { time: 2, duration: 4, via: "click" })];
    const f = watchFigures(
      [
        { itemId: "i1", events: full },
        { itemId: "i1", events: half },
        { itemId: "i2", events: [] },
      ],
      [
        { id: "i1", externalId: "one" },
        { id: "i2", externalId: "two" },
        { id: "i3", externalId: "three" },
      ],
    );
    expect(f.items[0]).toMatchObject({ people: 2, watchSeconds: 3, shareWatched: 0.75, ended: 1 });
    expect(f.items[1]).toMatchObject({ people: 1, watchSeconds: 0, shareWatched: null });
    expect(f.items[2]).toMatchObject({ people: 0, watchSeconds: null });
    expect(f.pooled).toEqual({ people: 3, watchSeconds: 2, shareWatched: 0.75 });
  });
});

describe("media payloads", () => {
  it("take the player's events and refuse out-of-range ones", () => {
    expect(mediaPayloadSchemas.media_seek.safeParse({ from: 1, to: 2, duration: 8, side: "both", via: "touch" }).success).toBe(true);
    expect(mediaPayloadSchemas.media_seek.safeParse({ from: -1, to: 2, duration: 8, via: "touch" }).success).toBe(false);
    expect(mediaPayloadSchemas.media_rate.safeParse({ rate: 16, previous: 1, time: 0, duration: 8, via: "click" }).success).toBe(false);
    expect(mediaPayloadSchemas.media_play.safeParse({ time: 0, duration: 8, rate: 1, via: "click", extra: 1 }).success).toBe(false);
  });

  it("are described for the replay", () => {
    expect(describeMediaEvent(e("media_seek", { from: 65.25, to: 3, duration: 80, via: "keyboard" }))).toBe("Sought 1:05.3 → 0:03.0 (keyboard)");
    expect(describeMediaEvent(e("media_seek", { from: 2, to: 5, duration: 8, via: "keyboard", blocked: true }))).toMatch(/not allowed/);
    expect(describeMediaEvent(e("media_sides", { left: "b", right: "a" }))).toBe("Videos shown: B on the left, A on the right");
    expect(describeMediaEvent(e("page_hidden", {}))).toBeNull();
  });
});

describe("playback rule and sides", () => {
  it("defaults to free and reads a study's mode", () => {
    expect(playbackSettingsSchema.parse({})).toEqual({ playback: "free" });
    expect(playbackSettingsSchema.safeParse({ playback: "twice" }).success).toBe(false);
    expect(playbackOf({ playback: "once" })).toBe("once");
    expect(playbackOf({ playback: 3 })).toBe("free");
    expect(playbackOf(undefined)).toBe("free");
  });

  it("puts A on the left for about half the people, the same for one assignment every time", () => {
    const lefts = Array.from({ length: 2000 }, (_, i) => pairSides(`assignment-${i}`).left);
    const share = lefts.filter((left) => left === "a").length / lefts.length;
    expect(share).toBeGreaterThan(0.45);
    expect(share).toBeLessThan(0.55);
    expect(pairSides("x")).toEqual(pairSides("x"));
    const { left, right } = pairSides("y");
    expect(new Set([left, right])).toEqual(new Set(["a", "b"]));
  });
});
