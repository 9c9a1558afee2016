import { describe, expect, it } from "vitest";
import { miniEpisodeItem } from "@/lib/tasks/ego2world-play/__fixtures__/mini-episode-item";
import {
  ego2worldItemSchema,
  ego2worldPlayAnswer,
  ego2worldPlayModule,
  parseEgo2worldAnswer,
  type Ego2worldKey,
  type Ego2worldPublic,
  type Ego2worldState,
  type Ego2worldView,
} from "@/lib/tasks/ego2world-play";
import type { PlayContext, TaskItem } from "@/lib/tasks/types";

function item(mutate?: (line: ReturnType<typeof miniEpisodeItem>) => void): TaskItem<Ego2worldPublic, Ego2worldKey> {
  const line = structuredClone(miniEpisodeItem());
  mutate?.(line);
  const parsed = ego2worldItemSchema.parse({ public: line.public, key: line.key });
  return { id: line.id, kind: line.kind, public: parsed.public, key: parsed.key, tags: line.tags };
}

function issuesOf(mutate: (line: ReturnType<typeof miniEpisodeItem>) => void) {
  const line = structuredClone(miniEpisodeItem());
  mutate(line);
  const result = ego2worldItemSchema.safeParse({ public: line.public, key: line.key });
  return result.success ? [] : result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
}

const context: PlayContext = { assignmentId: "a1", condition: null, settings: {} };
const interactive = ego2worldPlayModule.interactive!;

function play(target: TaskItem<Ego2worldPublic, Ego2worldKey>, actions: Array<{ type: "act"; action: string } | { type: "done" }>, ctx: PlayContext = context) {
  let result = interactive.start(target, ctx) as { state: Ego2worldState; view: Ego2worldView; valid: boolean; message?: string };
  const results = [result];
  actions.forEach((action, i) => {
    result = interactive.step(target, result.state, action, { ...ctx, seq: i + 1 }) as typeof result;
    results.push(result);
  });
  return results;
}

describe("ego2world-play import checks", () => {
  it("accepts a well-formed episode", () => {
    expect(issuesOf(() => {})).toEqual([]);
  });

  it("rejects an episode whose reference is refused, naming task and action", () => {
    const issues = issuesOf((line) => {
      line.key.tasks[1].reference = ["go_to(drawer)", "slice(bread_01, knife_01)"];
    });
    expect(issues).toEqual([
      { path: "key.tasks.1.reference.1", message: 'task "t2", action 2 "slice(bread_01, knife_01)": the reference action is refused (bread_01.area = here)' },
    ]);
  });

  it("rejects an episode whose reference does not reach a goal", () => {
    const issues = issuesOf((line) => {
      line.key.tasks[0].goal.push("here = drawer");
    });
    expect(issues).toEqual([{ path: "key.tasks.0.goal.1", message: 'task "t1": goal "here = drawer" does not hold after the task\'s reference (3 actions)' }]);
  });

  it("rejects key actions the reference never runs", () => {
    const issues = issuesOf((line) => {
      line.key.tasks[0].keyActions.push("pick_up(cup_01)");
    });
    expect(issues[0]).toMatchObject({ path: "key.tasks.0.keyActions", message: expect.stringContaining("not matched: pick_up(cup_01)") });
  });

  it("rejects unreadable rules, reserved parameters, unknown palette actions, task id mismatches and skill cycles", () => {
    const issues = issuesOf((line) => {
      line.key.rules[2].pre.push("x.area == here");
      line.key.rules[3].params = ["here"];
      line.public.actions.push({ name: "juggle", params: ["x"] });
      line.public.tasks[1].id = "t9";
      line.key.skills.push({ name: "loop", params: ["x"], steps: ["loop(x)"] });
    });
    const paths = issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["key.rules.2.pre.3", "key.rules.3.params.0", "public.actions.4", "key.tasks", "key.skills.1.steps"]));
    expect(issues.find((issue) => issue.path === "key.rules.3.params.0")?.message).toContain("reserved");
    expect(issues.find((issue) => issue.path === "public.actions.4")?.message).toContain("juggle(x) has no rule or skill");
  });

  it("needs a go_to rule when there are several areas, and a start area that is the agent's", () => {
    const issues = issuesOf((line) => {
      line.key.rules = line.key.rules.filter((rule) => rule.action !== "go_to");
      line.public.startArea = "drawer";
    });
    expect(issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(["key.rules", "public.startArea"]));
  });
});

