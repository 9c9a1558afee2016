import { describe, expect, it } from "vitest";
import { describeEvent, formatClock, formatDuration } from "@/components/replay/describe-event";

describe("describeEvent", () => {
  const name = (c: number) => `image ${String.fromCharCode(65 + c)}`;
  it("names candidates and 1-based steps", () => {
    expect(describeEvent({ type: "slot_filled", payload: { slot: 1, candidate: 2, fromSlot: null, replaced: 0, via: "drag" } }, name)).toBe("image C → step 2, replacing image A (drag)");
    expect(describeEvent({ type: "slot_filled", payload: { slot: 0, candidate: 2, fromSlot: 3, replaced: null, via: "keyboard" } }, name)).toBe("image C → step 1 (moved from step 4) (keyboard)");
    expect(describeEvent({ type: "slots_swapped", payload: { from: 0, to: 2, fromCandidate: 1, toCandidate: 0, via: "touch" } }, name)).toBe("Swapped steps 1 and 3 (touch)");
    expect(describeEvent({ type: "confidence_changed", payload: { value: 70, previous: 40 } }, name, true)).toBe("Confidence 70% (was 40%)");
    expect(describeEvent({ type: "unknown_type", payload: {} })).toBe("unknown_type");
  });
  it("formats times", () => {
    expect(formatClock(65_300)).toBe("1:05.3");
    expect(formatDuration(4200)).toBe("4.2 s");
    expect(formatDuration(185_000)).toBe("3 min 5 s");
  });
});
