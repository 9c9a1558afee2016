import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScoreCli, runScoreCommand, runScoreRunCommand } from "@/lib/cli/score";

/**
 * `yardstick score --run <a benchmark's model-output file>` prints what `--answers` prints for the
 * same answers; outputs the benchmark's parser reads nothing from are scored as it scores them
 * (wrong) and counted in "unparsed".
 */

const jsonl = (...rows: unknown[]) => rows.map((row) => JSON.stringify(row)).join("\n") + "\n";
const vsiRow = (id: number, ground_truth: string, options: string[] | null) => ({
  id,
  dataset: "arkitscenes",
  scene_name: "41069025",
  question_type: options ? "object_rel_distance" : "object_counting",
  question: "Which is closest?",
  options,
  ground_truth,
});
const ABC = ["A. chair", "B. table", "C. lamp"];
const vsiItems = jsonl(vsiRow(1, "B", ABC), vsiRow(2, "C", ABC), vsiRow(3, "A", ABC), vsiRow(4, "2", null));
const egoItem = (id: string, answer: string) => ({
  id,
  kind: "choice",
  public: { question: "What does C do?", options: ["cook", "clean", "read", "paint", "sleep"].map((text, i) => ({ id: String(i), text })) },
  key: { answer },
  tags: { source: "egoschema" },
});
const blinkItem = (id: string, answer: string) => ({
  id,
  kind: "choice",
  public: { question: "Which image?", options: ["first", "second", "third", "fourth"].map((text, i) => ({ id: "ABCD"[i], text })) },
  key: { answer },
  tags: { source: "blink" },
});

describe("yardstick score --run", () => {
  it("VSI-Bench rows with their prediction: the --answers JSON, with '(C)' and 'The answer is A' unparsed and scored 0 as VSI-Bench's parser scores them", () => {
    const predictions = ["B", "(C)", "The answer is A", "3"];
    const run = jsonl(...predictions.map((prediction, i) => ({ ...vsiRow(i + 1, "", null), prediction })));
    const answers = jsonl(...predictions.map((answer, i) => ({ id: String(i + 1), answer })));
    const fromRun = JSON.parse(runScoreRunCommand(vsiItems, run)) as { unparsed?: number; items: Array<{ id: string; score: number }> };
    expect(fromRun.unparsed).toBe(2);
    const { unparsed, ...rest } = fromRun;
    expect(unparsed).toBe(2);
    expect(rest).toEqual(JSON.parse(runScoreCommand(vsiItems, answers)));
    expect(fromRun.items.map((row) => [row.id, row.score])).toEqual([
      ["1", 1],
      ["2", 0],
      ["3", 0],
      ["4", expect.any(Number)],
    ]);
  });

  it("EgoSchema's {q_uid: 0-4} and BLINK's {idx: \"(B)\"}: the --answers JSON exactly", () => {
    const egoItems = jsonl(egoItem("aaaa-1", "0"), egoItem("bbbb-2", "3"), egoItem("cccc-3", "4"));
    const ego = { "aaaa-1": 0, "bbbb-2": 1, "cccc-3": 4 };
    const egoRun = runScoreRunCommand(egoItems, JSON.stringify(ego));
    expect(egoRun).toBe(runScoreCommand(egoItems, jsonl(...Object.entries(ego).map(([id, answer]) => ({ id, answer })))));
    expect(JSON.parse(egoRun).aggregate).toMatchObject({ accuracy: 2 / 3 });

    const blinkItems = jsonl(blinkItem("val_Counting_1", "B"), blinkItem("val_Counting_2", "D"));
    const blink = { val_Counting_1: "(B)", val_Counting_2: "(A)" };
    const blinkRun = runScoreRunCommand(blinkItems, JSON.stringify(blink, null, 2));
    expect(blinkRun).toBe(runScoreCommand(blinkItems, jsonl(...Object.entries(blink).map(([id, answer]) => ({ id, answer })))));
    expect(JSON.parse(blinkRun).aggregate).toMatchObject({ accuracy: 0.5 });
  });

  it("BLINK output with no single (X) token is unparsed and wrong, where --answers refuses it", () => {
    const blinkItems = jsonl(blinkItem("val_Counting_1", "B"));
    const out = JSON.parse(runScoreRunCommand(blinkItems, JSON.stringify({ val: [{ idx: "val_Counting_1", full_prediction: "(A) or (B)" }] })));
    expect(out).toMatchObject({ unparsed: 1, items: [{ id: "val_Counting_1", correct: false, score: 0 }], aggregate: { accuracy: 0 } });
  });

  it("names the file and place of an unknown id", () => {
    expect(() => runScoreRunCommand(jsonl(egoItem("aaaa-1", "0")), JSON.stringify({ "aaaa-1": 0, zzzz: 1 }, null, 2), { run: "ego.json" })).toThrow(
      'ego.json entry 2 (line 3): unknown item id "zzzz"',
    );
  });

  describe("the command line", () => {
    let dir = "";
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), "score-run-"));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("takes --run instead of --answers, never both", async () => {
      const items = path.join(dir, "items.jsonl");
      const run = path.join(dir, "egoschema-submission.json");
      await writeFile(items, jsonl(egoItem("aaaa-1", "0")));
      await writeFile(run, JSON.stringify({ "aaaa-1": 0 }));
      expect(JSON.parse(runScoreCli(["--items", items, "--run", run])).aggregate).toMatchObject({ accuracy: 1 });
      expect(() => runScoreCli(["--items", items, "--run", run, "--answers", run])).toThrow(/usage: yardstick score/);
    });
  });
});
