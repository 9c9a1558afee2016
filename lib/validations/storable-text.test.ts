import { describe, expect, it } from "vitest";
import { fieldPath, findUnstorableText, unstorableReason } from "@/lib/validations/storable-text";

describe("unstorableReason", () => {
  it("accepts ordinary text, astral characters and paired surrogates", () => {
    for (const text of ["", "apple", "e\u0301", "𝔘𝔫𝔦", "🙂", "\u202e", "\ufeff"]) expect(unstorableReason(text)).toBeNull();
  });
  it("refuses NUL and unpaired surrogates of either half", () => {
    expect(unstorableReason("a\u0000b")).toMatch(/NUL/);
    expect(unstorableReason("\ud800")).toMatch(/unpaired/);
    expect(unstorableReason("\udfff")).toMatch(/unpaired/);
    expect(unstorableReason("x\udc00y")).toMatch(/unpaired/);
    expect(unstorableReason("\ud83d\ud83d\ude42")).toMatch(/unpaired/); // a high surrogate before a pair
  });
});

describe("findUnstorableText", () => {
  it("names the path of the first bad string or key", () => {
    expect(findUnstorableText({ public: { actions: ["ok", "\udfff"] } })).toEqual({
      path: ["public", "actions", 1],
      reason: expect.stringMatching(/unpaired/),
    });
    expect(findUnstorableText({ tags: { "bad\u0000key": 1 } })).toEqual({
      path: ["tags", "bad\u0000key"],
      reason: expect.stringMatching(/^has a key that contains the NUL/),
    });
    expect(findUnstorableText("\u0000")).toEqual({ path: [], reason: expect.any(String) });
    expect(findUnstorableText({ a: [1, null, true, { b: "fine" }] })).toBeNull();
  });
  it("walks 100,000 levels without overflowing the stack", () => {
    let deep: unknown = "\ud800";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep)?.path).toHaveLength(100_000);
  });
  it("agrees with PostgreSQL's jsonb on what JSON.stringify writes", () => {
    // JSON.stringify escapes unpaired surrogates ("\\udfff") and NUL ("\\u0000"): exactly the escapes jsonb refuses
    expect(JSON.stringify("\udfff")).toBe('"\\udfff"');
    expect(JSON.stringify("\u0000")).toBe('"\\u0000"');
  });
});

describe("fieldPath", () => {
  it("joins keys with dots and indexes with brackets", () => {
    expect(fieldPath(["public", "candidates", 2])).toBe("public.candidates[2]");
    expect(fieldPath([0, "a"])).toBe("[0].a");
    expect(fieldPath([])).toBe("");
  });
});
