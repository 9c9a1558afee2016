import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { agentAnswerSchema, agentContractOf, answerJsonSchema, playAdviceOf } from "@/lib/tasks/agent-contract";
import { getTaskModule, kindSettings, taskKinds } from "@/lib/tasks";
import type { AnyTaskModule, Json, PlayContext, TaskItem } from "@/lib/tasks/types";
import { jsonSchemaProblems } from "@/tests/json-schema-check";
import { kindFixtureBuilder, type KindFixture } from "../../e2e/kind-fixtures";

const exampleActionOf = (kindModule: AnyTaskModule, view: Json, playView: Json, steps: number) => playAdviceOf(kindModule, view, playView, steps).exampleAction;

const fakeImage = async (name: string) => `/api/assets/${createHash("sha256").update(name).digest("hex")}`;

/** A kind's fixture item (e2e/kind-fixtures.ts, one per registered kind), parsed as the importer stores it. */
async function fixtureItem(kind: string): Promise<{ item: TaskItem; fixture: KindFixture }> {
  const fixture = await kindFixtureBuilder(kind)("AgentContract42", fakeImage);
  const kindModule = getTaskModule(kind);
  const parsed = kindModule.itemSchema
    ? kindModule.itemSchema.parse({ public: fixture.public, key: fixture.key })
    : { public: kindModule.publicSchema.parse(fixture.public), key: kindModule.keySchema.parse(fixture.key) };
  return { item: { id: `agent-${kind}`, kind, public: parsed.public, key: parsed.key, tags: {} }, fixture };
}

/** The answer as the server stores it: an interactive kind's playAnswer first (no steps played), then the strict per-item schema. */
function strictParse(kindModule: AnyTaskModule, item: TaskItem, settings: Record<string, unknown>, answer: unknown) {
  const stored = kindModule.playAnswer ? kindModule.playAnswer(answer, [], item) : answer;
  return (kindModule.answerSchemaFor ? kindModule.answerSchemaFor(item, settings) : kindModule.answerSchema).safeParse(stored);
}

