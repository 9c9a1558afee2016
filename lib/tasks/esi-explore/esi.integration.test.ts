import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { getAssignmentView } from "@/lib/annotate/assignment-view";
import { recordEvents } from "@/lib/responses/events";
import { getPlay, playStep } from "@/lib/annotate/play";
import { submitResponse } from "@/lib/responses/responses";
import { buildEsiDemo, type EsiDemoItem } from "@/scripts/demo-data/esi/esi-scenes";
import { kindDashboardData } from "@/lib/dashboard/kind-dashboard-data";
import { loadEsiSection } from "@/lib/tasks/esi-explore/dashboard";
import { ALL, pooledConditionLabels } from "@/lib/dashboard/accuracy";
import { getAnnotatorsOverview } from "@/lib/dashboard/annotators";
import { clearDashboardCaches } from "@/lib/dashboard/snapshot";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import { importModelRun } from "@/lib/models/runs";
import { agentRuns } from "@/lib/dashboard/agents";
import { getReplaySteps, setStepLabel } from "@/lib/tasks/esi-explore/replay";
import { replayData } from "@/lib/annotate/research";
import { esiItemSchema } from "@/lib/tasks/esi-explore";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TrajectoryEvent } from "@/lib/validations/annotate";
import { startFakeSimulator, type FakeSimulator } from "@/tests/fixtures/esi-simulator";
import { addMember, createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

const demo = buildEsiDemo();
const kitchen = demo.items.find((item) => item.id === "esi-demo-kitchen-apples")!;
const t0 = Date.UTC(2026, 10, 23, 9, 0, 0);
const IMAGE = /img\/[a-z-]+\/[A-Za-z0-9_-]+\.png/g;

/** Every graph image named in a response. */
const imagesIn = (response: unknown) => new Set(JSON.stringify(response).match(IMAGE) ?? []);
/** keys of the key and of the hidden state, as they would appear in JSON */
const GRAPH_WORDS = ['"graph":', '"edges":', '"states":', '"contrastive":', '"viewpoint":', '"trace":', '"node":', '"episodeId":', '"views":', '"playState":'];

async function esiStudy(conditions: string[] = ["passive-single", "passive-multi", "passive-gt", "active"], taskSettings: Prisma.InputJsonValue = {}) {
  const study = await createStudy();
  await db.study.update({ where: { id: study.id }, data: { conditions, taskSettings, confidenceScale: "PERCENT" } });
  const batch = await db.batch.create({ data: { studyId: study.id, fileName: "esi.jsonl", checksum: `esi-${Math.random()}`, itemCount: 1 } });
  return { study, batch };
}

async function esiItem(studyId: string, batchId: string, demoItem: EsiDemoItem = kitchen) {
  const parsed = esiItemSchema.parse({ public: demoItem.public, key: demoItem.key });
  return db.item.create({
    data: {
      studyId,
      batchId,
      externalId: demoItem.id,
      kind: "esi-explore",
      public: parsed.public as Prisma.InputJsonValue,
      key: parsed.key as Prisma.InputJsonValue,
      tags: demoItem.tags,
      contentHash: demoItem.id,
    },
  });
}

async function annotatorWith(studyId: string, itemId: string, condition: string | null) {
  const annotator = await createUser("ANNOTATOR");
  await addMember(studyId, annotator.id);
  const assignment = await db.assignment.create({ data: { studyId, itemId, userId: annotator.id, position: 0, condition } });
  return { annotator, assignment };
}

function event(assignmentId: string, seq: number, type: TrajectoryEvent["type"], payload: unknown, seconds: number): TrajectoryEvent {
  return { assignmentId, seq, type, clientTime: t0 + seconds * 1000, payload } as TrajectoryEvent;
}

const move = (name: string, args: string[] = []) => ({ name, args });

describe("ESI-Bench play: secrecy, invalid actions, budget, beliefs", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("never sends another state's image, the graph or the answer to the annotator, step after step", async () => {
    const { study, batch } = await esiStudy();
    const item = await esiItem(study.id, batch.id);
    const { annotator, assignment } = await annotatorWith(study.id, item.id, "active");
    const graph = kitchen.key.graph;
    const initialImage = graph.states[graph.initial].image;

    const view = await getAssignmentView(assignment.id, annotator.id);
    expect([...imagesIn(view)]).toEqual([initialImage]);
    for (const word of [...GRAPH_WORDS, '"answer":']) expect(JSON.stringify(view)).not.toContain(word);

    const start = await getPlay(annotator.id, assignment.id);
    expect(start.view).toEqual({
      mode: "active",
      source: "graph",
      image: initialImage,
      objects: graph.states[graph.initial].objects,
      holding: [],
      step: 0,
      maxSteps: 30,
    });

    // walk: refused moves, a pick-up that shows the hidden apple, turns; each reply shows the current state alone
    const actions = [
      move("move_forward"),
      move("turn_up"),
      move("pick_up", ["bowl_1"]),
      move("turn_right"),
      move("turn_left"),
      move("put_on", ["bowl_1", "table_1"]),
    ];
    let node = graph.initial;
    for (const [index, action] of actions.entries()) {
      const ack = await playStep(annotator.id, assignment.id, { seq: index + 1, action });
      const edge = graph.edges[node][action.args.length ? `${action.name}(${action.args.join(",")})` : action.name];
      expect(ack.valid).toBe(edge !== undefined);
      if (edge) node = edge;
      else expect(ack.message).toBe("cannot do that here");
      expect([...imagesIn(ack)]).toEqual([graph.states[node].image]);
      for (const word of GRAPH_WORDS) expect(JSON.stringify(ack)).not.toContain(word);
    }
    expect(node).toBe(graph.initial);

    const resumed = await getPlay(annotator.id, assignment.id);
    expect(resumed.seq).toBe(actions.length);
    expect([...imagesIn(resumed)]).toEqual([initialImage]);
    expect(resumed.steps.map((step) => step.valid)).toEqual([false, false, true, true, true, true]);
    for (const word of GRAPH_WORDS) expect(JSON.stringify(resumed)).not.toContain(word);

    const ack = await submitResponse(annotator.id, {
      assignmentId: assignment.id,
      clientId: randomUUID(),
      answer: { choice: "5" },
      confidence: 90,
      wallMs: 1000,
      activeMs: 1000,
      submitSeq: 0,
    });
    expect(ack).not.toHaveProperty("feedback");
    expect(imagesIn(ack).size).toBe(0);
    for (const word of [...GRAPH_WORDS, '"answer":']) expect(JSON.stringify(ack)).not.toContain(word);
    // the stored answer counts the steps the server recorded
    const stored = await db.response.findUniqueOrThrow({ where: { assignmentId: assignment.id }, select: { answer: true, correct: true, confidence: true } });
    expect(stored).toEqual({ answer: { choice: "5", steps: 6 }, correct: true, confidence: 0.9 });
    await expect(playStep(annotator.id, assignment.id, { seq: 7, action: move("turn_left") })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("stores belief events with their steps, and replays them for researchers with the step views", async () => {
    const { study, batch } = await esiStudy();
    const item = await esiItem(study.id, batch.id);
    const { annotator, assignment } = await annotatorWith(study.id, item.id, "active");
    await getPlay(annotator.id, assignment.id);
    await playStep(annotator.id, assignment.id, { seq: 1, action: move("pick_up", ["bowl_1"]) });
    await playStep(annotator.id, assignment.id, { seq: 2, action: move("turn_right") });
    const trajectory = [
      event(assignment.id, 0, "item_shown", { kind: "esi-explore", resumed: false }, 0),
      event(assignment.id, 1, "belief_changed", { choice: "3", confidence: null, step: 0, via: "keyboard" }, 2),
      event(assignment.id, 2, "belief_changed", { choice: "3", confidence: 60, step: 0, via: "slider" }, 3),
      event(assignment.id, 3, "play_step", { seq: 1, action: move("pick_up", ["bowl_1"]), valid: true }, 5),
      event(assignment.id, 4, "belief_changed", { choice: "4", confidence: 60, step: 1, via: "click" }, 6),
      event(assignment.id, 5, "play_step", { seq: 2, action: move("turn_right"), valid: true }, 8),
      event(assignment.id, 6, "belief_changed", { choice: "5", confidence: 85, step: 2, via: "keyboard" }, 9),
    ];
    expect(await recordEvents(annotator.id, trajectory)).toEqual({ acked: { [assignment.id]: [0, 1, 2, 3, 4, 5, 6] } });
    // a malformed belief (an unknown input) is refused by the schema of the events endpoint
    const { parseTrajectoryBatch } = await import("@/lib/validations/annotate");
    expect(
      parseTrajectoryBatch([{ ...event(assignment.id, 7, "belief_changed", { choice: "5", confidence: 85, step: 2, via: "telepathy" }, 10) }]).rejected,
    ).toHaveLength(1);

    const stored = await db.event.findMany({
      where: { assignmentId: assignment.id, type: "belief_changed" },
      orderBy: { seq: "asc" },
      select: { payload: true },
    });
    expect(stored.map((row) => [(row.payload as { choice: string }).choice, (row.payload as { step: number }).step])).toEqual([
      ["3", 0],
      ["3", 0],
      ["4", 1],
      ["5", 2],
    ]);
    await recordEvents(annotator.id, [event(assignment.id, 7, "submitted", { answer: { choice: "5" }, confidence: 85, clientId: randomUUID() }, 11)]);
    await submitResponse(annotator.id, {
      assignmentId: assignment.id,
      clientId: randomUUID(),
      answer: { choice: "5" },
      confidence: 85,
      wallMs: 1,
      activeMs: 1,
      submitSeq: 7,
    });

    const researcher = await createUser("RESEARCHER");
    const replay = await getReplaySteps(replayData, study.slug, assignment.id, researcher.id);
    expect(replay.steps.map((step) => [step.seq, step.valid, (step.view as { image: string }).image])).toEqual([
      [0, true, kitchen.key.graph.states[kitchen.key.graph.initial].image],
      [1, true, expect.stringContaining("h-bowl_1-p4-N")],
      [2, true, expect.stringContaining("h-bowl_1-p4-E")],
    ]);
  });

  it("refuses actions past the budget and in passive conditions, storing nothing", async () => {
    const { study, batch } = await esiStudy();
    const small = { ...kitchen, id: "small-budget", public: { ...kitchen.public, maxSteps: 2 } };
    const item = await esiItem(study.id, batch.id, small);
    const { annotator, assignment } = await annotatorWith(study.id, item.id, null);
    await getPlay(annotator.id, assignment.id);
    await playStep(annotator.id, assignment.id, { seq: 1, action: move("move_up") });
    const second = await playStep(annotator.id, assignment.id, { seq: 2, action: move("turn_left") });
    expect(second.view).toMatchObject({ step: 2, maxSteps: 2 });
    await expect(playStep(annotator.id, assignment.id, { seq: 3, action: move("turn_left") })).rejects.toMatchObject({
      code: "INVALID",
      message: expect.stringContaining("step budget of 2 is used up"),
    });
    expect(await db.playStep.count({ where: { assignmentId: assignment.id } })).toBe(3);

    const passive = await annotatorWith(study.id, item.id, "passive-gt");
    const gallery = await getPlay(passive.annotator.id, passive.assignment.id);
    expect(gallery.view).toEqual({ mode: "passive-gt", images: [kitchen.public.initialImage, ...kitchen.key.views.gt] });
    await expect(playStep(passive.annotator.id, passive.assignment.id, { seq: 1, action: move("turn_left") })).rejects.toMatchObject({ code: "INVALID" });
    expect(await db.playStep.count({ where: { assignmentId: passive.assignment.id } })).toBe(1);
    const single = await annotatorWith(study.id, item.id, "passive-single");
    expect((await getPlay(single.annotator.id, single.assignment.id)).view).toEqual({ mode: "passive-single", images: [kitchen.public.initialImage] });

    // an answer that is not one of the options is refused and stores nothing
    await expect(
      submitResponse(annotator.id, {
        assignmentId: assignment.id,
        clientId: randomUUID(),
        answer: { choice: "7" },
        confidence: 50,
        wallMs: 1,
        activeMs: 1,
        submitSeq: 0,
      }),
    ).rejects.toThrow();
    expect(await db.response.count()).toBe(0);
  });
});

describe("ESI-Bench through a live simulator (HTTP)", () => {
  let simulator: FakeSimulator;
  beforeAll(async () => {
    simulator = await startFakeSimulator(kitchen.key.graph);
  });
  afterAll(async () => {
    await simulator.close();
    await disconnectDb();
  });
  beforeEach(async () => {
    await resetDatabase();
    simulator.mode = "ok";
    simulator.requests.length = 0;
  });

  it("forwards the episode and each step to the simulator, and shows only what it returns", async () => {
    const { study, batch } = await esiStudy(["active"], { "esi-explore": { simulatorUrl: simulator.url, timeoutMs: 1000, retries: 1 } });
    const item = await esiItem(study.id, batch.id);
    const { annotator, assignment } = await annotatorWith(study.id, item.id, "active");
    const start = await getPlay(annotator.id, assignment.id);
    const graph = kitchen.key.graph;
    expect(start.view).toMatchObject({ mode: "active", source: "simulator", image: `${simulator.url}/${graph.states[graph.initial].image}`, step: 0 });
    expect(simulator.requests[0]).toEqual({
      path: "/episodes",
      body: { itemId: kitchen.id, assignmentId: assignment.id, scene: "demo-kitchen", room: "kitchen", initialPose: { position: [2.5, 3.9], heading: "N" } },
    });

    const lifted = await playStep(annotator.id, assignment.id, { seq: 1, action: move("pick_up", ["bowl_1"]) });
    expect(lifted.valid).toBe(true);
    expect((lifted.view as { objects: string[] }).objects).toContain("apple_4");
    expect(simulator.requests.at(-1)).toEqual({ path: "/episodes/ep-1/step", body: { action: "pick_up(bowl_1)", seq: 1 } });
    const refused = await playStep(annotator.id, assignment.id, { seq: 2, action: move("move_forward") });
    expect(refused).toMatchObject({ valid: false, message: "cannot do that here" });
    expect((refused.view as { image: string }).image).toBe((lifted.view as { image: string }).image);
    for (const word of ['"viewpoint"', '"contrastive"', '"episodeId"', '"trace"']) expect(JSON.stringify([start, lifted, refused])).not.toContain(word);

    // the hidden state keeps what the metrics need
    const state = (await db.assignment.findUniqueOrThrow({ where: { id: assignment.id }, select: { playState: true } })).playState as {
      mode: string;
      trace: Array<{ contrastive: boolean; viewpoint: string }>;
    };
    expect(state.mode).toBe("simulator");
    expect(state.trace.map((point) => point.contrastive)).toEqual([false, true, true]);
  });

  it("retries a simulator that fails once, applying the step once", async () => {
    const { study, batch } = await esiStudy(["active"], { "esi-explore": { simulatorUrl: simulator.url, timeoutMs: 1000, retries: 2 } });
    const item = await esiItem(study.id, batch.id);
    const { annotator, assignment } = await annotatorWith(study.id, item.id, null);
    await getPlay(annotator.id, assignment.id);
    simulator.mode = "flaky";
    const before = { ...simulator.calls };
    const ack = await playStep(annotator.id, assignment.id, { seq: 1, action: move("turn_left") });
    expect(ack.valid).toBe(true);
    expect(simulator.calls.stepRequests - before.stepRequests).toBe(2);
    expect(simulator.calls.applied - before.applied).toBe(1);
  });

  it("tells the annotator clearly when the simulator times out, and stores nothing of the step", async () => {
    const { study, batch } = await esiStudy(["active"], { "esi-explore": { simulatorUrl: simulator.url, timeoutMs: 300, retries: 1 } });
    const item = await esiItem(study.id, batch.id);
    const { annotator, assignment } = await annotatorWith(study.id, item.id, "active");
    await getPlay(annotator.id, assignment.id);
    await playStep(annotator.id, assignment.id, { seq: 1, action: move("turn_right") });
    const before = await db.assignment.findUniqueOrThrow({ where: { id: assignment.id }, select: { playState: true, status: true } });

    simulator.mode = "hang";
    const started = Date.now();
    const failure = await playStep(annotator.id, assignment.id, { seq: 2, action: move("turn_right") }).catch((error: unknown) => error);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(failure).toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringContaining("The simulator is not answering right now. Your steps so far are saved"),
    });
    expect((failure as Error).message).toContain("timed out");
    expect((failure as Error).message).not.toContain("127.0.0.1");
    expect(await db.playStep.count({ where: { assignmentId: assignment.id } })).toBe(2);
    expect(await db.assignment.findUniqueOrThrow({ where: { id: assignment.id }, select: { playState: true, status: true } })).toEqual(before);

    // a malformed reply is reported the same way
    simulator.mode = "garbage";
    await expect(playStep(annotator.id, assignment.id, { seq: 2, action: move("turn_right") })).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringContaining("malformed"),
    });

    // back up: the same seq goes through
    simulator.mode = "ok";
    expect((await playStep(annotator.id, assignment.id, { seq: 2, action: move("turn_right") })).valid).toBe(true);
  });

  it("calls only simulator hosts on the allow-list (YARDSTICK_SIMULATOR_HOSTS) and never follows a redirect", async () => {
    // an internal service the server can reach: it must never be called on a researcher's say-so
    const internal = await startFakeSimulator(kitchen.key.graph);
    try {
      expect(process.env.YARDSTICK_SIMULATOR_HOSTS).toBe("127.0.0.1");
      // a host that is not on the list (localhost reaches the same machine): refused before any request
      const port = new URL(internal.url).port;
      const elsewhere = await esiStudy(["active"], { "esi-explore": { simulatorUrl: `http://localhost:${port}`, timeoutMs: 300, retries: 0 } });
      const item = await esiItem(elsewhere.study.id, elsewhere.batch.id);
      const { annotator, assignment } = await annotatorWith(elsewhere.study.id, item.id, "active");
      await expect(getPlay(annotator.id, assignment.id)).rejects.toMatchObject({
        code: "UNAVAILABLE",
        message: expect.stringContaining("not on the server's list of simulator hosts"),
      });
      expect(internal.requests).toEqual([]);

      // an allowed simulator that redirects elsewhere: the redirect is not followed
      simulator.mode = "redirect";
      simulator.redirectTo = internal.url;
      const { study, batch } = await esiStudy(["active"], { "esi-explore": { simulatorUrl: simulator.url, timeoutMs: 300, retries: 1 } });
      const redirected = await esiItem(study.id, batch.id);
      const second = await annotatorWith(study.id, redirected.id, "active");
      await expect(getPlay(second.annotator.id, second.assignment.id)).rejects.toMatchObject({
        code: "UNAVAILABLE",
        message: expect.stringContaining("redirect"),
      });
      expect(simulator.requests.map((request) => request.path)).toEqual(["/episodes"]);
      expect(internal.requests).toEqual([]);
    } finally {
      await internal.close();
    }
  });

  it("reports a simulator that is down at the start without starting the episode", async () => {
    // a port that was just free: nothing listens there
    const closed = await startFakeSimulator(kitchen.key.graph);
    await closed.close();
    const { study, batch } = await esiStudy(["active"], { "esi-explore": { simulatorUrl: closed.url, timeoutMs: 300, retries: 1 } });
    const item = await esiItem(study.id, batch.id);
    const { annotator, assignment } = await annotatorWith(study.id, item.id, "active");
    await expect(getPlay(annotator.id, assignment.id)).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: expect.stringMatching(/not answering.*connection refused/s),
    });
    expect(await db.playStep.count({ where: { assignmentId: assignment.id } })).toBe(0);
    expect((await db.assignment.findUniqueOrThrow({ where: { id: assignment.id }, select: { playState: true } })).playState).toBeNull();
  });
});

