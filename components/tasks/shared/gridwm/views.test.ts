import { describe, expect, it } from "vitest";
import { frameCrop, letterOfKey } from "@/components/tasks/shared/gridwm/views";

describe("letterOfKey", () => {
  it("reads 1-4 and a-d / A-D", () => {
    expect(["1", "2", "3", "4", "a", "B", "c", "D"].map(letterOfKey)).toEqual(["A", "B", "C", "D", "A", "B", "C", "D"]);
    expect(["5", "0", "e", "Enter", "ArrowUp", " "].map(letterOfKey)).toEqual([null, null, null, null, null, null]);
  });
});

describe("frameCrop", () => {
  it("places each of the 8 frames of a 4 x 2 storyboard", () => {
    expect(frameCrop(0)).toEqual({ backgroundSize: "400% 200%", backgroundPosition: "0% 0%" });
    expect(frameCrop(3).backgroundPosition).toBe("100% 0%");
    expect(frameCrop(5).backgroundPosition).toBe(`${100 / 3}% 100%`);
    expect(frameCrop(7).backgroundPosition).toBe("100% 100%");
  });
});
