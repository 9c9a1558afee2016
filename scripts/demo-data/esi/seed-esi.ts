import path from "node:path";
import { db } from "@/lib/db";
import { DATA_DIR } from "@/lib/db/database-url";
import { importBatchFromPath } from "@/lib/import";
import { importModelRun } from "@/lib/models/runs";
import { taskItemOf } from "@/lib/annotate/assignment-view";
import { planEpisode, type SimulatedPerson } from "@/scripts/demo-data/esi/esi-simulate";
import type { EsiDemoItem } from "@/scripts/demo-data/esi/esi-scenes";
import { ESI_CONDITIONS, type EsiCondition } from "@/lib/tasks/esi-explore/conditions";
import { mulberry32, type Rng } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import { esiExploreModule, type EsiKey, type EsiPlayState, type EsiPublic } from "@/lib/tasks/esi-explore";
import type { TaskItem } from "@/lib/tasks/types";
import type { Prisma } from "@/lib/generated/prisma/client";
import { generateEsiDemoBatch } from "@/scripts/demo-data/esi/generate-esi-batch";
import { settleSimulatedMembers } from "@/scripts/demo-data/simulated-members";

export const ESI_STUDY = "esi-demo";
export const ESI_SIMULATED_STUDY = "esi-demo-simulated";

export const esiInstructions = `# ESI-Bench: look around, then answer

Each item is a question about a small room. What you get depends on the part of the study:

- **Explore**: you see the room from where you stand. Move with **W A S D** (forward, left,
  back, right), look around with the **arrow keys**, or use the buttons. To pick something up or
  put it back, choose the action and the object under the picture, then **Do it**. Each action
  costs one step of your budget; an action that is not possible here says *cannot do that here*
  and still costs a step.
- **One view** or **a few views**: no moving; answer from what is shown (use ← → to browse).

Keep **My current answer** and **How sure are you?** up to date while you look: change them
whenever what you see changes your mind (number keys choose an answer). When you are sure, press
**Submit**. If you use up every step, give your final answer and submit.`;

const PEOPLE: SimulatedPerson[] = [
  { explores: 0.9, glances: 0.35, fumbles: 0.08 },
  { explores: 0.8, glances: 0.2, fumbles: 0.15 },
  { explores: 0.7, glances: 0.45, fumbles: 0.05 },
  { explores: 0.95, glances: 0.1, fumbles: 0.02 },
  { explores: 0.6, glances: 0.3, fumbles: 0.2 },
  { explores: 0.85, glances: 0.25, fumbles: 0.1 },
  { explores: 0.75, glances: 0.4, fumbles: 0.12 },
  { explores: 0.9, glances: 0.15, fumbles: 0.06 },
];

/** SYNTHETIC model answers (not a real model): right at about GPT-5's rates in the paper, one run per condition. */
function syntheticModelRuns(items: readonly EsiDemoItem[]): Array<{ name: string; jsonl: string }> {
  const rates: Record<EsiCondition, number> = { "passive-single": 0.38, "passive-multi": 0.38, active: 0.5, "passive-gt": 0.7 };
  return ESI_CONDITIONS.map((condition) => {
    const rng = mulberry32(seedFromString(`esi-model|${condition}`));
    const lines = items.map((item) => {
      const plan = planEpisode(item, condition === "active" ? "passive-multi" : condition, { explores: 0, glances: 0, fumbles: 0 }, rng);
      const right = rng() < rates[condition];
      const choice = right ? item.key.answer : plan.final.choice;
      return JSON.stringify({
        id: item.id,
        answer: {
          choice,
          confidence: Math.round((0.55 + rng() * 0.4) * 100) / 100,
          condition,
          ...(condition === "active" ? { steps: 8 + Math.floor(rng() * 20) } : {}),
        },
      });
    });
    return { name: `Synthetic VLM, not a real model [${condition}]`, jsonl: lines.join("\n") + "\n" };
  });
}

async function importRuns(slug: string, items: readonly EsiDemoItem[], admin: string) {
  for (const run of syntheticModelRuns(items)) {
    await importModelRun({ studySlug: slug, name: run.name, answersJsonl: run.jsonl, fileName: "synthetic-esi-run.jsonl", importedById: admin });
  }
}

