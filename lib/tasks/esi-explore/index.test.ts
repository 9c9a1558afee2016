import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import {
  esiExploreModule,
  esiItemSchema,
  esiSettingsSchema,
  parseEsiModelAnswer,
  scoreEsi,
  type EsiKey,
  type EsiPlayState,
  type EsiPublic,
} from "@/lib/tasks/esi-explore";
import type { PlayContext, TaskItem } from "@/lib/tasks/types";

const rawItem = {
  public: { question: "Is there a ball under the mug?", options: ["Yes", "No"], initialImage: "img/s0.png", maxSteps: 3 },
  key: {
    answer: "Yes",
    graph: {
      initial: "s0",
      states: {
        s0: { image: "img/s0.png", objects: ["mug_1", "table_2"], viewpoint: "v0" },
        s1: { image: "img/s1.png", objects: ["table_2"], viewpoint: "v1" },
        s3: { image: "img/s3.png", objects: ["ball_1"], holding: ["mug_1"], viewpoint: "v0", contrastive: true },
      },
      edges: { s0: { move_forward: "s1", "pick_up(mug_1)": "s3" }, s1: { move_backward: "s0" }, s3: {} },
    },
    views: { gt: ["img/s3.png"], multi: ["img/s1.png", "img/s3.png"] },
  },
};

function itemOf(raw: unknown = rawItem): TaskItem<EsiPublic, EsiKey> {
  const parsed = esiItemSchema.parse(raw);
  return { id: "ball-1", kind: "esi-explore", public: parsed.public, key: parsed.key, tags: { category: "Perceptual Grounding" } };
}

const context = (condition: string | null, settings: Record<string, unknown> = {}): PlayContext => ({ assignmentId: "a1", condition, settings });
const interactive = esiExploreModule.interactive!;

describe("esi-explore items", () => {
  it("accepts a list question and a question with parts, and checks the answer against the options", () => {
    expect(() => itemOf()).not.toThrow();
    const parts = esiItemSchema.safeParse({
      public: { question: "left or right?", options: { A: ["right", "left"], C: ["left", "right"] }, initialImage: "a.png" },
      key: { answer: { A: "right", C: "left" } },
    });
    expect(parts.success).toBe(true);
    expect(parts.data!.public.maxSteps).toBe(30);

    const wrong = esiItemSchema.safeParse({
      public: { question: "q", options: { A: ["right", "left"] }, initialImage: "a.png" },
      key: { answer: { A: "up" } },
    });
    expect(wrong.error!.issues[0]).toMatchObject({ path: ["key", "answer", "A"], message: expect.stringContaining('"up" is not one of part A') });
    const shape = esiItemSchema.safeParse({ public: { question: "q", options: ["Yes", "No"], initialImage: "a.png" }, key: { answer: { A: "Yes" } } });
    expect(shape.error!.issues[0].message).toContain("expected one of the options");
    const image = esiItemSchema.safeParse({ ...rawItem, public: { ...rawItem.public, initialImage: "img/other.png" } });
    expect(image.error!.issues[0]).toMatchObject({ path: ["key", "graph", "initial"], message: expect.stringContaining("must be public.initialImage") });
  });

  it("shows annotators the question, the options, the budget and the first view only: never the graph", () => {
    const view = esiExploreModule.publicView(itemOf());
    expect(view).toEqual({
      question: "Is there a ball under the mug?",
      options: ["Yes", "No"],
      initialImage: "img/s0.png",
      initialObjects: ["mug_1", "table_2"],
      maxSteps: 3,
    });
    const text = JSON.stringify(view);
    for (const secret of ["img/s1.png", "img/s3.png", "ball_1", "contrastive", "viewpoint", "edges", '"answer"']) expect(text).not.toContain(secret);
  });

  it("maps every image of the item, in public and in the key", () => {
    const mapped = esiExploreModule.mapImages({ public: itemOf().public, key: itemOf().key }, (ref) => `/api/assets/${ref}`);
    expect(mapped.public.initialImage).toBe("/api/assets/img/s0.png");
    expect(Object.values(mapped.key.graph!.states).map((s) => s.image)).toEqual(["/api/assets/img/s0.png", "/api/assets/img/s1.png", "/api/assets/img/s3.png"]);
    expect(mapped.key.views).toEqual({ gt: ["/api/assets/img/s3.png"], multi: ["/api/assets/img/s1.png", "/api/assets/img/s3.png"] });
  });
});