describe("ego2world-play public view and play", () => {
  it("the public view holds nothing of the key", () => {
    const view = JSON.stringify(ego2worldPlayModule.publicView(item()));
    for (const secret of ["rules", "goal", "reference", "keyActions", "whole", "hand = knife_01", "bread_slice"]) expect(view).not.toContain(secret);
  });

  it("starts in the start area and shows ids and labels of what is there, never states", () => {
    const [start] = play(item(), []);
    expect(start.view).toEqual({
      area: "counter",
      image: "img/counter.png",
      objects: [
        { id: "bread_01", label: "bread" },
        { id: "cup_01", label: "cup" },
      ],
      hand: null,
      changes: [],
      feedback: null,
      task: 0,
      taskCount: 2,
      instruction: "Get the knife.",
      finished: false,
      steps: 0,
      lastTask: null,
    });
    expect(JSON.stringify(start.view)).not.toMatch(/whole|portable|drawer/);
  });

  it("plays actions on the hidden world, gives the feedback line, and moves on with done", () => {
    const results = play(item(), [
      { type: "act", action: "pick_up(knife_01)" },
      { type: "act", action: "go_to(drawer)" },
      { type: "act", action: "pick_up( knife_01 )" },
      { type: "done" },
      { type: "act", action: "go_to(counter)" },
      { type: "act", action: "slice(bread_01, knife_01)" },
      { type: "done" },
      { type: "act", action: "go_to(drawer)" },
    ]);
    expect(results[1]).toMatchObject({
      valid: false,
      message: "knife_01.area = here",
      view: { feedback: { action: "pick_up(knife_01)", accepted: false, message: "knife_01.area = here" }, steps: 1 },
    });
    expect(results[2].view).toMatchObject({ area: "drawer", objects: [{ id: "knife_01", label: "knife" }] });
    expect(results[3]).toMatchObject({
      valid: true,
      message: "ok",
      view: { hand: { id: "knife_01", label: "knife" }, objects: [], changes: ["knife_01 (knife) was picked up"] },
    });
    expect(results[4]).toMatchObject({ valid: true, view: { task: 1, instruction: "Slice the bread.", steps: 0, feedback: null, lastTask: null } });
    expect(results[6].view.changes).toEqual(["bread_01 (bread) is gone", "bread_slice_01 (bread_slice) is new here"]);
    expect(results[7]).toMatchObject({ valid: true, view: { finished: true, task: 2, instruction: null } });
    expect(results[8]).toMatchObject({ valid: false, message: "every task is done" });
    // the hidden state is the server's: it holds the world, the view does not
    expect(results[6].state.world.objects.bread_slice_01).toBeDefined();
    expect(JSON.stringify(results.map((result) => result.view))).not.toMatch(/"state"|"world"|held/);
  });

  it("tells whether the task's goal held only when the study says so", () => {
    const hidden = play(item(), [{ type: "done" }]);
    expect(hidden[1].view.lastTask).toBeNull();
    const shown = play(item(), [{ type: "done" }], { ...context, settings: { revealSuccess: true } });
    expect(shown[1].view.lastTask).toEqual({ id: "t1", success: false });
  });

  it("refuses malformed actions through its action schema", () => {
    expect(interactive.actionSchema.safeParse({ type: "act", action: "" }).success).toBe(false);
    expect(interactive.actionSchema.safeParse({ type: "teleport" }).success).toBe(false);
    expect(interactive.actionSchema.safeParse({ type: "act", action: "go_to(drawer)", extra: 1 }).success).toBe(false);
  });
});

