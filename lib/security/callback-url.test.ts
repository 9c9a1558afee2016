import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "@/lib/security/callback-url";

/** A callback such as /signin?callbackUrl=/%5Cexample.org must not send the browser to another origin. */
describe("safeCallbackPath", () => {
  it("refuses every callback that resolves to another origin, however it is spelled", () => {
    for (const raw of [
      "/\\example.org",
      "/\\/example.org",
      "\\\\example.org",
      "//example.org",
      "/\t/example.org",
      "/\n/example.org",
      "https://example.org/",
      "http:example.org",
      "javascript:alert(1)",
      "data:text/html,x",
      "https://app.test.example.org/",
      "///example.org",
      "/.//example.org",
      "https://app.test//example.org",
      "/%2e//example.org",
    ]) {
      expect(safeCallbackPath(raw, "https://app.test"), JSON.stringify(raw)).toBeUndefined();
    }
  });

  it("keeps paths on the app's own origin, with their query and fragment", () => {
    expect(safeCallbackPath("/research/studies/x?tab=items#top", "https://app.test")).toBe("/research/studies/x?tab=items#top");
    expect(safeCallbackPath("/s/demo", undefined)).toBe("/s/demo");
    expect(safeCallbackPath("https://app.test/admin", "https://app.test")).toBe("/admin");
    expect(safeCallbackPath("/a/../admin", "https://app.test")).toBe("/admin");
    expect(safeCallbackPath(undefined)).toBeUndefined();
    expect(safeCallbackPath("")).toBeUndefined();
  });
});
