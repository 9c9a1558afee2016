import { describe, expect, it } from "vitest";
import { duration, fixed, interval, pct, pctInterval, pValueText, share } from "@/components/dashboard/format";

describe("research number formats", () => {
  it("writes percentages, intervals and alphas like the ENACT paper", () => {
    expect(pct(0.903846)).toBe("90.38");
    expect(pct(null)).toBe("–");
    expect(pctInterval([0.851, 0.9404])).toBe("[85.1, 94.0]");
    expect(fixed(0.83201)).toBe("0.8320");
    expect(interval([0.78791, 0.86824])).toBe("[0.7879, 0.8682]");
    expect(share(184, 240, "item")).toBe("184 of 240 items (76.67%)");
    expect(share(0, 0, "item")).toBe("0 of 0 items");
  });

  it("never writes a zero-width interval, and says why there is none", () => {
    expect(interval([0.4343, 0.4343])).toBe("n/a (no spread)");
    expect(interval([0.4343, 0.4343], 4, "one item")).toBe("n/a (one item)");
    expect(pctInterval([0.5, 0.5])).toBe("n/a (no spread)");
    expect(pctInterval(null, 1, "one item")).toBe("n/a (one item)");
    expect(pctInterval(null, 1, "no spread: every item the same")).toBe("n/a (no spread: every item the same)");
    expect(interval(null, 4, "one item")).toBe("n/a (one item)");
    expect(pctInterval(null)).toBe("");
  });

  it("writes a bootstrap p that is only bounded as p<1/B, never p=0", () => {
    expect(pValueText(1 / 1000, true)).toBe("p<0.001");
    expect(pValueText(1 / 200, true)).toBe("p<0.005");
    expect(pValueText(0.0421, false)).toBe("p=0.042");
  });

  it("writes durations", () => {
    expect(duration(850)).toBe("850 ms");
    expect(duration(12_345)).toBe("12.3 s");
    expect(duration(95_000)).toBe("1 min 35 s");
  });
});
