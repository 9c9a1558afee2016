import { describe, expect, it } from "vitest";
import { exportFileName, exportQuerySchema } from "@/lib/exports/filter";

describe("exportFileName", () => {
  it("names the study, the table, the filter and the format", () => {
    expect(exportFileName("enact-pilot", "responses", "csv")).toBe("enact-pilot-responses.csv");
    expect(exportFileName("enact-pilot", "items", "jsonl", { kind: "enact-forward", tag: "steps=3" })).toBe("enact-pilot-items-enact-forward-steps-3.jsonl");
  });

  it("keeps only safe characters", () => {
    expect(exportFileName("s", "events", "csv", { tag: 'camera="top view"' })).toBe("s-events-camera-_top_view_.csv");
  });
});

describe("exportQuerySchema", () => {
  it("defaults to CSV and drops empty filters", () => {
    expect(exportQuerySchema.parse({ kind: "", tag: "" })).toEqual({ format: "csv", kind: undefined, tag: undefined });
  });

  it("rejects a tag filter without a value separator and unknown formats", () => {
    expect(exportQuerySchema.safeParse({ tag: "steps" }).success).toBe(false);
    expect(exportQuerySchema.safeParse({ format: "xlsx" }).success).toBe(false);
  });
});
