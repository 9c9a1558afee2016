import { describe, expect, it } from "vitest";
import { wrapLabel } from "@/components/charts/line-chart";

describe("wrapLabel (category ticks of the line charts)", () => {
  it("puts words on lines of about 14 characters, never splitting a word", () => {
    expect(wrapLabel("Enumerative Perception")).toEqual(["Enumerative", "Perception"]);
    expect(wrapLabel("Spatial Relations")).toEqual(["Spatial", "Relations"]);
    expect(wrapLabel("big red cup")).toEqual(["big red cup"]);
    expect(wrapLabel("Supercalifragilistic")).toEqual(["Supercalifragilistic"]);
    expect(wrapLabel("")).toEqual([""]);
  });
});
