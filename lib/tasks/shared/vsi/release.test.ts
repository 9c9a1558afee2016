import { describe, expect, it } from "vitest";
import { runScoreCommand } from "@/lib/cli/score";
import { convertVsiRow, isVsiRow } from "@/lib/tasks/shared/vsi/release";
import { vsiOverall } from "@/lib/tasks/shared/vsi/overall";

const at = { file: "vsi.jsonl", line: 3 };
const mc = {
  id: 17,
  dataset: "arkitscenes",
  scene_name: "41069025",
  question_type: "object_rel_distance",
  question: "Which is closest to the sofa?",
  options: ["A. chair", "B. table", "C. lamp", "D. tv"],
  ground_truth: "C",
};
const na = {
  id: 18,
  dataset: "scannet",
  scene_name: "scene0011_00",
  question_type: "room_size_estimation",
  question: "What is the size of this room (in square meters)?",
  options: null,
  ground_truth: "21.4",
};

describe("VSI-Bench rows", () => {
  it("are told from native lines", () => {
    expect(isVsiRow(mc)).toBe(true);
    expect(isVsiRow({ ...mc, kind: "choice" })).toBe(false);
    expect(isVsiRow({ id: "x" })).toBe(false);
  });

  it("become choice items (letters as option ids) and numeric items scored by MRA, the video named <dataset>/<scene_name>.mp4", () => {
    expect(convertVsiRow(mc, at)).toEqual({
      id: "17",
      kind: "choice",
      public: {
        question: mc.question,
        options: [
          { id: "A", text: "chair" },
          { id: "B", text: "table" },
          { id: "C", text: "lamp" },
          { id: "D", text: "tv" },
        ],
        media: { video: "arkitscenes/41069025.mp4" },
      },
      key: { answer: "C" },
      tags: { question_type: "object_rel_distance", dataset: "arkitscenes", scene_name: "41069025", source: "vsi-bench" },
    });
    expect(convertVsiRow(na, at)).toMatchObject({
      id: "18",
      kind: "numeric",
      public: { unit: "square meters", media: { video: "scannet/scene0011_00.mp4" } },
      key: { answer: 21.4, metric: "mra" },
    });
    expect(convertVsiRow({ ...na, question_type: "object_counting", ground_truth: "3" }, at).public).not.toHaveProperty("unit");
  });

  it("name the line and field of a problem", () => {
    expect(() => convertVsiRow({ ...mc, ground_truth: "E" }, at)).toThrow(/vsi\.jsonl line 3: ground_truth: "E" is not one of the option letters A, B, C, D/);
    expect(() => convertVsiRow({ ...na, ground_truth: "big" }, at)).toThrow(/ground_truth: a numerical answer must be a number/);
    expect(() => convertVsiRow({ ...mc, question: "" }, at)).toThrow(/question: expected non-empty text/);
  });

  it("score through yardstick score as the release does (MC by letter, NA by MRA)", () => {
    const out = JSON.parse(
      runScoreCommand(
        `${JSON.stringify(mc)}\n${JSON.stringify(na)}\n`,
        `${JSON.stringify({ id: "17", answer: "C" })}\n${JSON.stringify({ id: "18", answer: "23.5" })}\n`,
      ),
    ) as { items: unknown[] };
    // |23.5 - 21.4| / 21.4 = 0.098...: right at thresholds up to 0.9 -> 0.9
    expect(out.items).toEqual([
      { id: "17", kind: "choice", correct: true, score: 1 },
      { id: "18", kind: "numeric", score: 0.9 },
    ]);
  });
});

describe("VSI-Bench overall", () => {
  it("is the mean of per-type means, the three direction types merged into one first", () => {
    const overall = vsiOverall([
      { questionType: "object_counting", score: 0.5 },
      { questionType: "object_counting", score: 1 },
      { questionType: "object_rel_direction_easy", score: 1 },
      { questionType: "object_rel_direction_medium", score: 0 },
      { questionType: "object_rel_direction_medium", score: 1 },
      { questionType: "object_rel_direction_hard", score: 0 },
      { questionType: "route_planning", score: 0 },
      { questionType: "not_vsi", score: 1 },
    ]);
    expect(overall.types).toEqual([
      { type: "object_counting", score: 0.75, answers: 2 },
      { type: "object_rel_direction", score: (1 + 0.5 + 0) / 3, answers: 4 },
      { type: "route_planning", score: 0, answers: 1 },
    ]);
    expect(overall.overall).toBeCloseTo((0.75 + 0.5 + 0) / 3, 15);
    expect(vsiOverall([]).overall).toBeNull();
  });
});

describe("VSI-Bench overall on a subset, as the released vsibench_aggregate_results computes it", () => {
  it("keeps medium and hard direction as two entries when easy is absent (0.45), where merging them gives 0.60", () => {
    const overall = vsiOverall([
      { questionType: "object_counting", score: 0.9 },
      { questionType: "object_abs_distance", score: 0.9 },
      { questionType: "object_rel_direction_medium", score: 0 },
      { questionType: "object_rel_direction_hard", score: 0 },
    ]);
    expect(overall.overall).toBeCloseTo(0.45, 15);
    expect(overall.types.map((t) => t.type)).toEqual(["object_counting", "object_abs_distance", "object_rel_direction_medium", "object_rel_direction_hard"]);
    expect(overall.mergedPresent).toBeCloseTo(0.6, 15);
  });

  it("has no overall where the released code stops (easy direction without medium or hard: a KeyError), and names why", () => {
    const overall = vsiOverall([
      { questionType: "object_counting", score: 1 },
      { questionType: "object_rel_direction_easy", score: 0.5 },
    ]);
    expect(overall.overall).toBeNull();
    expect(overall.releasedError).toMatch(/KeyError/);
    expect(overall.mergedPresent).toBeCloseTo(0.75, 15);
  });

  it("gives the same number both ways when all three direction types or none are present", () => {
    const overall = vsiOverall([
      { questionType: "object_counting", score: 1 },
      { questionType: "route_planning", score: 0 },
    ]);
    expect(overall.overall).toBeCloseTo(0.5, 15);
    expect(overall.mergedPresent).toBeCloseTo(0.5, 15);
  });
});
