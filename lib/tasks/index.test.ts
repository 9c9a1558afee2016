import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { familyKinds, familyMinGaps, getTaskModule, isTaskKind, taskKinds, taskModules } from "@/lib/tasks";

describe("task registry", () => {
  it("registers every kind under its own kind name", () => {
    expect(taskKinds).toEqual([
      "enact-forward",
      "enact-inverse",
      "gridwm-next-obs",
      "gridwm-scene-json",
      "gridwm-judge",
      "explore-scene",
      "esi-explore",
      "ego2world-play",
      "rating",
      "pairwise",
      "choice",
      "numeric",
      "free-text",
      "free-text-grade",
    ]);
    for (const kind of taskKinds) expect(taskModules[kind].kind).toBe(kind);
  });

  it("getTaskModule returns the module and names the known kinds for an unknown one", () => {
    expect(getTaskModule("enact-inverse").title).toBe("ENACT inverse world modeling");
    expect(() => getTaskModule("no-such-kind")).toThrow(AppError);
    expect(() => getTaskModule("no-such-kind")).toThrow(`unknown task kind "no-such-kind"; known kinds: ${taskKinds.join(", ")}`);
  });

  it("familyKinds lists the kinds whose items form probe families in the assignment queue", () => {
    expect(familyKinds().map(({ kind, tags, required }) => ({ kind, tags, required }))).toEqual([
      { kind: "gridwm-judge", tags: ["env", "group"], required: "group" },
    ]);
  });

  it("familyMinGaps reads each family kind's spacing from the study's settings of the kind, its default where unset or invalid", () => {
    expect(familyMinGaps({})).toEqual([{ kind: "gridwm-judge", minGap: 5 }]);
    expect(familyMinGaps(null)).toEqual([{ kind: "gridwm-judge", minGap: 5 }]);
    expect(familyMinGaps({ "gridwm-judge": { probeMinGap: 8 }, "explore-scene": { freeText: true } })).toEqual([{ kind: "gridwm-judge", minGap: 8 }]);
    expect(familyMinGaps({ "gridwm-judge": { probeMinGap: 0 } })).toEqual([{ kind: "gridwm-judge", minGap: 0 }]);
    expect(familyMinGaps({ "gridwm-judge": { probeMinGap: 101 } })).toEqual([{ kind: "gridwm-judge", minGap: 5 }]);
    expect(familyMinGaps({ "gridwm-judge": { probeMinGap: "8" } })).toEqual([{ kind: "gridwm-judge", minGap: 5 }]);
  });

  it("isTaskKind does not take inherited object keys", () => {
    expect(isTaskKind("enact-forward")).toBe(true);
    expect(isTaskKind("constructor")).toBe(false);
    expect(isTaskKind("toString")).toBe(false);
    expect(isTaskKind(3)).toBe(false);
  });

  it("every module offers the metrics its aggregate returns", () => {
    for (const kind of taskKinds) {
      const taskModule = taskModules[kind];
      expect(Object.keys(taskModule.aggregate([])).sort()).toEqual(taskModule.metrics.map((metric) => metric.id).sort());
    }
  });
});
