import { describe, expect, it } from "vitest";
import { isGoneLocalTab, markTab, TAB_BEAT_MS, tabWriterId } from "@/lib/client/tab-writer";

class MemoryStorage {
  map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

describe("tab writer", () => {
  it("keeps one id per tab (a reload is the same writer), a new tab gets its own", () => {
    const tab = new MemoryStorage();
    let n = 0;
    const newId = () => `id-${++n}`;
    expect(tabWriterId(tab, newId)).toBe("id-1");
    expect(tabWriterId(tab, newId)).toBe("id-1");
    expect(tabWriterId(new MemoryStorage(), newId)).toBe("id-2");
  });

  it("tells a closed or silent tab of this browser from an open one and from another device's", () => {
    const local = new MemoryStorage();
    markTab(local, "open", 1_000);
    markTab(local, "closed", 1_000);
    markTab(local, "closed", 1_500, true);
    expect(isGoneLocalTab(local, "open", 1_000 + TAB_BEAT_MS)).toBe(false);
    expect(isGoneLocalTab(local, "closed", 1_600)).toBe(true);
    expect(isGoneLocalTab(local, "open", 1_000 + 10 * TAB_BEAT_MS)).toBe(true);
    expect(isGoneLocalTab(local, "other-device", 1_000)).toBe(false);
  });
});