describe("esi-explore scoring", () => {
  it("is correct iff every part equals the key, trimmed and case-insensitive, with per-part accuracy", () => {
    const key = { answer: { A: "right", C: "left" } } as EsiKey;
    expect(scoreEsi({ choice: { A: "right", C: "left" } }, key)).toEqual({ correct: true, partsCorrect: 2, parts: 2 });
    expect(scoreEsi({ choice: { A: "right", C: "right" } }, key)).toEqual({ correct: false, partsCorrect: 1, parts: 2 });
    expect(scoreEsi({ choice: "right" }, key)).toEqual({ correct: false, partsCorrect: 0, parts: 2 });
    expect(scoreEsi({ choice: " yes. " }, { answer: "Yes" } as EsiKey)).toEqual({ correct: true, partsCorrect: 1, parts: 1 });
    expect(
      esiExploreModule.aggregate([
        { correct: true, partsCorrect: 2, parts: 2 },
        { correct: false, partsCorrect: 1, parts: 2 },
        { correct: false, partsCorrect: 0, parts: 1 },
      ]),
    ).toEqual({ accuracy: 1 / 3, partAccuracy: 3 / 5 });
    expect(esiExploreModule.aggregate([])).toEqual({ accuracy: null, partAccuracy: null });
  });

  it("holds annotators to the options, and rebuilds the step count from the server's record", () => {
    const schema = esiExploreModule.answerSchemaFor!(itemOf());
    expect(schema.safeParse({ choice: "Yes" }).success).toBe(true);
    expect(schema.safeParse({ choice: "Maybe" }).success).toBe(false);
    const played = esiExploreModule.playAnswer!(
      { choice: "Yes", steps: 99, condition: "active" },
      [
        { seq: 1, action: {}, valid: true },
        { seq: 2, action: {}, valid: false },
      ],
      itemOf(),
    );
    expect(played).toEqual({ choice: "Yes", steps: 2 });
  });

  it("reads model answers in Yardstick's and the release's shapes", () => {
    expect(parseEsiModelAnswer({ choice: "No", confidence: 0.7, steps: 12, condition: "active" })).toEqual({
      choice: "No",
      confidence: 0.7,
      steps: 12,
      condition: "active",
    });
    expect(parseEsiModelAnswer('{"answer_A":"right","answer_C":"left"}')).toEqual({ choice: { A: "right", C: "left" } });
    expect(parseEsiModelAnswer({ answer: "Yes", confidence: 0.9, condition: "passive-gt" })).toEqual({
      choice: "Yes",
      confidence: 0.9,
      condition: "passive-gt",
    });
    expect(parseEsiModelAnswer("Answer: 3")).toEqual({ choice: "3" });
    expect(parseEsiModelAnswer("")).toBeNull();
    expect(parseEsiModelAnswer(42)).toBeNull();
  });

  it("gives agreement units for whole answers and for parts", () => {
    const [whole, parts] = esiExploreModule.agreementEncodings;
    expect(whole.units({ choice: { C: "left", A: "right" } })).toEqual([{ unit: "", value: "A=right; C=left" }]);
    expect(parts.units({ choice: { C: "left", A: "right" } })).toEqual([
      { unit: "part-A", value: "right" },
      { unit: "part-C", value: "left" },
    ]);
  });
});

