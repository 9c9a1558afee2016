import { describe, expect, it } from "vitest";
import { shorten } from "@/components/charts/range-chart";

describe("shorten", () => {
  it("keeps a label that fits", () => {
    expect(shorten("Ada Lovelace", 24)).toBe("Ada Lovelace");
  });

  it("cuts in the middle, so that labels sharing a long start stay apart", () => {
    const labels = ["0001", "0002", "0003"].map((end) => shorten(`Prolific participant 5f8e2a1c9b7d4e3f6a0b${end}`, 24));
    expect(new Set(labels).size).toBe(3);
    for (const label of labels) expect(label.length).toBeLessThanOrEqual(24);
    expect(labels[0]).toMatch(/^Prolific .*….*0001$/);
  });
});
