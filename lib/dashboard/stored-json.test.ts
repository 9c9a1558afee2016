import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { decodeStoredView, encodeStoredView } from "@/lib/dashboard/stored-json";

describe("stored dashboard views' JSON", () => {
  it("gives back dates, NaN, infinities, -0, maps and sets, nested anywhere", () => {
    const value = {
      models: [{ id: "run", createdAt: new Date("2026-11-27T10:00:00.123Z"), predictions: 3 }],
      figures: { alpha: NaN, high: Infinity, low: -Infinity, zero: -0, plain: 0.1 + 0.2, none: null },
      byCell: new Map<string, unknown>([
        ["a", { at: new Date(0) }],
        ["b", [1, -0]],
      ]),
      tags: new Set(["left", "right"]),
      list: [new Date(5), NaN, { deep: new Map([[1, new Set([Infinity])]]) }],
    };
    const back = decodeStoredView<typeof value>(encodeStoredView(value))!;
    expect(isDeepStrictEqual(back, value)).toBe(true);
    expect(back.models[0].createdAt).toBeInstanceOf(Date);
    expect(Object.is(back.figures.zero, -0)).toBe(true);
  });

  it("leaves ordinary JSON as JSON, undefined keys left out as JSON leaves them", () => {
    const value = { a: 1, b: "x", c: [true, null], d: undefined };
    expect(JSON.parse(encodeStoredView(value)).view).toEqual(JSON.parse(JSON.stringify(value)));
    expect(decodeStoredView(encodeStoredView(value))).toEqual({ a: 1, b: "x", c: [true, null] });
  });

  it("reads no text of another format (a view stored by an older version is computed again)", () => {
    expect(decodeStoredView(JSON.stringify({ models: [{ createdAt: "2026-11-27T10:00:00.000Z" }] }))).toBeNull();
    expect(decodeStoredView(JSON.stringify({ format: 1, view: {} }))).toBeNull();
  });
});
