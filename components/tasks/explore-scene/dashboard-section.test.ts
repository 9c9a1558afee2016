import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { EXPLORE_PAPER_DIFFERENCES, EXPLORE_PAPER_HUMANS, exploreTableRow, type ExploreEntry } from "@/lib/tasks/shared/explore/tables";
import { tokenize } from "@/lib/tasks/shared/explore/nlp";
import { exploreSceneKeySchema } from "@/lib/tasks/explore-scene";
import { scoreStructured } from "@/lib/tasks/shared/explore/scorer";
import type { ExploreSection } from "@/lib/tasks/shared/explore/dashboard";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh: () => undefined }) }));

beforeAll(() => {
  tokenize("warm up");
}, 120_000);

/** The rendered EXPLORE table: every row's S_uni is Eq. 1 on the row's own S_obj, S_att, S_rel, as shown; the differences from the paper are named. */
describe("EXPLORE dashboard section, rendered", () => {
  it("rows read on their own scales and satisfy Eq. 1 as shown; the page names every difference from the paper", async () => {
    const { ExploreDashboardSection } = await import("@/components/tasks/explore-scene/dashboard-section");
    const key = exploreSceneKeySchema.parse({
      objects: [
        { category: "table", description: "round wooden table", relation: [] },
        { category: "cup", description: "white ceramic cup", relation: ["cup on table"] },
        { category: "sink", description: "", relation: [] },
      ],
    });
    const answers = [
      { objects: [{ category: "table", description: "", relation: [] }], text: "" },
      {
        objects: [
          { category: "table", description: "wooden", relation: [] },
          { category: "cup", description: "white", relation: ["cup on table"] },
        ],
        text: "",
      },
      { objects: [], text: "A white cup stands on the round table. The sink is empty." },
    ];
    const entries: ExploreEntry[] = answers.map((answer, i) => ({ subset: i === 2 ? "Long" : "Short", score: scoreStructured(answer, key) }));
    const row = exploreTableRow({ id: "u1", label: "Ana", group: "annotator" }, entries);
    const section: ExploreSection = {
      tables: [
        {
          id: "structured",
          scorer: "structured",
          title: "structured scorer",
          model: null,
          promptVersion: null,
          rows: [row],
          scored: 3,
          answers: 3,
          sUniAlpha: null,
        },
      ],
      presenceAlpha: null,
      items: 1,
      abnormalItems: 0,
      otherSubsetItems: 0,
      paper: EXPLORE_PAPER_HUMANS,
      llm: { configured: false, model: null, promptVersion: "explore-v2", jobs: [], unscored: null },
    };
    const html = renderToStaticMarkup(createElement(ExploreDashboardSection, { section, slug: "s" }));
    const rowHtml = html.split("<tr").find((part) => part.includes(">Ana<"))!;
    const cells = [...rowHtml.matchAll(/tabular-nums[^>]*>([^<]*)</g)].map((match) => match[1]);
    // n, then Short, Medium, Long, Full x (S_obj, S_att, S_rel, S_uni)
    const groups = [cells.slice(1, 5), cells.slice(5, 9), cells.slice(9, 13), cells.slice(13, 17)];
    let checked = 0;
    for (const group of groups) {
      if (group.some((cell) => !/^\d+\.\d\d$/.test(cell))) continue;
      const [sObj, sAtt, sRel, sUni] = group.map(Number);
      expect(sObj).toBeLessThanOrEqual(100);
      expect(sAtt).toBeLessThanOrEqual(5);
      expect(sRel).toBeLessThanOrEqual(5);
      // Eq. 1 on the shown (rounded) figures, within the rounding of the shown parts
      expect(Math.abs(sUni - (0.25 * sObj + 7 * sAtt + 8 * sRel))).toBeLessThan(0.25 * 0.005 + 7 * 0.005 + 8 * 0.005 + 0.005);
      checked++;
    }
    expect(checked).toBe(3); // Short, Long, Full
    for (const difference of EXPLORE_PAPER_DIFFERENCES) expect(html).toContain(difference.replace(/'/g, "&#x27;").replace(/>/g, "&gt;"));
  }, 60_000);
});
