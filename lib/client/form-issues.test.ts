import { describe, expect, it, vi } from "vitest";
import { showServerIssues } from "@/lib/client/form-issues";

describe("showServerIssues", () => {
  it("puts each issue on the field its path names, and a pathless one on the root", () => {
    const setError = vi.fn();
    const shown = showServerIssues(
      setError,
      {
        ok: false,
        status: 422,
        unreachable: false,
        issues: [
          { path: "axes.1.key", message: "used twice" },
          { path: "", message: "whole form" },
        ],
      },
      "Could not",
    );
    expect(shown).toBe(2);
    expect(setError.mock.calls).toEqual([
      ["axes.1.key", { message: "used twice" }],
      ["root", { message: "whole form" }],
    ]);
  });

  it("gives an answer without issues to the root: the server's message, else the fallback", () => {
    const setError = vi.fn();
    expect(showServerIssues(setError, { ok: false, status: 409, unreachable: false, error: "slug taken" }, "Could not")).toBe(0);
    showServerIssues(setError, { ok: false, status: 0, unreachable: true }, "Could not create the study");
    expect(setError.mock.calls).toEqual([
      ["root", { message: "slug taken" }],
      ["root", { message: "Could not create the study" }],
    ]);
  });
});
