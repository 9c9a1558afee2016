import { describe, expect, it } from "vitest";
import { taskKinds } from "@/lib/tasks";
import { keyViewOf, keyViews } from "@/components/tasks/key-views";

describe("key views registry", () => {
  it("names only registered kinds", () => {
    expect(Object.keys(keyViews).filter((kind) => !(taskKinds as readonly string[]).includes(kind))).toEqual([]);
  });

  it("has no renderer for an unknown kind (the generic JSON view)", () => {
    expect(keyViewOf("no-such-kind")).toBeNull();
    expect(keyViewOf("toString")).toBeNull();
  });
});
