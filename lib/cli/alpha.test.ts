import { describe, expect, it } from "vitest";
import { KRIPPENDORFF_2011 } from "@/lib/stats/__fixtures__/krippendorff-2011";
import { runAlphaCommand } from "@/lib/cli/alpha";
import { krippendorffAlphaBootstrap } from "@/lib/stats/krippendorff-alpha-bootstrap";
import { reliabilityMatrixToUnits } from "@/lib/stats/krippendorff-alpha";
import { mulberry32 } from "@/lib/stats/rng";

const paper = JSON.stringify({ data: KRIPPENDORFF_2011 });

describe("runAlphaCommand", () => {
  it("prints alpha, units and pairable values for the Krippendorff 2011 example", () => {
    // Krippendorff 2011: nominal 0.743 (exactly 1 - 312/1216), 11 pairable units, n = 40.
    const out = runAlphaCommand(["--level", "nominal"], paper);
    expect(out).not.toContain("\n");
    const parsed = JSON.parse(out);
    expect(Object.keys(parsed)).toEqual(["alpha", "units", "pairable"]);
    expect(parsed.alpha).toBeCloseTo(1 - 312 / 1216, 12);
    expect(parsed.units).toBe(11);
    expect(parsed.pairable).toBe(40);
    expect(JSON.parse(runAlphaCommand(["--level=ordinal"], paper)).alpha.toFixed(3)).toBe("0.815");
    expect(JSON.parse(runAlphaCommand(["--level", "interval"], paper)).alpha.toFixed(3)).toBe("0.849");
    expect(JSON.parse(runAlphaCommand(["--level", "ratio"], paper)).alpha.toFixed(3)).toBe("0.797");
  });

  it("adds a unit-resampling bootstrap CI, seed 1 by default", () => {
    const out = JSON.parse(runAlphaCommand(["--level", "ordinal", "--bootstrap", "500"], paper));
    const expected = krippendorffAlphaBootstrap(reliabilityMatrixToUnits(KRIPPENDORFF_2011), "ordinal", mulberry32(1), {
      resamples: 500,
    });
    expect(out.ci).toEqual(expected.ci);
    const seeded = JSON.parse(runAlphaCommand(["--level", "ordinal", "--bootstrap", "500", "--seed", "2"], paper));
    expect(seeded.ci).not.toEqual(out.ci);
    expect(seeded.alpha).toBe(out.alpha);
  });

  it("accepts string values for nominal data", () => {
    const out = JSON.parse(
      runAlphaCommand(
        ["--level", "nominal"],
        JSON.stringify({
          data: [
            ["a", "b", null],
            ["a", "b", "c"],
          ],
        }),
      ),
    );
    expect(out.alpha).toBe(1);
    expect(out.units).toBe(2);
  });

  it("prints alpha null with a reason when alpha is undefined", () => {
    const out = JSON.parse(
      runAlphaCommand(
        ["--level", "nominal", "--bootstrap", "10"],
        JSON.stringify({
          data: [
            [1, 1],
            [1, 1],
          ],
        }),
      ),
    );
    expect(out.alpha).toBeNull();
    expect(out.ci).toBeNull();
    expect(out.reason).toMatch(/expected disagreement is 0/);
  });

  it("names the field at fault", () => {
    const run =
      (input: unknown, args = ["--level", "nominal"]) =>
      () =>
        runAlphaCommand(args, JSON.stringify(input));
    expect(
      run({
        data: [
          [1, true],
          [1, 2],
        ],
      }),
    ).toThrow("data[0][1]: expected a number, a string or null");
    expect(run({ data: [[1, 2]] })).toThrow("data: expected at least 2 coder rows");
    expect(run({ data: "x" })).toThrow("data: expected an array of coder rows");
    expect(run({ data: [[1, 2], 3] })).toThrow("data[1]: expected an array of values");
    expect(run({})).toThrow("data: expected an array of coder rows");
    expect(run([1])).toThrow('input: expected a JSON object like {"data": [[...], ...]}');
    expect(run({ data: [[1], [2]], extra: 1 })).toThrow('input: unknown field "extra"');
    expect(run({ data: [[1, 2], [1]] })).toThrow("data[1]: expected 2 units like data[0], got 1");
    expect(
      run(
        {
          data: [
            ["a", "b"],
            ["a", "c"],
          ],
        },
        ["--level", "interval"],
      ),
    ).toThrow('data: krippendorffAlpha requires numbers for the interval level (got "a" in unit 0)');
    expect(() => runAlphaCommand(["--level", "nominal"], "{not json")).toThrow(/^input: not valid JSON/);
  });

  it("validates the arguments", () => {
    expect(() => runAlphaCommand([], paper)).toThrow(/--level is required/);
    expect(() => runAlphaCommand(["--level", "cardinal"], paper)).toThrow(/--level is required and must be one of/);
    expect(() => runAlphaCommand(["--level", "nominal", "--bootstrap", "0"], paper)).toThrow(/--bootstrap must be a whole number/);
    expect(() => runAlphaCommand(["--level", "nominal", "--bootstrap", "1.5"], paper)).toThrow(/--bootstrap must be a whole number/);
    expect(() => runAlphaCommand(["--level", "nominal", "--seed", "abc"], paper)).toThrow(/--seed must be a whole number/);
    expect(() => runAlphaCommand(["--level"], paper)).toThrow(/--level needs a value/);
    expect(() => runAlphaCommand(["--level", "nominal", "--foo"], paper)).toThrow(/unknown argument --foo/);
    expect(() => runAlphaCommand(["--level", "nominal", "--level", "ordinal"], paper)).toThrow(/--level is given twice/);
  });
});
