import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { helpHrefOf, helpLinkOf, helpTopicFor } from "@/config/help";

describe("help topics", () => {
  it("each staff page names its doc, and every doc named exists", () => {
    const pages = [
      "/research",
      "/research/studies/new",
      "/research/studies/s1",
      "/research/studies/s1/dashboard",
      "/research/studies/s1/annotators",
      "/research/studies/s1/participants",
      "/research/studies/s1/agents",
      "/research/studies/s1/exports",
      "/research/studies/s1/settings",
      "/research/studies/s1/items/i1",
      "/research/studies/s1/replay/a1",
      "/research/tokens",
      "/research/api",
      "/admin/import",
      "/admin/users",
      "/review",
      "/review/r1/results",
    ];
    for (const page of pages) {
      const topic = helpTopicFor(page);
      expect(topic, page).not.toBeNull();
      const file = topic!.doc === "readme" ? "README.md" : path.join("docs", `${topic!.doc}.md`);
      expect(existsSync(path.resolve(import.meta.dirname, "..", "..", file)), `${page} -> ${file}`).toBe(true);
    }
    expect(helpHrefOf(helpTopicFor("/research/studies/s1/exports")!)).toBe("/help/exports");
    expect(helpTopicFor("/studies")).toBeNull();
    expect(helpTopicFor("/help/exports")).toBeNull();
  });

  it("links between docs stay inside /help; others stay as written", () => {
    expect(helpLinkOf("docs/exports.md")).toBe("/help/exports");
    expect(helpLinkOf("exports.md#responses")).toBe("/help/exports#responses");
    expect(helpLinkOf("../README.md")).toBe("/help/readme");
    expect(helpLinkOf("./scaling.md")).toBe("/help/scaling");
    expect(helpLinkOf("https://pglite.dev")).toBe("https://pglite.dev");
    expect(helpLinkOf("#configuration")).toBe("#configuration");
    expect(helpLinkOf("../lib/stats/wilson-interval.ts")).toBe("../lib/stats/wilson-interval.ts");
  });
});
