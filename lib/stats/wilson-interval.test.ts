import { describe, expect, it } from "vitest";
import { wilsonInterval } from "@/lib/stats/wilson-interval";

describe("wilsonInterval", () => {
  it("5 of 10 (hand, z = 1.96): centre 0.5, half 1.96/1.38416 * sqrt(0.025 + 3.8416/400) = 0.263410", () => {
    const w = wilsonInterval(5, 10);
    expect(w.estimate).toBe(0.5);
    expect(w.lower).toBeCloseTo(0.2365896, 6);
    expect(w.upper).toBeCloseTo(0.7634104, 6);
  });

  it("matches R prop.test(5, 10, correct = FALSE)$conf.int = 0.2365931 0.7634069 with z = qnorm(0.975)", () => {
    const w = wilsonInterval(5, 10, 1.959963984540054);
    expect(w.lower).toBeCloseTo(0.2365931, 6);
    expect(w.upper).toBeCloseTo(0.7634069, 6);
  });

  it("0 of 10 (hand): lower 0, upper 2 * 0.19208 / 1.38416 = 0.277540", () => {
    const w = wilsonInterval(0, 10);
    expect(w.lower).toBe(0);
    expect(w.upper).toBeCloseTo(0.2775402, 6);
  });

  it("ENACT perfect agreement 184 of 240 (hand): [0.70921, 0.81572]", () => {
    // p = 0.766667, z^2/n = 0.016007; centre = 0.774670 / 1.016007 = 0.762465;
    // half = 1.929121 * sqrt(0.000745370 + 0.0000166736) = 0.053254.
    const w = wilsonInterval(184, 240);
    expect(w.lower).toBeCloseTo(0.70921, 4);
    expect(w.upper).toBeCloseTo(0.81572, 4);
  });

  it("10 of 10 has upper 1", () => {
    const w = wilsonInterval(10, 10);
    expect(w.upper).toBe(1);
    expect(w.lower).toBeCloseTo(0.7224598, 6);
  });

  it("rejects bad counts", () => {
    expect(() => wilsonInterval(0, 0)).toThrow("wilsonInterval requires at least 1 trial");
    expect(() => wilsonInterval(11, 10)).toThrow(/successes to be an integer from 0 to trials/);
  });
});
