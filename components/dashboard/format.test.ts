import { describe, expect, it } from "vitest";
import { duration, fixed, interval, pct, pctInterval, share } from "@/components/dashboard/format";

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

  it("writes durations", () => {
    expect(duration(850)).toBe("850 ms");
    expect(duration(12_345)).toBe("12.3 s");
    expect(duration(95_000)).toBe("1 min 35 s");
  });
});