describe("ESI-Bench dashboard figures and step labels", () => {
  beforeEach(resetDatabase);
  afterAll(disconnectDb);

  it("splits accuracy by condition, measures trajectories, and computes alpha over step labellers", async () => {
    const { study, batch } = await esiStudy();
    const item = await esiItem(study.id, batch.id);
    // an explorer who looks under the bowl and changes their mind, and one who stays put
    const explorer = await annotatorWith(study.id, item.id, "active");
    await getPlay(explorer.annotator.id, explorer.assignment.id);
    await playStep(explorer.annotator.id, explorer.assignment.id, { seq: 1, action: move("move_left") });
    await playStep(explorer.annotator.id, explorer.assignment.id, { seq: 2, action: move("move_forward") });
    await playStep(explorer.annotator.id, explorer.assignment.id, { seq: 3, action: move("move_backward") });
    await playStep(explorer.annotator.id, explorer.assignment.id, { seq: 4, action: move("move_right") });
    await playStep(explorer.annotator.id, explorer.assignment.id, { seq: 5, action: move("pick_up", ["bowl_1"]) });
    await recordEvents(explorer.annotator.id, [
      event(explorer.assignment.id, 0, "belief_changed", { choice: "3", confidence: 40, step: 0, via: "click" }, 0),
      event(explorer.assignment.id, 1, "belief_changed", { choice: "5", confidence: 90, step: 5, via: "click" }, 20),
    ]);
    await submitResponse(explorer.annotator.id, {
      assignmentId: explorer.assignment.id,
      clientId: randomUUID(),
      answer: { choice: "5" },
      confidence: 90,
      wallMs: 1,
      activeMs: 1,
      submitSeq: 0,
    });

    const still = await annotatorWith(study.id, item.id, "active");
    await getPlay(still.annotator.id, still.assignment.id);
    await playStep(still.annotator.id, still.assignment.id, { seq: 1, action: move("turn_up") });
    await recordEvents(still.annotator.id, [event(still.assignment.id, 0, "belief_changed", { choice: "3", confidence: 70, step: 0, via: "keyboard" }, 0)]);
    await submitResponse(still.annotator.id, {
      assignmentId: still.assignment.id,
      clientId: randomUUID(),
      answer: { choice: "3" },
      confidence: 70,
      wallMs: 1,
      activeMs: 1,
      submitSeq: 0,
    });

    const passive = await annotatorWith(study.id, item.id, "passive-single");
    await getPlay(passive.annotator.id, passive.assignment.id);
    await submitResponse(passive.annotator.id, {
      assignmentId: passive.assignment.id,
      clientId: randomUUID(),
      answer: { choice: "3" },
      confidence: 60,
      wallMs: 1,
      activeMs: 1,
      submitSeq: 0,
    });

    // two researchers label steps: they agree on one, disagree on another; a label changed and removed
    const [r1, r2] = [await createUser("RESEARCHER"), await createUser("RESEARCHER")];
    await setStepLabel(replayData, study.slug, r1.id, { assignmentId: explorer.assignment.id, seq: 5, label: "contrastive" });
    await setStepLabel(replayData, study.slug, r2.id, { assignmentId: explorer.assignment.id, seq: 5, label: "contrastive" });
    await setStepLabel(replayData, study.slug, r1.id, { assignmentId: explorer.assignment.id, seq: 1, label: "redundant" });
    await setStepLabel(replayData, study.slug, r2.id, { assignmentId: explorer.assignment.id, seq: 1, label: "confirmatory" });
    await setStepLabel(replayData, study.slug, r1.id, { assignmentId: still.assignment.id, seq: 1, label: "redundant" });
    await setStepLabel(replayData, study.slug, r2.id, { assignmentId: still.assignment.id, seq: 1, label: "redundant" });
    await expect(setStepLabel(replayData, study.slug, r1.id, { assignmentId: still.assignment.id, seq: 9, label: "redundant" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await setStepLabel(replayData, study.slug, r2.id, { assignmentId: still.assignment.id, seq: 1, label: "contrastive" });
    await setStepLabel(replayData, study.slug, r2.id, { assignmentId: still.assignment.id, seq: 1, label: null });

    const annotators = [explorer, still, passive].map(({ annotator }, i) => ({ id: annotator.id, name: `A${i + 1}` }));
    const section = (await loadEsiSection(kindDashboardData, study.id, { annotators, annotatorId: null, confidenceScale: "PERCENT", calibrationBins: 10 }))!;
    expect(section.conditions).toEqual(["passive-single", "active"]);
    // two people answered the one question: one item behind the accuracy, so no interval
    expect(section.overall.humans.active).toMatchObject({ successes: 1, trials: 2, items: 1, ci: null, reason: "one item" });
    expect(section.overall.humans["passive-single"]).toMatchObject({ successes: 0, trials: 1 });
    expect(section.table).toEqual([
      {
        category: "Enumerative Perception",
        subcategory: "Occluded Counting",
        cells: { humans: { "passive-single": expect.objectContaining({ trials: 1 }), active: expect.objectContaining({ value: 0.5 }) } },
      },
    ]);
    const active = section.trajectories.active;
    expect(active).toMatchObject({ trajectories: 2, actions: 6, invalid: 1, stepsMean: 3 });
    // Fig. 5: steps to reach a correct answer (the explorer's 5), beside steps overall
    expect(active).toMatchObject({ correct: 1, stepsCorrectMean: 5, stepsCorrectMedian: 5 });
    expect(active.viewDiversity).toMatchObject({ successes: 1, trials: 2 });
    expect(active.contrastiveView).toMatchObject({ successes: 1, trials: 2 });
    expect(active.beliefRevision).toMatchObject({ successes: 1, trials: 2 });
    expect(section.trajectories["passive-single"]).toBeUndefined();
    expect(section.calibration.active.final).toMatchObject({ n: 2, meanConfidenceRight: 0.9, meanConfidenceWrong: 0.7 });
    expect(section.calibration.active.intermediate).toMatchObject({ n: 3 });
    expect(section.calibration.active.byStep[0]).toEqual({ step: 0, n: 2, meanConfidence: 0.55, accuracy: 0 });
    expect(section.perPerson.map((person) => [person.name, person.byCondition.active?.accuracy.trials ?? 0])).toEqual([
      ["A1", 1],
      ["A2", 1],
      ["A3", 0],
    ]);
    expect(section.stepLabels).toMatchObject({ counts: { redundant: 2, confirmatory: 1, contrastive: 2 }, labelledSteps: 3, labellers: 2, units: 2 });
    // two units: one agreed (contrastive, contrastive), one not (redundant, confirmatory); the third has one label.
    // Nominal alpha by hand (Krippendorff 2011): D_o = 2/4, D_e = (16 - 4 - 1 - 1) / (4 * 3) = 10/12, alpha = 1 - 0.5 / (10/12) = 0.4
    expect(section.stepLabels.alpha).toBeCloseTo(0.4, 10);
    // confidence is c in [0, 1] (App. E): the percent scale needs no mapping; the 1-5 scale is read through a stated one
    expect(section.confidence).toMatchObject({ scale: "PERCENT", points: null });
    const likert = (await loadEsiSection(kindDashboardData, study.id, { annotators, annotatorId: null, confidenceScale: "LIKERT_5", calibrationBins: 5 }))!;
    expect(likert.confidence.points).toEqual([1, 2, 3, 4, 5].map((value) => ({ value, c: (value - 1) / 4 })));
    expect(likert.confidence.statement).toMatch(/1 → 0, 2 → 0.25, 3 → 0.5, 4 → 0.75, 5 → 1/);

    // a researcher's contrastive label counts for the trajectory that saw no marked state
    await setStepLabel(replayData, study.slug, r1.id, { assignmentId: still.assignment.id, seq: 1, label: "contrastive" });
    const relabelled = (await loadEsiSection(kindDashboardData, study.id, { annotators, annotatorId: null, confidenceScale: "PERCENT", calibrationBins: 10 }))!;
    expect(relabelled.trajectories.active.contrastiveView).toMatchObject({ successes: 2, trials: 2 });
    const one = (await loadEsiSection(kindDashboardData, study.id, {
      annotators,
      annotatorId: still.annotator.id,
      confidenceScale: "PERCENT",
      calibrationBins: 10,
    }))!;
    expect(one.groups[0]).toEqual({ id: "humans", name: "A2", kind: "humans" });
    expect(one.overall.humans.active).toMatchObject({ successes: 0, trials: 1 });
  });

  it("counts a belief revision only for a part already answered, changed after a new observation", async () => {
    const { study, batch } = await esiStudy(["active"]);
    const twoParts = demo.items.find((candidate) => candidate.id === "esi-demo-living-left-right")!;
    const item = await esiItem(study.id, batch.id, twoParts);
    const run = async (first: Record<string, string>, action: string, then: Record<string, string>) => {
      const person = await annotatorWith(study.id, item.id, "active");
      await getPlay(person.annotator.id, person.assignment.id);
      await recordEvents(person.annotator.id, [event(person.assignment.id, 0, "belief_changed", { choice: first, confidence: 50, step: 0, via: "click" }, 0)]);
      await playStep(person.annotator.id, person.assignment.id, { seq: 1, action: move(action) });
      await recordEvents(person.annotator.id, [event(person.assignment.id, 1, "belief_changed", { choice: then, confidence: 80, step: 1, via: "click" }, 10)]);
      await submitResponse(person.annotator.id, {
        assignmentId: person.assignment.id,
        clientId: randomUUID(),
        answer: { choice: then },
        confidence: 80,
        wallMs: 1,
        activeMs: 1,
        submitSeq: 0,
      });
      return person;
    };
    // fills in part C after turning: not a revision
    const filler = await run({ A: "left" }, "turn_left", { A: "left", C: "right" });
    // changes part A after a refused action only (no move_up here): not a revision
    const refused = await run({ A: "right", C: "right" }, "move_up", { A: "left", C: "right" });
    // changes part A after turning: a revision
    const reviser = await run({ A: "right", C: "right" }, "turn_left", { A: "left", C: "right" });
    const annotators = [filler, refused, reviser].map(({ annotator }, i) => ({ id: annotator.id, name: `P${i + 1}` }));
    const section = (await loadEsiSection(kindDashboardData, study.id, { annotators, annotatorId: null, confidenceScale: "PERCENT", calibrationBins: 10 }))!;
    expect(section.trajectories.active).toMatchObject({ trajectories: 3, invalid: 1 });
    expect(section.trajectories.active.beliefRevision).toMatchObject({ successes: 1, trials: 3 });
    expect(section.perPerson.map((person) => [person.name, person.byCondition.active.trajectories?.beliefRevision.successes])).toEqual([
      ["P1", 0],
      ["P2", 0],
      ["P3", 1],
    ]);
  });

  it("splits the study dashboard's main table and comparison by condition, as the paper's table (active 1.0 / passive-single 0, not a pooled 0.5)", async () => {
    const { study, batch } = await esiStudy(["passive-single", "active"]);
    const item = await esiItem(study.id, batch.id);
    const explorer = await annotatorWith(study.id, item.id, "active");
    await getPlay(explorer.annotator.id, explorer.assignment.id);
    await submitResponse(explorer.annotator.id, {
      assignmentId: explorer.assignment.id,
      clientId: randomUUID(),
      answer: { choice: "5" },
      confidence: 90,
      wallMs: 1,
      activeMs: 1,
      submitSeq: 0,
    });
    const viewer = await annotatorWith(study.id, item.id, "passive-single");
    await getPlay(viewer.annotator.id, viewer.assignment.id);
    await submitResponse(viewer.annotator.id, {
      assignmentId: viewer.assignment.id,
      clientId: randomUUID(),
      answer: { choice: "3" },
      confidence: 60,
      wallMs: 1,
      activeMs: 1,
      submitSeq: 0,
    });
    // a run naming its condition (right), and one naming none (wrong)
    await importModelRun({
      studySlug: study.slug,
      name: "M [active]",
      answersJsonl: `${JSON.stringify({ id: kitchen.id, answer: { choice: "5" } })}\n`,
      fileName: "m.jsonl",
    });
    await importModelRun({
      studySlug: study.slug,
      name: "N",
      answersJsonl: `${JSON.stringify({ id: kitchen.id, answer: { choice: "3" } })}\n`,
      fileName: "n.jsonl",
    });

    clearDashboardCaches();
    const d = await getStudyDashboard(study.slug, {});
    const esiRows = (rows: typeof d.accuracy.rows) =>
      rows
        .filter((row) => row.kind === "esi-explore")
        .map((row) => [row.label, row.condition ?? null, row.conditionLabel ?? null, row.cells[ALL].metrics.accuracy.value]);
    // the paper's columns in its order: passive single before active
    expect(esiRows(d.accuracy.rows)).toEqual([
      ["Humans (pooled)", "passive-single", "Passive, single view", 0],
      ["Humans (pooled)", "active", "Active exploration", 1],
    ]);
    expect(esiRows(d.accuracy.modelRows)).toEqual([
      ["M [active]", "active", "Active exploration", 1],
      ["N", null, null, 0],
    ]);
    // the figures that pool a person's answers (calibration, per-annotator accuracy) name the conditions they pool
    expect(pooledConditionLabels(d.accuracy.rows)).toEqual(["Passive, single view", "Active exploration"]);
    expect((await getAnnotatorsOverview(study.slug, {})).pooledConditions.sort()).toEqual(["Active exploration", "Passive, single view"]);
    // people under a condition against the model's answers under it, or under none
    const compared = d.comparison.rows
      .filter((row) => row.kind === "esi-explore" && row.tag === ALL)
      .map((row) => [row.condition ?? null, row.model.name, row.humans.estimate, row.modelEstimate]);
    expect(compared).toEqual([
      ["passive-single", "N", 0, 0],
      ["active", "M [active]", 1, 1],
      ["active", "N", 1, 0],
    ]);
  });

  it("puts a model agent's active play under active, with its trajectory measures, and leaves agreement-plan answers out", async () => {
    const { study, batch } = await esiStudy(["passive-single", "active"]);
    const item = await esiItem(study.id, batch.id);
    // a model agent plays the active condition: it moves, changes its answer after the pick-up, answers right
    const agentUser = await db.user.create({ data: { role: "ANNOTATOR", name: "Explorer", isAgent: true, agentModel: "gpt-x" } });
    await addMember(study.id, agentUser.id);
    const agentAssignment = await db.assignment.create({
      data: { studyId: study.id, itemId: item.id, userId: agentUser.id, position: 0, condition: "active", agent: true },
    });
    await getPlay(agentUser.id, agentAssignment.id);
    await playStep(agentUser.id, agentAssignment.id, { seq: 1, action: move("move_left") });
    await playStep(agentUser.id, agentAssignment.id, { seq: 2, action: move("move_right") });
    await playStep(agentUser.id, agentAssignment.id, { seq: 3, action: move("pick_up", ["bowl_1"]) });
    await recordEvents(agentUser.id, [
      event(agentAssignment.id, 0, "belief_changed", { choice: "3", confidence: 50, step: 0, via: "click" }, 0),
      event(agentAssignment.id, 1, "belief_changed", { choice: "5", confidence: 90, step: 3, via: "click" }, 5),
    ]);
    // what an agent may claim about its condition is not what counts: the assignment's condition does
    await submitResponse(agentUser.id, {
      assignmentId: agentAssignment.id,
      clientId: randomUUID(),
      answer: { choice: "5", condition: "passive-single" },
      confidence: 90,
      wallMs: 1,
      activeMs: 1,
      submitSeq: 0,
    });

    // a person answers right in the main work; another answers the same item wrong for the agreement plan
    const main = await annotatorWith(study.id, item.id, "active");
    await getPlay(main.annotator.id, main.assignment.id);
    await submitResponse(main.annotator.id, {
      assignmentId: main.assignment.id,
      clientId: randomUUID(),
      answer: { choice: "5" },
      confidence: 80,
      wallMs: 1,
      activeMs: 1,
      submitSeq: 0,
    });
    const planner = await createUser("ANNOTATOR");
    await addMember(study.id, planner.id);
    const plan = await db.assignment.create({
      data: { studyId: study.id, itemId: item.id, userId: planner.id, position: 0, condition: "active", purpose: "AGREEMENT" },
    });
    await getPlay(planner.id, plan.id);
    await submitResponse(planner.id, {
      assignmentId: plan.id,
      clientId: randomUUID(),
      answer: { choice: "3" },
      confidence: 80,
      wallMs: 1,
      activeMs: 1,
      submitSeq: 0,
    });

    const annotators = [
      { id: main.annotator.id, name: "P1" },
      { id: planner.id, name: "P2" },
    ];
    // the runs as the study dashboard passes them: imported runs and agents
    const models = (await agentRuns(study.id)).runs;
    const section = (await loadEsiSection(kindDashboardData, study.id, {
      annotators,
      annotatorId: null,
      confidenceScale: "PERCENT",
      calibrationBins: 10,
      models,
    }))!;
    expect(section.conditions).toEqual(["active"]);
    const agentGroup = section.groups.find((group) => group.kind === "model")!;
    expect(agentGroup).toEqual({ id: `agent:${agentUser.id}`, name: "Agent Explorer (gpt-x)", kind: "model" });
    expect(section.overall[agentGroup.id].active).toMatchObject({ successes: 1, trials: 1 });
    const measured = section.modelTrajectories[agentGroup.id].active;
    expect(measured).toMatchObject({ trajectories: 1, actions: 3, invalid: 0 });
    expect(measured.viewDiversity).toMatchObject({ successes: 1, trials: 1 });
    expect(measured.contrastiveView).toMatchObject({ successes: 1, trials: 1 });
    expect(measured.beliefRevision).toMatchObject({ successes: 1, trials: 1 });
    // the plan's answer is out of the people's figures, as in the study's main table
    expect(section.overall.humans.active).toMatchObject({ successes: 1, trials: 1, value: 1 });
    expect(section.humanAnswers).toBe(1);
    expect(section.perPerson.map((person) => person.name)).toEqual(["P1"]);
    // and in when the researcher includes plan answers
    const withPlan = (await loadEsiSection(kindDashboardData, study.id, {
      annotators,
      annotatorId: null,
      confidenceScale: "PERCENT",
      calibrationBins: 10,
      models,
      includePlanAnswers: true,
    }))!;
    expect(withPlan.overall.humans.active).toMatchObject({ successes: 1, trials: 2, value: 0.5 });
  });
});
