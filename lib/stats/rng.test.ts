import { describe, expect, it } from "vitest";
import { mulberry32, randomInt } from "@/lib/stats/rng";

/**
 * Independent reference: the Mulberry32 C code (Tommy Ettinger, 2017) transcribed with BigInt
 * arithmetic mod 2^32 instead of Math.imul:
 *   z = (x += 0x6D2B79F5); z = (z ^ z >> 15) * (z | 1); z ^= z + (z ^ z >> 7) * (z | 61);
 *   return z ^ z >> 14;
 */
function referenceMulberry32(seed: number, count: number): number[] {
  const M = 1n << 32n;
  let x = BigInt(seed >>> 0);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    x = (x + 0x6d2b79f5n) % M;
    let z = x;
    z = ((z ^ (z >> 15n)) * (z | 1n)) % M;
    z = (z ^ ((z + (z ^ (z >> 7n)) * (z | 61n)) % M)) % M;
    z = z ^ (z >> 14n);
    out.push(Number(z) / 4294967296);
  }
  return out;
}

describe("mulberry32", () => {
  it("matches a BigInt transcription of the reference C code", () => {
    for (const seed of [0, 1, 42, 123456789, 4294967295]) {
      const rng = mulberry32(seed);
      const got = Array.from({ length: 50 }, () => rng());
      expect(got).toEqual(referenceMulberry32(seed, 50));
    }
  });

  it("is in [0, 1) and roughly uniform", () => {
    const rng = mulberry32(2024);
    let sum = 0;
    let outside = 0;
    for (let i = 0; i < 100_000; i++) {
      const u = rng();
      if (!(u >= 0 && u < 1)) outside++;
      sum += u;
    }
    expect(outside).toBe(0);
    // mean of 1e5 uniforms: sd = sqrt(1/12 / 1e5) = 0.0009
    expect(Math.abs(sum / 100_000 - 0.5)).toBeLessThan(0.005);
  });

  it("rejects a non-finite seed", () => {
    expect(() => mulberry32(NaN)).toThrow("mulberry32 requires a finite seed");
  });
});

describe("randomInt", () => {
  it("returns floor(u * n) of the next uniform", () => {
    const a = mulberry32(9);
    const b = mulberry32(9);
    for (let i = 0; i < 100; i++) expect(randomInt(a, 7)).toBe(Math.floor(b() * 7));
  });

  it("rejects n < 1", () => {
    expect(() => randomInt(mulberry32(1), 0)).toThrow("randomInt requires a positive integer n");
  });
});
