import { describe, expect, it } from "vitest";
import { alphaCoincidences, type AlphaLevel, type AlphaValue } from "@/lib/stats/alpha-coincidences";
import {
  addAlphaCoincidenceSums,
  AlphaCoincidencesBuilder,
  alphaCoincidenceSumsOfUnits,
  alphaCoincidencesOfSums,
  alphaCoincidencesOfUnits,
} from "@/lib/stats/alpha-unit-subset";
import { alphaFromCoincidences, krippendorffAlphaFromUnits } from "@/lib/stats/krippendorff-alpha";
import { mulberry32 } from "@/lib/stats/rng";

describe("alphaCoincidencesOfUnits", () => {
  const levels: AlphaLevel[] = ["nominal", "ordinal", "interval", "ratio"];
  for (const level of levels) {
    it(`gives the alpha of any subset of units as the subset's own computation does (${level}, random data)`, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const random = mulberry32(seed);
        const distinct = 1 + Math.floor(random() * 7);
        const units: Array<Array<AlphaValue | null>> = Array.from({ length: 5 + Math.floor(random() * 60) }, () =>
          Array.from({ length: 1 + Math.floor(random() * 5) }, () => (random() < 0.1 ? null : Math.floor(random() * distinct) * 1.5)),
        );
        const all = alphaCoincidences(units, level, { perUnit: true });
        const pairable = units.map((unit) => unit.filter((v) => v !== null).length >= 2);
        const pairableIndex: number[] = [];
        let p = 0;
        for (const ok of pairable) pairableIndex.push(ok ? p++ : -1);
        for (let trial = 0; trial < 5; trial++) {
          const chosen = units.map((_, u) => u).filter(() => random() < 0.5);
          const want = krippendorffAlphaFromUnits(
            chosen.map((u) => units[u]),
            level,
          );
          const ids = chosen.map((u) => pairableIndex[u]).filter((x) => x >= 0);
          // the whole, and the sums of two disjoint parts of it added up
          const half = ids.filter(() => random() < 0.5);
          const sums = alphaCoincidenceSumsOfUnits(all, half);
          addAlphaCoincidenceSums(
            sums,
            alphaCoincidenceSumsOfUnits(
              all,
              ids.filter((id) => !half.includes(id)),
            ),
          );
          for (const got of [alphaFromCoincidences(alphaCoincidencesOfUnits(all, ids)), alphaFromCoincidences(alphaCoincidencesOfSums(all, sums))]) {
            expect(got.n).toBe(want.n);
            expect(got.units).toBe(want.units);
            expect(got.reason).toBe(want.reason);
            if (want.alpha === null) expect(got.alpha).toBeNull();
            else expect(Math.abs(got.alpha! - want.alpha)).toBeLessThan(1e-12);
          }
        }
      }
    });
  }

  it("refuses coincidences without per-unit parts and unit ids out of range", () => {
    const units = [
      [1, 1],
      [1, 2],
    ];
    expect(() => alphaCoincidencesOfUnits(alphaCoincidences(units, "nominal"), [0])).toThrow(/perUnit/);
    expect(() => alphaCoincidencesOfUnits(alphaCoincidences(units, "nominal", { perUnit: true }), [2])).toThrow(/not one of the 2/);
  });
});

describe("AlphaCoincidencesBuilder", () => {
  for (const level of ["nominal", "ordinal", "interval", "ratio"] as AlphaLevel[]) {
    it(`gives the alpha of units given by value index as krippendorffAlphaFromUnits does (${level}, random data)`, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const random = mulberry32(100 + seed);
        const distinct = 1 + Math.floor(random() * 6);
        const units: number[][] = Array.from({ length: 3 + Math.floor(random() * 50) }, () =>
          Array.from({ length: 1 + Math.floor(random() * 5) }, () => Math.floor(random() * distinct) * 2),
        );
        const template = alphaCoincidences(units, level);
        const index = new Map(template.values.map((v, i) => [v, i]));
        // a random part of every unit (the same values as a subset of coders would leave)
        const parts = units.map((unit) => unit.filter(() => random() < 0.7));
        const builder = new AlphaCoincidencesBuilder(template);
        // two-value units through addPair (the pairwise alphas' path), the others through add
        const pairBuilder = new AlphaCoincidencesBuilder(template);
        for (const part of parts) {
          const known = part.filter((v) => index.has(v)).map((v) => index.get(v)!);
          builder.add(known);
          if (known.length === 2) pairBuilder.addPair(known[0], known[1]);
          else pairBuilder.add(known);
        }
        expect(pairBuilder.finish()).toEqual(builder.finish());
        const want = krippendorffAlphaFromUnits(
          parts.map((part) => part.filter((v) => index.has(v))),
          level,
        );
        const got = alphaFromCoincidences(builder.finish());
        expect(got.n).toBe(want.n);
        expect(got.units).toBe(want.units);
        expect(got.reason).toBe(want.reason);
        if (want.alpha === null) expect(got.alpha).toBeNull();
        else expect(Math.abs(got.alpha! - want.alpha)).toBeLessThan(1e-12);
      }
    });
  }
});
