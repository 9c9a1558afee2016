import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { convertEsiReleaseFile, findBesideQuestion, isEsiReleaseQuestion, poseOfImage } from "@/lib/tasks/esi-explore/import";
import { esiItemSchema } from "@/lib/tasks/esi-explore";

// the three real questions of the release (../shared/data/esi-bench), copied as they are; their images are not shipped
const root = path.resolve(import.meta.dirname, "..", "..", "..", "data", "esi-sample");
const files = {
  action: "dataset/json_clean/Action Sequencing/Action Order Inference/Beechwood_0_garden/bathroom_0/Beechwood_0_garden__bathroom_0.json",
  connectivity: "dataset/json_clean/Cognitive Mapping/Connectivity/Beechwood_0_garden/full_scene/q_001.json",
  counting: "dataset/json_clean/Enumerative Perception/Spatial Segmentation/Merom_0_int/living_room_0/q_000.json",
};
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const dirOf = (file: string) => file.slice(0, file.lastIndexOf("/") + 1);

describe("ESI-Bench release questions", () => {
  it("recognises release question files, not native lines", () => {
    for (const file of Object.values(files)) expect(isEsiReleaseQuestion(JSON.parse(read(file)))).toBe(true);
    expect(isEsiReleaseQuestion({ id: "x", kind: "esi-explore", big_task: "a", question: "q", options_json: "[]" })).toBe(false);
    expect(isEsiReleaseQuestion([JSON.parse(read(files.counting))])).toBe(true);
  });

  it("reads a question with parts: options and answer as maps, part labels from the hierarchy, the initial pose", () => {
    const converted = convertEsiReleaseFile(read(files.action), files.action, new Set());
    expect(converted.issues).toEqual([]);
    const [{ line, item }] = converted.items;
    expect(line).toBe(1);
    expect(item).toMatchObject({
      id: "0001",
      kind: "esi-explore",
      public: {
        question: expect.stringContaining("Which baking_sheet should go under the feta_box"),
        options: { A: ["right", "left"], C: ["left", "right"] },
        parts: { A: "the baking_sheet", C: "the lemon" },
        initialImage: `${dirOf(files.action)}stage0_initial_orb0.png`,
        maxSteps: 30,
      },
      key: {
        answer: { A: "right", C: "left" },
        start: { scene: "Beechwood_0_garden", room: "bathroom_0", pose: { position: [2.5428005984467137, 20.750476959274152, 1.3811285397246782] } },
      },
      tags: {
        category: "Action Sequencing",
        subcategory: "Action Order Inference",
        scene: "Beechwood_0_garden",
        room: "bathroom_0",
        answerType: "choice",
        runner: "action",
        source: "esi-release",
      },
    });
    // the release's reference views are named, but their images are not here: no passive-gt views
    expect((item.key as { views?: unknown }).views).toBeUndefined();
    expect(converted.missingViews).toBeGreaterThan(0);
    expect(esiItemSchema.safeParse({ public: item.public, key: item.key }).success).toBe(true);
  });

  it("reads a yes/no question and a count question, decoding every JSON field", () => {
    const connectivity = convertEsiReleaseFile(read(files.connectivity), files.connectivity, new Set()).items[0].item;
    expect(connectivity).toMatchObject({
      id: "0078",
      public: { options: ["Yes", "No"], initialImage: `${dirOf(files.connectivity)}pair_connectivity__corridor_0__private_office_0__initial.png` },
      key: { answer: "Yes", start: { room: "full_scene", pose: { position: [0.699999988079071, 18.30000114440918, 1.35] } } },
      tags: { category: "Cognitive Mapping", subcategory: "Connectivity" },
    });
    expect((connectivity.key as { metadata: { question_data: { case_type: string } } }).metadata.question_data.case_type).toBe("pair_connectivity");

    const counting = convertEsiReleaseFile(read(files.counting), files.counting, new Set()).items[0].item;
    expect(counting).toMatchObject({
      id: "0551",
      public: { options: ["0", "1", "2", "3"] },
      key: { answer: "2", start: { pose: { position: [2.44, 6.350000000000001, 1.25] } } },
      tags: { category: "Enumerative Perception", subcategory: "Spatial Segmentation" },
    });
    for (const item of [connectivity, counting]) expect(esiItemSchema.safeParse({ public: item.public, key: item.key }).success).toBe(true);
  });

  it("uses the reference views (role gt) whose images are beside the question", () => {
    const dir = dirOf(files.connectivity);
    const present = new Set([
      `${dir}pair_connectivity__corridor_0__private_office_0__initial.png`,
      `${dir}path_views/path_view_000.png`,
      `${dir}q_001/path_view_001.png`,
    ]);
    const converted = convertEsiReleaseFile(read(files.connectivity), files.connectivity, present);
    const item = converted.items[0].item;
    expect((item.public as { initialImage: string }).initialImage).toBe(`${dir}pair_connectivity__corridor_0__private_office_0__initial.png`);
    expect((item.key as { views: { gt: string[] } }).views.gt).toEqual([`${dir}path_views/path_view_000.png`, `${dir}q_001/path_view_001.png`]);
    expect(converted.missingViews).toBe(3);
  });

  it("names the file, question and field of what is wrong", () => {
    const broken = { ...JSON.parse(read(files.counting)), options_json: '["0", ' };
    const result = convertEsiReleaseFile(JSON.stringify([JSON.parse(read(files.counting)), broken, 7], null, 2), "q.json", new Set());
    const entryLines = [
      ...JSON.stringify([JSON.parse(read(files.counting)), broken, 7], null, 2)
        .split("\n")
        .entries(),
    ]
      .filter(([, line]) => line === "  {" || line === "  7")
      .map(([at]) => at + 1);
    expect(result.items.map((i) => i.line)).toEqual([entryLines[0]]);
    expect(result.issues).toEqual([
      { file: "q.json", line: entryLines[1], entry: 2, field: "options_json", message: expect.stringContaining("is not valid JSON text") },
      { file: "q.json", line: entryLines[2], entry: 3, message: "expected a question object" },
    ]);
    const noAnswer = convertEsiReleaseFile(JSON.stringify({ ...JSON.parse(read(files.action)), answer: '{"answer_A":"right"}' }), "a.json", new Set());
    expect(noAnswer.issues).toEqual([{ file: "a.json", line: 1, field: "answer", message: "no answer_C" }]);
    expect(convertEsiReleaseFile("{", "b.json", new Set()).issues[0]).toMatchObject({ file: "b.json", message: expect.stringContaining("not valid JSON") });
  });

  it("finds images beside the question file, and the pose the metadata gives an image", () => {
    const present = new Set(["d/q_000/images/x.png", "d/y.png"]);
    expect(findBesideQuestion("d/q_000.json", "x.png", present)).toBe("d/q_000/images/x.png");
    expect(findBesideQuestion("d/q_000.json", "./y.png", present)).toBe("d/y.png");
    expect(findBesideQuestion("d/q_000.json", "z.png", present)).toBeNull();
    expect(poseOfImage({ a: [{ filename: "v.png", pose: { p: 1 } }] }, "v.png")).toEqual({ p: 1 });
    expect(poseOfImage({ _key: "v.png", position: [1], quaternion_xyzw: [0, 0, 0, 1] }, "v.png")).toEqual({ position: [1], quaternion_xyzw: [0, 0, 0, 1] });
    expect(poseOfImage({ a: 1 }, "v.png")).toBeUndefined();
  });
});
