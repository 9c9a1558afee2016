import { describe, expect, it } from "vitest";
import { describeEvent, formatClock, formatDuration } from "@/components/replay/describe-event";

describe("describeEvent", () => {
  const name = (c: number) => `image ${String.fromCharCode(65 + c)}`;
  it("names candidates and 1-based steps", () => {
    expect(describeEvent({ type: "slot_filled", payload: { slot: 1, candidate: 2, fromSlot: null, replaced: 0, via: "drag" } }, name)).toBe(
      "image C → step 2, replacing image A (drag)",
    );
    expect(describeEvent({ type: "slot_filled", payload: { slot: 0, candidate: 2, fromSlot: 3, replaced: null, via: "keyboard" } }, name)).toBe(
      "image C → step 1 (moved from step 4) (keyboard)",
    );
    expect(describeEvent({ type: "slots_swapped", payload: { from: 0, to: 2, fromCandidate: 1, toCandidate: 0, via: "touch" } }, name)).toBe(
      "Swapped steps 1 and 3 (touch)",
    );
    expect(describeEvent({ type: "confidence_changed", payload: { value: 70, previous: 40 } }, name, true)).toBe("Confidence 70% (was 40%)");
    expect(describeEvent({ type: "unknown_type", payload: {} })).toBe("unknown_type");
  });
  it("describes the GridWM events", () => {
    expect(describeEvent({ type: "choice_made", payload: { choice: "C", previous: "A", via: "keyboard" } })).toBe("Chose C (was A) (keyboard)");
    expect(describeEvent({ type: "verdict_made", payload: { verdict: "Fail", previous: null, via: "click" } })).toBe("Verdict Fail (click)");
    expect(describeEvent({ type: "frame_zoomed", payload: { image: "/x", frame: 2, via: "click" } })).toBe("Opened frame 3 of the storyboard large (click)");
    expect(describeEvent({ type: "scene_edited", payload: { op: "set", path: "agent.pos", value: [3, 4], via: "click" } })).toBe(
      "Set agent.pos = [3,4] (click)",
    );
    expect(
      describeEvent({
        type: "scene_edited",
        payload: { op: "add", path: "objects", value: { type: "door", pos: [5, 5], color: "yellow", state: 2 }, via: "click" },
      }),
    ).toBe("Added a yellow door at [5, 5] (state 2) (click)");
    expect(describeEvent({ type: "scene_edited", payload: { op: "remove", path: "objects.0", value: null, via: "click" } })).toBe("Removed object #1 (click)");
    expect(describeEvent({ type: "image_zoomed", payload: { image: "/x", role: "storyboard", index: 0 } })).toBe("Opened the whole storyboard large");
  });
  it("formats times", () => {
    expect(formatClock(65_300)).toBe("1:05.3");
    expect(formatDuration(4200)).toBe("4.2 s");
    expect(formatDuration(185_000)).toBe("3 min 5 s");
  });
});