/** Plays one simulated episode through the real episode code and stores it as a submitted assignment. */
async function storeSimulatedEpisode(input: {
  studyId: string;
  userId: string;
  item: { id: string; externalId: string; kind: string; public: unknown; key: unknown; tags: unknown };
  condition: EsiCondition;
  person: SimulatedPerson;
  position: number;
  clock: number;
  rng: Rng;
}): Promise<{ end: number; assignmentId: string }> {
  const { rng } = input;
  const item = taskItemOf(input.item) as TaskItem<EsiPublic, EsiKey>;
  const plan = planEpisode(item, input.condition, input.person, rng);
  const interactive = esiExploreModule.interactive!;
  const assignmentId = crypto.randomUUID().replace(/-/g, "").slice(0, 25);
  const context = { assignmentId, condition: input.condition, settings: {} };
  const started = await interactive.start(item, context);
  const steps: Array<{ seq: number; action: Prisma.InputJsonValue; view: Prisma.InputJsonValue; valid: boolean; message: string | null }> = [
    { seq: 0, action: {}, view: started.view as Prisma.InputJsonValue, valid: true, message: null },
  ];
  let state = started.state as EsiPlayState;
  const events: Array<{ seq: number; type: string; payload: Prisma.InputJsonValue; clientTime: Date }> = [];
  let t = input.clock;
  const push = (type: string, payload: Prisma.InputJsonValue, gapMs: number) => {
    t += Math.round(gapMs);
    events.push({ seq: events.length, type, payload, clientTime: new Date(t) });
  };
  push("item_shown", { kind: "esi-explore", resumed: false }, 0);
  const beliefAt = (step: number) => plan.beliefs.filter((belief) => belief.afterStep === step);
  for (const belief of beliefAt(0))
    push("belief_changed", { choice: belief.choice, confidence: belief.confidence, step: 0, via: rng() < 0.5 ? "keyboard" : "click" }, 2500 + rng() * 4000);
  for (const [index, action] of plan.actions.entries()) {
    const seq = index + 1;
    const result = await interactive.step(item, state, action, { ...context, seq });
    state = result.state as EsiPlayState;
    steps.push({
      seq,
      action: action as Prisma.InputJsonValue,
      view: result.view as Prisma.InputJsonValue,
      valid: result.valid,
      message: result.message ?? null,
    });
    push("play_step", { seq, action: action as Prisma.InputJsonValue, valid: result.valid }, 1200 + rng() * 2600);
    for (const belief of beliefAt(seq))
      push("belief_changed", { choice: belief.choice, confidence: belief.confidence, step: seq, via: "click" }, 1500 + rng() * 3000);
  }
  const answer = { choice: plan.final.choice, steps: plan.actions.length };
  const score = esiExploreModule.score(answer, item.key, item);
  const clientId = crypto.randomUUID();
  push("submitted", { answer: { choice: plan.final.choice }, confidence: plan.final.confidence, clientId }, 1500 + rng() * 2000);
  await db.assignment.create({
    data: {
      id: assignmentId,
      studyId: input.studyId,
      itemId: input.item.id,
      userId: input.userId,
      status: "SUBMITTED",
      purpose: "MAIN",
      position: input.position,
      condition: input.condition,
      playState: state as unknown as Prisma.InputJsonValue,
      createdAt: new Date(input.clock),
      startedAt: new Date(input.clock),
      submittedAt: new Date(t),
      events: { createMany: { data: events } },
      playSteps: { createMany: { data: steps } },
      response: {
        create: {
          clientId,
          answer: answer as Prisma.InputJsonValue,
          confidenceRaw: plan.final.confidence,
          confidence: plan.final.confidence / 100,
          wallMs: t - input.clock,
          activeMs: t - input.clock,
          score: score as unknown as Prisma.InputJsonValue,
          correct: esiExploreModule.correct(score),
          createdAt: new Date(t),
        },
      },
    },
  });
  return { end: t, assignmentId };
}

