import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { enactDashboardSection } from "@/components/tasks/shared/enact-dashboard-section";
import { enactOverall, type EnactSection } from "@/lib/tasks/shared/enact/dashboard";

const score = (correctPairs: number, L: number) => ({ accepted: correctPairs === L, exact: correctPairs === L, correctPairs, L, semanticAvailable: false });

describe("the ENACT overall section, rendered", () => {
  it("shows TA, PA and PA per item in % with their intervals and the answers of each task", () => {
    const answers = [
      { kind: "enact-forward", item: "f1", person: "p1", score: score(3, 3) },
      { kind: "enact-forward", item: "f2", person: "p2", score: score(1, 3) },
      { kind: "enact-inverse", item: "i1", person: "p1", score: score(2, 2) },
      { kind: "enact-inverse", item: "i2", person: "p2", score: score(0, 2) },
      { kind: "enact-forward", item: "f1", person: "p2", score: score(2, 3) },
      { kind: "enact-inverse", item: "i1", person: "p2", score: score(2, 2) },
    ];
    const section: EnactSection = {
      kinds: ["enact-forward", "enact-inverse"],
      over: "people+items",
      rows: [{ series: "humans", label: "Humans (pooled)", condition: null, ...enactOverall(answers, "people+items") }],
    };
    const html = renderToStaticMarkup(enactDashboardSection.render(section, "s") as React.ReactElement);
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain("Humans (pooled) 50.00");
    expect(text).toMatch(/forward 3 \+ inverse 3/);
    expect(text).toContain("PA per item");
    expect(enactDashboardSection.title(section)).toBe("ENACT overall: both tasks pooled");
  });
});
