import { describe, expect, it } from "vitest";
import { processCache } from "@/lib/assignment/process-cache";

describe("processCache", () => {
  it("gives every caller of one name the same cache, bounded to `max` entries (least recently used goes first)", () => {
    const cache = processCache<{ n: number }>("test-bounded", { max: 2 });
    expect(processCache<{ n: number }>("test-bounded", { max: 2 })).toBe(cache);
    cache.set("a", { n: 1 });
    cache.set("b", { n: 2 });
    expect(cache.get("a")).toEqual({ n: 1 });
    cache.set("c", { n: 3 });
    expect([...cache.keys()].sort()).toEqual(["a", "c"]);
  });

  it("misses entries older than ttl", async () => {
    const cache = processCache<{ n: number }>("test-ttl", { max: 2, ttl: 20 });
    cache.set("a", { n: 1 });
    expect(cache.get("a")).toEqual({ n: 1 });
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(cache.get("a")).toBeUndefined();
  });
});
