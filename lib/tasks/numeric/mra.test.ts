import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MRA_POINTS, MRA_THRESHOLDS, linspace, meanRelativeAccuracy } from "@/lib/tasks/numeric/mra";

const fixtures = path.resolve(import.meta.dirname, "../../../tests/fixtures/vsi-mra");
/** [pred, target, MRA] as numpy computed them (tests/fixtures/vsi-mra/generate.py, the release's formula) */
const cases = JSON.parse(readFileSync(path.join(fixtures, "cases.json"), "utf8")) as Array<[number, number, number]>;

function numpyAvailable(): boolean {
  try {
    execFileSync("python3", ["-c", "import numpy"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("VSI-Bench MRA (lmms_eval/tasks/vsibench/utils.py)", () => {
  it("uses ten points: int((.95 - .5) / .05 + 2) with the quotient 8.999999999999998", () => {
    expect((0.95 - 0.5) / 0.05).toBe(8.999999999999998);
    expect(MRA_POINTS).toBe(10);
  });

  it("has numpy.linspace(0.5, 0.95, 10)'s thresholds bit for bit (as numpy 2.4.6 prints them: repr of each float)", () => {
    // python3 -c "import numpy as np; print([repr(float(x)) for x in np.linspace(0.5, 0.95, 10)])"
    expect(MRA_THRESHOLDS).toEqual([0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.8999999999999999, 0.95]);
    // t_i = i * ((0.95 - 0.5) / 9) + 0.5 for i < 9, the last one 0.95
    const step = (0.95 - 0.5) / 9;
    for (let i = 0; i < 9; i++) expect(MRA_THRESHOLDS[i]).toBe(i * step + 0.5);
    expect(linspace(0, 1, 1)).toEqual([0]);
    expect(linspace(2, 3, 2)).toEqual([2, 3]);
  });

  it("gives 0.9 for 11 against 10 (a naive 0.5 + 0.05 i gives 0.8)", () => {
    expect(meanRelativeAccuracy(11, 10)).toBe(0.9);
    const naive = Array.from({ length: 10 }, (_, i) => 0.5 + 0.05 * i).filter((t) => Math.abs(11 - 10) / 10 <= 1 - t).length / 10;
    expect(naive).toBe(0.8);
  });

  it("counts the boundaries as numpy does", () => {
    expect(meanRelativeAccuracy(10, 10)).toBe(1);
    expect(meanRelativeAccuracy(9, 10)).toBe(0.9);
    expect(meanRelativeAccuracy(15, 10)).toBe(0.1); // error 0.5 <= 1 - 0.5
    expect(meanRelativeAccuracy(15.000001, 10)).toBe(0);
    expect(meanRelativeAccuracy(1.15, 1)).toBe(0.8); // 0.1499999999999999 <= 0.15000000000000002
    expect(meanRelativeAccuracy(0, 3)).toBe(0);
    expect(meanRelativeAccuracy(Number.NaN, 3)).toBe(0);
    expect(meanRelativeAccuracy(Infinity, 3)).toBe(0);
  });

  it(`equals numpy on the ${cases.length} stored cases`, () => {
    expect(cases.length).toBeGreaterThan(200);
    for (const [pred, target, expected] of cases) expect(meanRelativeAccuracy(pred, target), `${pred} against ${target}`).toBe(expected);
  });

  it.runIf(numpyAvailable())(
    "equals numpy run now on boundary cases",
    () => {
      const probe: Array<[number, number]> = [
        [11, 10],
        [1.15, 1],
        [0.85, 1],
        [12.5, 10],
        [5.5, 10],
        [1.05, 1],
        [2.7, 3],
        [104.99999999999999, 100],
      ];
      const script = `import json,sys,numpy as np
cases=json.loads(sys.argv[1])
print(json.dumps([float((abs(p-t)/t <= 1-np.linspace(.5,.95,int((.95-.5)/.05+2))).mean()) for p,t in cases]))`;
      const out = JSON.parse(execFileSync("python3", ["-c", script, JSON.stringify(probe)], { encoding: "utf8" })) as number[];
      expect(probe.map(([p, t]) => meanRelativeAccuracy(p, t))).toEqual(out);
    },
    60_000,
  );
});
