import { describe, expect, it } from "vitest";
import { activeNavHref, navByRole } from "@/config/nav";

describe("activeNavHref", () => {
  it("marks one entry: the longest prefix, with the pages an entry stands for", () => {
    const items = navByRole.ADMIN;
    expect(activeNavHref(items, "/research/tokens")).toBe("/research/tokens");
    expect(activeNavHref(items, "/research/api")).toBe("/research/tokens");
    expect(activeNavHref(items, "/research")).toBe("/research");
    expect(activeNavHref(items, "/research/studies/x/dashboard")).toBe("/research");
    expect(activeNavHref(items, "/admin/users")).toBe("/admin/users");
    expect(activeNavHref(items, "/researchers")).toBeNull();
    expect(activeNavHref(navByRole.ANNOTATOR, "/studies/x")).toBe("/studies");
  });
});
