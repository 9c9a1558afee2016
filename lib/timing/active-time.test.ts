import { describe, expect, it } from "vitest";
import {
  activeGapMs,
  activeTimeMs,
  addToActiveTime,
  idleCapMs,
  tallyWallMs,
  wallTimeMs,
  type ActiveTimeTally,
  type TimedEvent,
} from "@/lib/timing/active-time";

const cap = 60_000;
const at = (type: string, seconds: number): TimedEvent => ({ type, clientTime: 1_700_000_000_000 + seconds * 1000 });

describe("activeGapMs", () => {
  it("counts a short gap fully", () => {
    expect(activeGapMs(at("slot_filled", 0), at("slot_filled", 12), cap)).toBe(12_000);
  });
  it("caps a long gap (a coffee break counts at most the cap)", () => {
    expect(activeGapMs(at("slot_filled", 0), at("slot_filled", 1800), cap)).toBe(60_000);
  });
  it("counts nothing after the page was hidden or the idle overlay was shown", () => {
    expect(activeGapMs(at("page_hidden", 0), at("page_visible", 30), cap)).toBe(0);
    expect(activeGapMs(at("idle_shown", 0), at("idle_dismissed", 30), cap)).toBe(0);
  });
  it("counts nothing when the clock moved back", () => {
    expect(activeGapMs(at("slot_filled", 10), at("slot_filled", 5), cap)).toBe(0);
  });
  it("counts nothing before a page view starts: no tab showed the item since the last event", () => {
    // the tab was closed (or the browser killed) without a page_hidden reaching the trajectory
    expect(activeGapMs(at("slot_filled", 0), at("item_shown", 45), cap)).toBe(0);
    expect(activeGapMs(at("submitted", 0), at("submission_reopened", 30), cap)).toBe(0);
    expect(activeGapMs(at("item_shown", 0), at("slot_filled", 12), cap)).toBe(12_000);
  });
  it("refuses a negative cap", () => {
    expect(() => activeGapMs(at("a", 0), at("b", 1), -1)).toThrow(RangeError);
  });
});

describe("activeTimeMs", () => {
  it("is 0 for no events or one event", () => {
    expect(activeTimeMs([], cap)).toBe(0);
    expect(activeTimeMs([at("item_shown", 0)], cap)).toBe(0);
  });

  it("sums capped gaps and skips away spells", () => {
    const events = [
      at("item_shown", 0),
      at("candidate_picked", 20), // 20 s of reading
      at("slot_filled", 22), // 2 s
      at("page_hidden", 30), // 8 s
      at("page_visible", 600), // away: 0
      at("slot_filled", 700), // 100 s, capped at 60 s
      at("idle_shown", 760), // 60 s (the overlay shows at the cap)
      at("idle_dismissed", 2000), // away: 0
      at("confidence_changed", 2005), // 5 s
      at("submitted", 2006), // 1 s
    ];
    expect(activeTimeMs(events, cap)).toBe((20 + 2 + 8 + 60 + 60 + 5 + 1) * 1000);
    expect(wallTimeMs(events)).toBe(2006_000);
  });

  it("uses the study's cap", () => {
    const events = [at("item_shown", 0), at("slot_filled", 45)];
    expect(activeTimeMs(events, 30_000)).toBe(30_000);
    expect(activeTimeMs(events, 60_000)).toBe(45_000);
  });

  it("agrees with the incremental tally", () => {
    const events = [at("item_shown", 0), at("slot_filled", 3), at("page_hidden", 4), at("page_visible", 400), at("slot_cleared", 500), at("submitted", 501)];
    let tally: ActiveTimeTally | null = null;
    for (const event of events) tally = addToActiveTime(tally, event, cap);
    expect(tally?.activeMs).toBe(activeTimeMs(events, cap));
    expect(tallyWallMs(tally)).toBe(wallTimeMs(events));
    expect(tallyWallMs(null)).toBe(0);
  });
});

describe("idleCapMs", () => {
  it("turns seconds into milliseconds and falls back to 60 s", () => {
    expect(idleCapMs(90)).toBe(90_000);
    expect(idleCapMs(0)).toBe(60_000);
    expect(idleCapMs(null)).toBe(60_000);
  });
});
