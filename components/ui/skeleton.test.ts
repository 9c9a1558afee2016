import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PageSkeleton } from "@/components/ui/skeleton";

describe("PageSkeleton", () => {
  it("is no wider than a phone's window: each bar of a fixed width also stops at its box's width", () => {
    const html = renderToStaticMarkup(createElement(PageSkeleton));
    const classLists = [...html.matchAll(/class="([^"]*)"/g)].map((m) => m[1].split(/\s+/));
    const fixed = classLists.filter((classes) => classes.some((c) => /^w-\d+$/.test(c)));
    expect(fixed.length).toBeGreaterThan(0);
    for (const classes of fixed) expect(classes).toContain("max-w-full");
  });
});
