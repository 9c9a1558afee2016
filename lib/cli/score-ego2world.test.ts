import { describe, expect, it } from "vitest";
import { runScoreCommand } from "@/lib/cli/score";
import { miniEpisodeItem } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode-item";

const jsonl = (...lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n") + "\n";

describe("yardstick score on ego2world-play", () => {
  it("prints one row per answer line in input order, in the issue's field order, and the pooled aggregate", () => {
    const output = runScoreCommand(
      jsonl(miniEpisodeItem("ep-1")),
      jsonl(
        {
          id: "ep-1",
          annotator: "agent-a",
          answer: {
            tasks: [
              { id: "t1", actions: ["go_to(drawer)", "pick_up(knife_01)", "go_to(counter)"] },
              { id: "t2", actions: ["slice(bread_01, knife_01)"] },
            ],
          },
        },
        // a raw agent output: JSON text, task id -> actions; t2 missing
        { id: "ep-1", annotator: "agent-b", answer: '{"t1": ["pick_up(knife_01)", "fetch(knife_01, drawer)"]}' },
      ),
    );
    const parsed = JSON.parse(output) as { items: Array<Record<string, unknown>>; aggregate: Record<string, number | null> };
    expect(parsed.items.map((row) => Object.keys(row))).toEqual([
      ["id", "annotator", "TSR", "TCR", "F1", "WSR", "validity", "tasks"],
      ["id", "annotator", "TSR", "TCR", "F1", "WSR", "validity", "tasks"],
    ]);
    expect(parsed.items[0]).toEqual({
      id: "ep-1",
      annotator: "agent-a",
      TSR: 1,
      TCR: 1,
      F1: 1,
      WSR: 1,
      validity: 1,
      tasks: [
        { id: "t1", success: true, TCR: 1, F1: 1, WSR: 1, accepted: [true, true, true] },
        { id: "t2", success: true, TCR: 1, F1: 1, WSR: 1, accepted: [true] },
      ],
    });
    // agent-b: t1 = [refused pick_up, fetch skill]: names {pick_up, go_to, pick_up} vs {go_to, pick_up, go_to}: F1 2/3;
    // it stays in the drawer, so t2 (no actions) fails
    expect(parsed.items[1]).toEqual({
      id: "ep-1",
      annotator: "agent-b",
      TSR: 0.5,
      TCR: 0.5,
      F1: 1 / 3,
      WSR: 0.5,
      validity: 0.5,
      tasks: [
        { id: "t1", success: true, TCR: 1, F1: 2 / 3, WSR: 1, accepted: [false, true] },
        { id: "t2", success: false, TCR: 0, F1: 0, WSR: 0, accepted: [] },
      ],
    });
    // pooled over the 4 task units; validity over all 6 actions (5 accepted)
    expect(parsed.aggregate).toEqual({ TSR: 0.75, TCR: 0.75, F1: (1 + 1 + 2 / 3 + 0) / 4, WSR: 0.75, validity: 5 / 6 });
  });

  it("names file and line for an unreadable answer", () => {
    expect(() => runScoreCommand(jsonl(miniEpisodeItem("ep-1")), jsonl({ id: "ep-1", answer: { tasks: "all" } }))).toThrow(
      'answers.jsonl line 1: answer for item "ep-1" is not a readable ego2world-play answer',
    );
  });

  it("rejects an items file whose reference is broken, naming task and action", () => {
    const broken = miniEpisodeItem("ep-2");
    broken.key.tasks[0].reference = ["pick_up(knife_01)"];
    expect(() => runScoreCommand(jsonl(broken), jsonl({ id: "ep-2", answer: { tasks: [] } }))).toThrow(
      /items\.jsonl line 1: item "ep-2": key\.tasks\.0\.reference\.0: task "t1", action 1 "pick_up\(knife_01\)": the reference action is refused \(knife_01\.area = here\)/,
    );
  });
});