describe("esi-explore episodes", () => {
  it("plays the graph: the next state's image and objects only, refused actions in place, the budget", async () => {
    const item = itemOf();
    const start = await interactive.start(item, context(null));
    expect(start.view).toEqual({ mode: "active", source: "graph", image: "img/s0.png", objects: ["mug_1", "table_2"], holding: [], step: 0, maxSteps: 3 });
    let state = start.state as EsiPlayState;

    const refused = await interactive.step(item, state, { name: "turn_left", args: [] }, { ...context(null), seq: 1 });
    expect(refused).toMatchObject({ valid: false, message: "cannot do that here", view: { image: "img/s0.png", step: 1 } });
    state = refused.state as EsiPlayState;

    const lifted = await interactive.step(item, state, { name: "pick_up", args: ["mug_1"] }, { ...context(null), seq: 2 });
    expect(lifted.valid).toBe(true);
    expect(lifted.view).toEqual({ mode: "active", source: "graph", image: "img/s3.png", objects: ["ball_1"], holding: ["mug_1"], step: 2, maxSteps: 3 });
    state = lifted.state as EsiPlayState;
    expect(state).toMatchObject({ mode: "graph", node: "s3", steps: 2, invalid: 1 });
    expect((state as Extract<EsiPlayState, { mode: "graph" }>).trace.map((t) => [t.seq, t.node, t.viewpoint, t.contrastive, t.valid])).toEqual([
      [0, "s0", "v0", false, true],
      [1, "s0", "v0", false, false],
      [2, "s3", "v0", true, true],
    ]);

    const third = await interactive.step(item, state, { name: "move_forward", args: [] }, { ...context(null), seq: 3 });
    expect(third).toMatchObject({ valid: false, view: { step: 3 } });
    await expect(interactive.step(item, third.state as EsiPlayState, { name: "move_forward", args: [] }, { ...context(null), seq: 4 })).rejects.toThrow(
      "The step budget of 3 is used up: give your final answer.",
    );
  });

  it("starts each passive condition with its views, and refuses actions there", async () => {
    const item = itemOf();
    expect((await interactive.start(item, context("passive-single"))).view).toEqual({ mode: "passive-single", images: ["img/s0.png"] });
    expect((await interactive.start(item, context("passive-gt"))).view).toEqual({ mode: "passive-gt", images: ["img/s0.png", "img/s3.png"] });
    expect((await interactive.start(item, context("passive-multi"))).view).toEqual({
      mode: "passive-multi",
      images: ["img/s0.png", "img/s1.png", "img/s3.png"],
    });
    const withoutViews = itemOf({ ...rawItem, key: { ...rawItem.key, views: undefined } });
    const walked = (await interactive.start(withoutViews, context("passive-multi"))).view as { images: string[] };
    expect(walked.images[0]).toBe("img/s0.png");
    expect(walked.images.every((image) => ["img/s0.png", "img/s1.png", "img/s3.png"].includes(image))).toBe(true);
    expect((await interactive.start(withoutViews, context("passive-gt"))).view).toEqual({
      mode: "passive-gt",
      images: ["img/s0.png"],
      note: "This item has no reference views: answer from the initial view.",
    });

    const passive = await interactive.start(item, context("passive-gt"));
    await expect(
      interactive.step(item, passive.state as EsiPlayState, { name: "move_forward", args: [] }, { ...context("passive-gt"), seq: 1 }),
    ).rejects.toThrow("no exploring");
    await expect(interactive.start(item, context("sideways"))).rejects.toBeInstanceOf(AppError);
  });

  it("plays an item without a graph as its first view alone", async () => {
    const item = itemOf({ public: rawItem.public, key: { answer: "Yes" } });
    const start = await interactive.start(item, context("active"));
    expect(start.view).toMatchObject({ mode: "active", image: "img/s0.png", objects: [], note: expect.stringContaining("no exploration graph") });
    const step = await interactive.step(item, start.state as EsiPlayState, { name: "move_forward", args: [] }, { ...context("active"), seq: 1 });
    expect(step).toMatchObject({ valid: false, message: "cannot do that here" });
  });

  it("checks the study settings", () => {
    expect(esiSettingsSchema.safeParse({ simulatorUrl: "http://sim.local:8000" }).success).toBe(true);
    expect(esiSettingsSchema.safeParse({ simulatorUrl: "ftp://sim.local" }).success).toBe(false);
    expect(esiSettingsSchema.safeParse({ simulatorUrl: "http://sim.local", timeoutMs: 20_000, retries: 3 }).success).toBe(false);
    expect(esiSettingsSchema.safeParse({ unknown: 1 }).success).toBe(false);
  });
});
