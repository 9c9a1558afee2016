import { describe, expect, it } from "vitest";
import { exploreMeans, exploreTableRow, presenceAlpha, sUniAlpha, type ExploreScoreLike } from "@/lib/tasks/shared/explore/tables";

const score = (S_obj: number, S_att: number | null, S_rel: number | null, S_uni: number, extra: Partial<ExploreScoreLike> = {}): ExploreScoreLike => ({
  S_obj,
  S_att,
  S_rel,
  S_uni,
  ...extra,
});
const annotator = { id: "u1", label: "Ann", group: "annotator" as const };

describe("EXPLORE table (paper's shape)", () => {
  it("means per metric, a null part left out of its own mean only", () => {
    expect(exploreMeans([score(100, 5, null, 100), score(50, 3, 2, 60)])).toEqual({ n: 2, S_obj: 75, S_att: 4, S_rel: 2, S_uni: 80, S_key: null, S_abn: null });
    expect(exploreMeans([])).toMatchObject({ n: 0, S_obj: null, S_uni: null });
  });

  it("splits by subset, Full holding every normal item, abnormal items apart", () => {
    const row = exploreTableRow(annotator, [
      { subset: "Short", score: score(100, 5, 5, 100) },
      { subset: "Short", score: score(50, 1, 1, 29) },
      { subset: "Long", score: score(20, 2, 2, 35) },
      { subset: null, score: score(0, 0, 0, 0) },
      { subset: "Short", score: score(90, 4, 4, 86.5, { S_key: 5, S_abn: 98.65 }) },
    ]);
    expect(row.cells.Short).toMatchObject({ n: 2, S_obj: 75, S_uni: 64.5 });
    expect(row.cells.Medium.n).toBe(0);
    expect(row.cells.Long).toMatchObject({ n: 1, S_obj: 20 });
    expect(row.cells.Full).toMatchObject({ n: 4, S_obj: 42.5, S_uni: 41 });
    expect(row.abnormal).toMatchObject({ n: 1, S_key: 5, S_abn: 98.65 });
    expect(exploreTableRow(annotator, [{ subset: "Short", score: score(1, 1, 1, 1) }]).abnormal).toBeNull();
  });

  it("an item with key states stays out of Full even when its score has no S_key (the item says so)", () => {
    const row = exploreTableRow(annotator, [
      { subset: "Short", score: score(100, 5, 5, 100) },
      { subset: "Short", score: score(20, 1, 1, 35), abnormal: true },
    ]);
    expect(row.cells.Full).toMatchObject({ n: 1, S_obj: 100 });
    expect(row.abnormal).toMatchObject({ n: 1, S_obj: 20 });
  });

  it("alpha on S_uni (interval) and on per-object presence (nominal), checked against hand-computed values", () => {
    // two coders, S_uni: identical on every item -> alpha 1
    expect(
      sUniAlpha([
        [50, 50],
        [80, 80],
        [20, 20],
      ])!.alpha,
    ).toBeCloseTo(1);
    // units with one value are not pairable
    expect(sUniAlpha([[50]])).toBeNull();
    // nominal, by hand (Krippendorff 2011, sections C-E): units [a,a], [b,b], [a,b]: D_o = 2/6, D_e = 2 x 3 x 3 / (6 x 5) = 0.6, alpha = 1 - (1/3) / 0.6 = 0.4444
    expect(
      presenceAlpha([
        ["present", "present"],
        ["absent", "absent"],
        ["present", "absent"],
      ])!.alpha,
    ).toBeCloseTo(1 - 1 / 3 / 0.6, 6);
  });
});
