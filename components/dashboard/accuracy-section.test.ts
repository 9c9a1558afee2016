import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AccuracySection } from "@/components/dashboard/accuracy-section";
import { accuracyRows, kindInfo, tagColumns } from "@/lib/dashboard/accuracy";
import { exploreSceneKeySchema, exploreSceneModule } from "@/lib/tasks/explore-scene";

/** The rendered accuracy table: EXPLORE's S_* are shown on their own scales, not multiplied by 100 (twice). */
describe("accuracy table, rendered", () => {
  it("shows one exact EXPLORE answer as S_obj 100.00, S_att 5.00, S_rel 5.00, S_uni 100.00", () => {
    const key = exploreSceneKeySchema.parse({
      objects: [
        { category: "bowl", description: "white ceramic bowl", relation: ["bowl on counter"] },
        { category: "counter", description: "grey stone counter" },
      ],
    });
    const answer = { objects: key.objects, text: "" };
    const score = exploreSceneModule.score(answer, key, { id: "e1", kind: "explore-scene", public: { initialImage: "a.jpg", actions: ["x"] }, key, tags: {} });
    const rows = accuracyRows(
      [{ kind: "explore-scene", tag: "Short", item: "e1", row: { itemId: "e1", tags: { subset: "Short" }, answer, score, annotator: "u1" } }],
      "humans",
      "Humans",
      "seed",
    );
    const html = renderToStaticMarkup(
      createElement(AccuracySection, { rows, modelRows: [], kinds: [kindInfo("explore-scene")], tagKey: "subset", tagValues: tagColumns(rows), slug: "s" }),
    );
    const cell = (metric: string) => {
      const row = html.split("<tr").find((part) => part.includes(`>${metric}</td>`));
      return row ? [...row.matchAll(/font-medium text-slate-900">([^<]*)</g)].map((match) => match[1]) : [];
    };
    expect(cell("S_obj")).toEqual(["100.00", "100.00"]);
    expect(cell("S_att")).toEqual(["5.00", "5.00"]);
    expect(cell("S_rel")).toEqual(["5.00", "5.00"]);
    expect(cell("S_uni")).toEqual(["100.00", "100.00"]);
    // a proportion is still shown in percent
    expect(cell("correctShare")).toEqual(["100.00", "100.00"]);
    expect(html).not.toContain("10000.00");
    expect(html).not.toContain("500.00");
  }, 60_000);

  it("names the interval methods: Wilson at the effective n and normal from the two-way variance, the pigeonhole bootstrap, and says n/a for one item or one person", () => {
    const html = renderToStaticMarkup(
      createElement(AccuracySection, { rows: [], modelRows: [], kinds: [kindInfo("enact-forward")], tagKey: "steps", tagValues: [], slug: "s" }),
    );
    const text = html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
    expect(text).toContain("Wilson at the effective n");
    expect(text).toContain("two-way variance");
    expect(text).toContain("pigeonhole bootstrap");
    expect(text).toContain("n/a (one item)");
    expect(text).toContain("n/a (one person)");
  });
});
