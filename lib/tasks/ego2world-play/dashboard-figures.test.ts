import { describe, expect, it } from "vitest";
import { miniEpisode } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode";
import { miniEpisodeItem } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode-item";
import { scoreEpisode, type EpisodeAnswer } from "@/lib/tasks/ego2world-play/metrics";
import { agentDifferences, ego2worldFigures, egoRow, playBelief, taskTimes, unitsOf, type EgoPlay } from "@/lib/tasks/ego2world-play/dashboard-figures";
import { ego2worldItemSchema } from "@/lib/tasks/ego2world-play";

const perfect: EpisodeAnswer = {
  tasks: [
    { id: "t1", actions: ["go_to(drawer)", "pick_up(knife_01)", "go_to(counter)"] },
    { id: "t2", actions: ["slice(bread_01, knife_01)"] },
  ],
};
const stuck: EpisodeAnswer = {
  tasks: [
    { id: "t1", actions: ["pick_up(knife_01)", "go_to(drawer)", "pick_up(knife_01)"] },
    { id: "t2", actions: ["slice(bread_01, knife_01)", "slice(bread_01, knife_01)"] },
  ],
};
const play = (participant: string, answer: EpisodeAnswer, extra: Partial<EgoPlay> = {}): EgoPlay => ({
  participant,
  item: "ep",
  answer,
  score: scoreEpisode(miniEpisode(), answer),
  ...extra,
});

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
    const row = egoRow("pooled", "Humans (pooled)", "pooled", [
      play("a", perfect, { taskMs: [1000, 3000], belief: 1 }),
      play("b", stuck, { taskMs: [4000, null], belief: 0.5 }),
    ]);
    expect(row).toMatchObject({
      episodes: 1,
      tasks: 4,
      TSR: 0.75,
      TCR: 0.75,
      WSR: 0.75,
      validity: 6 / 9,
      replan: 0.25,
      steps: 9 / 4,
      timeMs: 8000 / 3,
      belief: 0.75,
    });
  });

  it("pairs humans and each agent on the same task units", () => {
    const humans = [play("a", perfect), play("b", stuck)];
    const agent = [play("model:r1", stuck)];
    const byMetric = Object.fromEntries(agentDifferences(humans, agent).map((m) => [m.metric, m]));
    // over the 4 (play, unit) pairs, humans' success (1, 1, 1, 0) vs the agent's on the same units (1, 0, 1, 0)
    expect(byMetric.TSR).toMatchObject({ n: 4, people: 2, meanA: 0.75, meanB: 0.5, difference: 0.25 });
    expect(byMetric.steps).toMatchObject({ n: 4, difference: (3 + 1.5) / 2 - (3 + 2) / 2 });
    const figures = ego2worldFigures(
      [...humans, ...agent],
      [
        { id: "a", name: "P1" },
        { id: "b", name: "P2" },
        { id: "c", name: "P3" },
      ],
      [{ id: "r1", name: "Agent" }],
      [
        { item: "ep", task: "t1", instruction: "Get the knife." },
        { item: "ep", task: "t2", instruction: "Slice." },
      ],
    );
    expect(figures.rows.map((row) => [row.name, row.group, row.TSR])).toEqual([
      ["P1", "annotator", 1],
      ["P2", "annotator", 0.5],
      ["Humans (pooled)", "pooled", 0.75],
      ["Agent", "agent", 0.5],
    ]);
    expect(figures.differences).toHaveLength(1);
    // both task units are of one episode: nothing of how episodes vary, so no interval
    expect(byMetric.TSR).toMatchObject({ clusters: 1, ci: null, reason: "one item" });
    expect(figures.tasks[1]).toEqual({
      item: "ep",
      task: "t2",
      instruction: "Slice.",
      humans: { plays: 2, TSR: 0.5, steps: 1.5, timeMs: null },
      agents: [{ id: "r1", success: false, steps: 2 }],
    });
  });

  it("clusters by episode: units of one episode stay together; one person says so in words over people", () => {
    const humans: EgoPlay[] = [];
    const agent: EgoPlay[] = [];
    for (let e = 0; e < 5; e++) {
      humans.push(play("a", e % 2 === 0 ? perfect : stuck, { item: `ep${e}` }));
      agent.push(play("model:r1", e < 2 ? perfect : stuck, { item: `ep${e}` }));
    }
    const TSR = agentDifferences(humans, agent, "items").find((m) => m.metric === "TSR")!;
    expect(TSR).toMatchObject({ n: 10, clusters: 5, method: expect.stringMatching(/^paired difference over episodes/) });
    expect(TSR.ci).not.toBeNull();
    expect(agentDifferences(humans, agent).find((m) => m.metric === "TSR")).toMatchObject({ ci: null, reason: "one person" });
  });

  it("hand-worked: people differ wholly, episodes not at all: the interval over people and episodes, where the episode bootstrap had no spread", () => {
    // 10 episodes; p and q play perfectly (TSR 1, 1), r and s get stuck (1, 0); the agent plays perfectly
    const humans: EgoPlay[] = [];
    const agent: EgoPlay[] = [];
    for (let e = 0; e < 10; e++) {
      for (const who of ["p", "q", "r", "s"]) humans.push(play(who, who === "p" || who === "q" ? perfect : stuck, { item: `ep${e}` }));
      agent.push(play("model:r1", perfect, { item: `ep${e}` }));
    }
    // D = -2/8 = -0.25; each person's residuals sum +-5 over their 20 units, every episode's to 0:
    // V = V_people = (4/3) 4 x 25 / 80^2 = 1/48; t(3) = 3.1824; D +- 3.1824 / sqrt(48) = [-0.7093, 0.2093]
    const TSR = agentDifferences(humans, agent).find((m) => m.metric === "TSR")!;
    expect(TSR).toMatchObject({ n: 80, clusters: 10, people: 4, df: 3 });
    expect(TSR.difference).toBeCloseTo(-0.25, 12);
    expect(TSR.ci![0]).toBeCloseTo(-0.70934, 4);
    expect(TSR.ci![1]).toBeCloseTo(0.20934, 4);
    // over episodes only every episode's difference is the same: no interval, as the paired bootstrap over episodes gave
    expect(agentDifferences(humans, agent, "items").find((m) => m.metric === "TSR")).toMatchObject({ ci: null, reason: "no spread: every episode the same" });
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
    const updated = [
      ...events.slice(0, 5),
      { seq: 5, type: "note_edited", payload: { object: "knife_01", field: "area", value: "hand", via: "click" } },
      { seq: 6, type: "submitted", payload: {} },
    ];
    expect(playBelief(item, steps, updated)).toBe(1);
    expect(playBelief(item, steps, [])).toBeNull();
  });
});
