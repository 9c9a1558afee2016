import { describe, expect, it } from "vitest";
import { parseReportArgs } from "@/lib/cli/report";

describe("yardstick report's arguments", () => {
  it("takes a study and a format, Markdown by default", () => {
    expect(parseReportArgs(["--study", "pilot"])).toEqual({ study: "pilot", format: "md" });
    expect(parseReportArgs(["--study=pilot", "--format", "tex"])).toEqual({ study: "pilot", format: "tex" });
  });

  it("refuses a missing study, another format and unknown flags, before any database is opened", () => {
    expect(() => parseReportArgs([])).toThrow(/--study is required/u);
    expect(() => parseReportArgs(["--study", "pilot", "--format", "pdf"])).toThrow(/--format must be md or tex, not "pdf"/u);
    expect(() => parseReportArgs(["--study", "pilot", "--items", "x"])).toThrow(/unknown argument/u);
  });
});