describe("the agent contract of every registered kind", () => {
  for (const kind of taskKinds) {
    it(`${kind}: its example answer, from the public view alone, is valid for the item and for the published JSON Schema; nothing of the key in it`, async () => {
      const { item, fixture } = await fixtureItem(kind);
      const kindModule = getTaskModule(kind);
      const settings = kindSettings({}, kind);
      const view = kindModule.publicView(item, settings);
      const contract = agentContractOf(kindModule, view, settings);

      expect(kindModule.agent, `${kind} publishes no agent contract (TaskModule.agent)`).toBeDefined();
      expect(contract.answerInstructions.length).toBeGreaterThan(20);
      expect(contract.interactive).toBe(kindModule.interactive !== undefined);
      expect(JSON.parse(JSON.stringify(contract))).toEqual(contract);
      expect(contract.answerSchema).toEqual(z.toJSONSchema(agentAnswerSchema(kindModule, settings), { io: "output", unrepresentable: "any" }));

      expect(contract.exampleAnswer, `${kind}: no example answer`).not.toBeNull();
      const strict = strictParse(kindModule, item, settings, contract.exampleAnswer);
      expect(strict.success, JSON.stringify(strict.error?.issues)).toBe(true);
      expect(jsonSchemaProblems(contract.answerSchema, contract.exampleAnswer)).toEqual([]);
      // the published schema refuses what the kind refuses, at least in shape
      expect(jsonSchemaProblems(contract.answerSchema, { notAnAnswer: true }).length).toBeGreaterThan(0);

      const text = JSON.stringify(contract);
      for (const secret of fixture.secrets) expect(text, `secret ${secret}`).not.toContain(secret);
      for (const fragment of fixture.forbidden ?? []) expect(text).not.toContain(fragment);
    });
  }

  for (const kind of taskKinds.filter((k) => getTaskModule(k).interactive)) {
    it(`${kind}: its example actions, from the public and play views, are valid actions and the published action schema takes them, until it stops`, async () => {
      const { item, fixture } = await fixtureItem(kind);
      const kindModule = getTaskModule(kind);
      const interactive = kindModule.interactive!;
      const settings = kindSettings({}, kind);
      const view = kindModule.publicView(item, settings);
      const contract = agentContractOf(kindModule, view, settings);
      expect(contract.actionSchema).not.toBeNull();
      expect(contract.actionInstructions?.length).toBeGreaterThan(20);

      const context: PlayContext = { assignmentId: "a1", condition: null, settings };
      let result = await interactive.start(item, context);
      const played: unknown[] = [];
      for (let steps = 0; steps < 100; steps++) {
        const { canAct, exampleAction: action } = playAdviceOf(kindModule, view, result.view as Json, steps);
        if (action === null) break;
        expect(canAct).toBe(true);
        expect(interactive.actionSchema.safeParse(action).success, JSON.stringify(action)).toBe(true);
        expect(jsonSchemaProblems(contract.actionSchema!, action)).toEqual([]);
        played.push(action);
        result = await interactive.step(item, result.state, interactive.actionSchema.parse(action), { ...context, seq: steps + 1 });
      }
      expect(played.length).toBeGreaterThan(0);
      expect(played.length, "the example policy stops").toBeLessThan(100);
      const text = JSON.stringify(played);
      for (const secret of fixture.secrets) expect(text).not.toContain(secret);
    });
  }

  it("ESI: three fixed moves within the budget, none in a passive condition; the first option of each part", async () => {
    const esi = getTaskModule("esi-explore");
    const active = { mode: "active", maxSteps: 30 };
    expect([0, 1, 2, 3].map((steps) => exampleActionOf(esi, {}, active, steps))).toEqual([
      { name: "turn_left", args: [] },
      { name: "turn_left", args: [] },
      { name: "move_forward", args: [] },
      null,
    ]);
    expect([0, 1, 2].map((steps) => exampleActionOf(esi, {}, { mode: "active", maxSteps: 2 }, steps))).toEqual([
      { name: "turn_left", args: [] },
      { name: "turn_left", args: [] },
      null,
    ]);
    expect(playAdviceOf(esi, {}, { mode: "passive-gt", images: [] }, 0)).toEqual({ canAct: false, exampleAction: null });
    // an agent may act on after the example stops, up to the budget
    expect([3, 29, 30].map((steps) => playAdviceOf(esi, {}, active, steps).canAct)).toEqual([true, true, false]);
    expect(agentContractOf(esi, {}, {}).answerFromActions).toBe(false);
    const view = { question: "Where?", options: { A: ["left", "right"], B: ["up", "down"] }, initialImage: "x", initialObjects: [], maxSteps: 30 };
    expect(agentContractOf(esi, view, {}).exampleAnswer).toEqual({ choice: { A: "left", B: "up" } });
  });

  it("Ego2World: picks up the first thing in view once per task, then says done, and stops when every task is done", () => {
    const ego = getTaskModule("ego2world-play");
    expect(exampleActionOf(ego, {}, { finished: false, steps: 0, objects: [{ id: "cup_1", label: "cup" }] }, 0)).toEqual({
      type: "act",
      action: "pick_up(cup_1)",
    });
    expect(exampleActionOf(ego, {}, { finished: false, steps: 1, objects: [{ id: "cup_1", label: "cup" }] }, 1)).toEqual({ type: "done" });
    expect(exampleActionOf(ego, {}, { finished: false, steps: 0, objects: [] }, 2)).toEqual({ type: "done" });
    expect(playAdviceOf(ego, {}, { finished: true, steps: 0, objects: [] }, 3)).toEqual({ canAct: false, exampleAction: null });
    expect(playAdviceOf(ego, {}, { finished: false, steps: 5, objects: [] }, 40).canAct).toBe(true);
    expect(agentContractOf(ego, {}, {})).toMatchObject({ answerFromActions: true, exampleAnswer: { tasks: [] } });
  });

  it("EXPLORE in a free-text study: the free-text answer's schema and a text example", async () => {
    const { item } = await fixtureItem("explore-scene");
    const explore = getTaskModule("explore-scene");
    const settings = kindSettings({ "explore-scene": { freeText: true } }, "explore-scene");
    const contract = agentContractOf(explore, explore.publicView(item, settings), settings);
    expect(contract.exampleAnswer).toMatchObject({ objects: [], text: expect.any(String) });
    expect(explore.answerSchemaFor!(item, settings).safeParse(contract.exampleAnswer).success).toBe(true);
    expect(jsonSchemaProblems(contract.answerSchema, contract.exampleAnswer)).toEqual([]);
    // the structured study's schema refuses it (at least one object), the free-text one takes it
    expect(jsonSchemaProblems(agentContractOf(explore, explore.publicView(item, {}), {}).answerSchema, contract.exampleAnswer).length).toBeGreaterThan(0);
  });

  it("a kind without an agent part gets the JSON Schema of its answer, its title as instructions and no example", () => {
    const bare = { ...getTaskModule("numeric"), kind: "bare", title: "Bare kind", agent: undefined } as AnyTaskModule;
    const contract = agentContractOf(bare, { question: "?" }, {});
    expect(contract).toEqual({
      interactive: false,
      answerSchema: answerJsonSchema(bare.answerSchema),
      actionSchema: null,
      answerInstructions: "Bare kind: answer with a JSON object that matches answerSchema.",
      actionInstructions: null,
      exampleAnswer: null,
      answerFromActions: false,
    });
    expect(playAdviceOf(bare, {}, {}, 0)).toEqual({ canAct: false, exampleAction: null });
    // an interactive kind without an agent part: it may act (until the agent answers), with no example
    const bareInteractive = { ...getTaskModule("esi-explore"), agent: undefined } as AnyTaskModule;
    expect(playAdviceOf(bareInteractive, {}, { mode: "passive-gt" }, 0)).toEqual({ canAct: true, exampleAction: null });
    expect(agentContractOf(bareInteractive, {}, {})).toMatchObject({
      interactive: true,
      actionInstructions: null,
      exampleAnswer: null,
      answerFromActions: false,
    });
  });
});

describe("the test's JSON Schema checker", () => {
  it("checks what it is given, and refuses keywords it does not know", () => {
    const schema = answerJsonSchema(
      z.strictObject({
        n: z.number().int().min(1).max(3),
        s: z.enum(["a", "b"]),
        t: z.tuple([z.string().min(2)]),
        o: z.record(z.string().regex(/^x/), z.boolean()).optional(),
      }),
    );
    expect(jsonSchemaProblems(schema, { n: 2, s: "a", t: ["ab"], o: { x1: true } })).toEqual([]);
    expect(jsonSchemaProblems(schema, { n: 2.5, s: "c", t: ["a"], o: { y: 1 }, extra: 1 })).toHaveLength(6);
    expect(jsonSchemaProblems(schema, { s: "a", t: ["ab"] })).toEqual(["$: n is required"]);
    expect(() => jsonSchemaProblems({ type: "string", format: "uuid" }, "x")).toThrow(/unknown keyword format/);
  });
});