/** Two researchers' labels of the simulated steps: contrastive on arriving at a view that settles the question, redundant for refusals and glances elsewhere; they disagree now and then. */
async function labelSteps(assignmentIds: readonly string[], labellerIds: readonly string[]) {
  const rng = mulberry32(seedFromString("esi-step-labels"));
  const rows = await db.playStep.findMany({
    where: { assignmentId: { in: [...assignmentIds] }, seq: { gt: 0 } },
    select: { assignmentId: true, seq: true, valid: true, action: true, assignment: { select: { playState: true } } },
  });
  const data: Prisma.StepLabelCreateManyInput[] = [];
  for (const row of rows) {
    const trace = (row.assignment.playState as { trace?: Array<{ seq: number; contrastive: boolean }> } | null)?.trace ?? [];
    const here = trace.find((point) => point.seq === row.seq);
    const before = trace.find((point) => point.seq === row.seq - 1);
    const name = (row.action as { name?: string }).name ?? "";
    // a refusal shows nothing new; arriving at a settling view tells the hypotheses apart; staying on one confirms
    const reference = !row.valid
      ? "REDUNDANT"
      : here?.contrastive
        ? before?.contrastive
          ? "CONFIRMATORY"
          : "CONTRASTIVE"
        : name.startsWith("turn_")
          ? "REDUNDANT"
          : "CONFIRMATORY";
    for (const labellerId of labellerIds) {
      const label = rng() < 0.85 ? reference : (["REDUNDANT", "CONFIRMATORY", "CONTRASTIVE"] as const)[Math.floor(rng() * 3)];
      data.push({ assignmentId: row.assignmentId, seq: row.seq, labellerId, label });
    }
  }
  await db.stepLabel.createMany({ data });
  return data.length;
}

/**
 * The ESI-Bench demo: "esi-demo" for the demo annotators (all four conditions, k = 3) with
 * SYNTHETIC model runs, and "esi-demo-simulated" answered by eight SIMULATED annotators (a seeded
 * model, not people) with trajectories and step labels, so that the dashboard has figures.
 */
export async function seedEsiStudies(
  users: Record<string, string>,
  admin: string,
  annotatorIds: readonly string[],
): Promise<{ items: number; simulated: number }> {
  const batchDir = path.join(DATA_DIR, "demo", "esi-batch");
  const generated = await generateEsiDemoBatch({ outDir: batchDir });
  const researcher = users["researcher@yardstick.local"];
  const scored = generated.items.filter((item) => !item.practice);

  const study = await db.study.create({
    data: {
      slug: ESI_STUDY,
      title: "ESI-Bench demo: explore a room, then answer",
      instructions: esiInstructions,
      overlap: 3,
      confidenceScale: "PERCENT",
      conditions: [...ESI_CONDITIONS],
      createdById: researcher,
    },
    select: { id: true },
  });
  await importBatchFromPath(batchDir, { studySlug: ESI_STUDY, importedById: admin });
  await db.studyMember.createMany({ data: annotatorIds.map((userId) => ({ studyId: study.id, userId })) });
  await importRuns(ESI_STUDY, scored, admin);

  const simulated = await db.study.create({
    data: {
      slug: ESI_SIMULATED_STUDY,
      title: "ESI-Bench demo, simulated responses",
      instructions:
        "Every response in this study comes from **simulated** annotators (a seeded model, not people), so that the ESI-Bench dashboard has data to show. Use the *ESI-Bench demo* study for real work.",
      overlap: 2,
      confidenceScale: "PERCENT",
      conditions: [...ESI_CONDITIONS],
      createdById: researcher,
    },
    select: { id: true },
  });
  await importBatchFromPath(batchDir, { studySlug: ESI_SIMULATED_STUDY, importedById: admin });
  await importRuns(ESI_SIMULATED_STUDY, scored, admin);
  const items = await db.item.findMany({
    where: { studyId: simulated.id, practice: false },
    orderBy: { externalId: "asc" },
    select: { id: true, externalId: true, kind: true, public: true, key: true, tags: true },
  });
  const assignmentIds: string[] = [];
  const simulatedUsers: string[] = [];
  const start = Date.UTC(2026, 10, 16, 9, 0, 0);
  for (const [p, person] of PEOPLE.entries()) {
    const user = await db.user.create({
      data: { name: `Simulated explorer ${p + 1}`, role: "ANNOTATOR", disabled: true, externalId: `esi-simulated-${p + 1}`, externalSource: "yardstick-demo" },
      select: { id: true },
    });
    simulatedUsers.push(user.id);
    const rng = mulberry32(seedFromString(`esi-sim-${p}`));
    let clock = start + p * 3_600_000;
    for (const [i, item] of items.entries()) {
      // a Latin square: each person meets every condition, each item every condition
      const condition = ESI_CONDITIONS[(p + i) % ESI_CONDITIONS.length];
      const stored = await storeSimulatedEpisode({ studyId: simulated.id, userId: user.id, item, condition, person, position: i, clock, rng });
      assignmentIds.push(stored.assignmentId);
      clock = stored.end + 10_000 + rng() * 30_000;
    }
  }
  await settleSimulatedMembers(simulated.id, simulatedUsers);
  await labelSteps(assignmentIds, [researcher, admin]);
  return { items: generated.items.length, simulated: assignmentIds.length };
}
