import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Td } from "@/components/ui/table";

describe("Td", () => {
  it("does not wrap by default", () => {
    expect(renderToStaticMarkup(createElement("table", null, createElement("tbody", null, createElement("tr", null, createElement(Td, null, "x")))))).toContain(
      "whitespace-nowrap",
    );
  });

  it("wraps as its className says: a cell of long text is not also nowrap (the stylesheet's order would make nowrap win)", () => {
    const html = renderToStaticMarkup(
      createElement(
        "table",
        null,
        createElement("tbody", null, createElement("tr", null, createElement(Td, { className: "whitespace-normal text-slate-600" }, "a long description"))),
      ),
    );
    expect(html).toContain("whitespace-normal");
    expect(html).not.toContain("whitespace-nowrap");
  });
});