describe("ego2world-play answers and scores", () => {
  it("rebuilds the answer from the recorded steps, ignoring what the browser claims", () => {
    const steps = [
      { seq: 3, action: { type: "done" }, valid: true },
      { seq: 1, action: { type: "act", action: "go_to(drawer)" }, valid: true },
      { seq: 2, action: { type: "act", action: "pick_up(cup_01)" }, valid: false },
      { seq: 4, action: { type: "act", action: "go_to(counter)" }, valid: true },
      { seq: 5, action: { type: "done" }, valid: true },
      { seq: 6, action: { type: "act", action: "go_to(drawer)" }, valid: false },
      { seq: 7, action: { bogus: true }, valid: false },
    ];
    const claimed = { tasks: [{ id: "t1", actions: ["fetch(knife_01, drawer)"] }] };
    expect(ego2worldPlayAnswer(claimed, steps, item())).toEqual({
      tasks: [
        { id: "t1", actions: ["go_to(drawer)", "pick_up(cup_01)"] },
        { id: "t2", actions: ["go_to(counter)"] },
      ],
    });
  });

  it("scores the key's reference with full marks and says it is correct", () => {
    const target = item();
    const score = ego2worldPlayModule.score(ego2worldPlayModule.keyAnswer!(target.key), target.key, target);
    expect(score).toMatchObject({ TSR: 1, TCR: 1, F1: 1, WSR: 1, validity: 1 });
    expect(ego2worldPlayModule.correct(score)).toBe(true);
    expect(Object.keys(score)).toEqual(["TSR", "TCR", "F1", "WSR", "validity", "tasks"]);
    expect(Object.keys(score.tasks[0])).toEqual(["id", "success", "TCR", "F1", "WSR", "accepted"]);
  });

  it("checks answers against the item's tasks", () => {
    const schema = ego2worldPlayModule.answerSchemaFor!(item());
    expect(schema.safeParse({ tasks: [{ id: "t1", actions: ["go_to(drawer)"] }] }).success).toBe(true);
    expect(schema.safeParse({ tasks: [{ id: "t7", actions: [] }] }).success).toBe(false);
    expect(
      schema.safeParse({
        tasks: [
          { id: "t1", actions: [] },
          { id: "t1", actions: [] },
        ],
      }).success,
    ).toBe(false);
  });

  it("reads agent runs in several shapes", () => {
    const answer = { tasks: [{ id: "t1", actions: ["go_to(drawer)"] }] };
    expect(parseEgo2worldAnswer(answer)).toEqual(answer);
    expect(parseEgo2worldAnswer(JSON.stringify(answer))).toEqual(answer);
    expect(parseEgo2worldAnswer(answer.tasks)).toEqual(answer);
    expect(parseEgo2worldAnswer({ t1: ["go_to(drawer)", "  "] })).toEqual(answer);
    expect(parseEgo2worldAnswer("not json")).toBeNull();
    expect(parseEgo2worldAnswer({ tasks: [{ id: "t1", actions: [1] }] })).toBeNull();
    expect(
      parseEgo2worldAnswer({
        tasks: [
          { id: "t1", actions: [] },
          { id: "t1", actions: [] },
        ],
      }),
    ).toBeNull();
  });

  it("offers task units for agreement: success (nominal) and WSR (interval)", () => {
    const target = item();
    const answer = { tasks: [{ id: "t1", actions: ["fetch(knife_01, drawer)"] }] };
    const score = ego2worldPlayModule.score(answer, target.key, target);
    const [success, wsr] = ego2worldPlayModule.agreementEncodings;
    expect(success.units(answer, { key: target.key, score })).toEqual([
      { unit: "task-t1", value: "success" },
      { unit: "task-t2", value: "fail" },
    ]);
    expect(wsr.units(answer, { key: target.key, score })).toEqual([
      { unit: "task-t1", value: 1 },
      { unit: "task-t2", value: 0 },
    ]);
    expect(success.units(answer)).toEqual([]);
  });

  it("shows reviewers the reference replayed", () => {
    const review = ego2worldPlayModule.reviewView(item()) as { tasks: Array<{ reference: Array<{ accepted: boolean }>; goal: Array<{ holds: boolean }> }> };
    expect(review.tasks.every((task) => task.reference.every((step) => step.accepted) && task.goal.every((goal) => goal.holds))).toBe(true);
  });
});
