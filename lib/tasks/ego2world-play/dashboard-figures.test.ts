import { describe, expect, it } from "vitest";
import { miniEpisode } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode";
import { miniEpisodeItem } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode-item";
import { scoreEpisode, type EpisodeAnswer } from "@/lib/tasks/ego2world-play/metrics";
import { agentDifferences, ego2worldFigures, egoRow, playBelief, taskTimes, unitsOf, type EgoPlay } from "@/lib/tasks/ego2world-play/dashboard-figures";
import { ego2worldItemSchema } from "@/lib/tasks/ego2world-play";

const perfect: EpisodeAnswer = { tasks: [{ id: "t1", actions: ["go_to(drawer)", "pick_up(knife_01)", "go_to(counter)"] }, { id: "t2", actions: ["slice(bread_01, knife_01)"] }] };
const stuck: EpisodeAnswer = { tasks: [{ id: "t1", actions: ["pick_up(knife_01)", "go_to(drawer)", "pick_up(knife_01)"] }, { id: "t2", actions: ["slice(bread_01, knife_01)", "slice(bread_01, knife_01)"] }] };
const play = (participant: string, answer: EpisodeAnswer, extra: Partial<EgoPlay> = {}): EgoPlay => ({ participant, item: "ep", answer, score: scoreEpisode(miniEpisode(), answer), ...extra });

describe("Ego2World dashboard figures", () => {
  it("turns a play into task units with replans and steps", () => {
    const units = unitsOf(play("p", stuck, { taskMs: [4000, null] }));
    expect(units).toEqual([
      { item: "ep", task: "t1", success: 1, TCR: 1, F1: 2 / 3, WSR: 1, validity: 2 / 3, accepted: 2, submitted: 3, replan: 1, steps: 3, ms: 4000 },
      // the same refused action twice: no change of course
      { item: "ep", task: "t2", success: 0, TCR: 0, F1: 2 / 3, WSR: 0, validity: 0, accepted: 0, submitted: 2, replan: 0, steps: 2, ms: null },
    ]);
  });

  it("pools rows over task units; validity over all actions", () => {
    const row = egoRow("pooled", "Humans (pooled)", "pooled", [play("a", perfect, { taskMs: [1000, 3000], belief: 1 }), play("b", stuck, { taskMs: [4000, null], belief: 0.5 })]);
    expect(row).toMatchObject({ episodes: 1, tasks: 4, TSR: 0.75, TCR: 0.75, WSR: 0.75, validity: 6 / 9, replan: 0.25, steps: 9 / 4, timeMs: 8000 / 3, belief: 0.75 });
  });

  it("pairs humans and each agent on the same task units", () => {
    const humans = [play("a", perfect), play("b", stuck)];
    const agent = [play("model:r1", stuck)];
    const byMetric = Object.fromEntries(agentDifferences(humans, agent, "seed", 200).map((m) => [m.metric, m]));
    // per unit, humans' mean success (1, 0.5) vs the agent's (1, 0)
    expect(byMetric.TSR).toMatchObject({ n: 2, meanA: 0.75, meanB: 0.5, difference: 0.25 });
    expect(byMetric.steps).toMatchObject({ n: 2, difference: (3 + 1.5) / 2 - (3 + 2) / 2 });
    const figures = ego2worldFigures([...humans, ...agent], [{ id: "a", name: "P1" }, { id: "b", name: "P2" }, { id: "c", name: "P3" }], [{ id: "r1", name: "Agent" }], [{ item: "ep", task: "t1", instruction: "Get the knife." }, { item: "ep", task: "t2", instruction: "Slice." }], "k");
    expect(figures.rows.map((row) => [row.name, row.group, row.TSR])).toEqual([
      ["P1", "annotator", 1],
      ["P2", "annotator", 0.5],
      ["Humans (pooled)", "pooled", 0.75],
      ["Agent", "agent", 0.5],
    ]);
    expect(figures.differences).toHaveLength(1);
    // both task units are of one episode: the paired bootstrap resamples episodes, so none
    expect(byMetric.TSR).toMatchObject({ clusters: 1, ci: null, reason: "one item" });
    expect(figures.tasks[1]).toEqual({ item: "ep", task: "t2", instruction: "Slice.", humans: { plays: 2, TSR: 0.5, steps: 1.5, timeMs: null }, agents: [{ id: "r1", success: false, steps: 2 }] });
  });

  it("the paired bootstrap resamples episodes: units of one episode stay together", () => {
    const humans: EgoPlay[] = [];
    const agent: EgoPlay[] = [];
    for (let e = 0; e < 5; e++) {
      humans.push(play("a", e % 2 === 0 ? perfect : stuck, { item: `ep${e}` }));
      agent.push(play("model:r1", e < 2 ? perfect : stuck, { item: `ep${e}` }));
    }
    const TSR = agentDifferences(humans, agent, "seed", 500).find((m) => m.metric === "TSR")!;
    expect(TSR).toMatchObject({ n: 10, clusters: 5, method: "paired bootstrap over episodes (percentile interval)" });
  });

  it("active time per task: step gaps capped, a done step closes its task", () => {
    const steps = [
      { seq: 0, action: {}, at: 0 },
      { seq: 1, action: { type: "act", action: "go_to(drawer)" }, at: 5000 },
      { seq: 2, action: { type: "done" }, at: 500_000 }, // a long break: capped at 60 s
      { seq: 3, action: { type: "act", action: "go_to(counter)" }, at: 502_000 },
    ];
    expect(taskTimes(steps, 3, 60_000)).toEqual([65_000, 2000, null]);
  });

  it("belief accuracy: the notes at each step against the world just before it, and at submission", () => {
    const line = miniEpisodeItem();
    const item = ego2worldItemSchema.parse({ public: line.public, key: line.key });
    const steps = [
      { seq: 0, action: {} },
      { seq: 1, action: { type: "act", action: "go_to(drawer)" } },
      { seq: 2, action: { type: "act", action: "pick_up(knife_01)" } },
    ];
    const events = [
      { seq: 0, type: "item_shown", payload: {} },
      { seq: 1, type: "note_added", payload: { object: "bread_01", area: "counter", state: "", confidence: "high", source: "seen", via: "auto" } },
      { seq: 2, type: "play_step", payload: { seq: 1, action: steps[1].action, valid: true } }, // 1 of 1 right
      { seq: 3, type: "note_added", payload: { object: "knife_01", area: "drawer", state: "", confidence: "high", source: "seen", via: "auto" } },
      { seq: 4, type: "play_step", payload: { seq: 2, action: steps[2].action, valid: true } }, // 2 of 2 right (the knife is still in the drawer before step 2)
      { seq: 5, type: "submitted", payload: {} }, // the knife is in the hand now: 1 of 2
    ];
    expect(playBelief(item, steps, events)).toBeCloseTo((1 + 1 + 0.5) / 3, 12);
    const updated = [...events.slice(0, 5), { seq: 5, type: "note_edited", payload: { object: "knife_01", field: "area", value: "hand", via: "click" } }, { seq: 6, type: "submitted", payload: {} }];
    expect(playBelief(item, steps, updated)).toBe(1);
    expect(playBelief(item, steps, [])).toBeNull();
  });
});
