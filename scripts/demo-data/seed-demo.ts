/**
 * The demo data of `npm run demo`, loaded once (a second run finds the demo study and stops):
 * - accounts: one admin, one researcher, three annotators (passwords below: demo only);
 * - "ENACT demo": the 16 real ENACT items (data/enact-sample) and generated kitchen items with
 *   symbolic states, for the three annotators to work on (k = 3), and a SYNTHETIC model run;
 * - "ENACT demo, simulated responses": the generated items answered by three SIMULATED
 *   annotators (not people: a seeded model of a careful, a quick and a hasty annotator), with
 *   trajectories, so that the dashboards, the replay and the exports have something to show;
 * - "GridWM-Judge demo": the three GridWM kinds (next observation, scene JSON, storyboard judge)
 *   from the MiniGrid-compatible generator (scripts/demo-data/gridwm), for the three annotators
 *   (k = 1: probe families stay within one person's queue), and a SYNTHETIC model run.
 * - "Ego2World demo": three symbolic kitchen episodes (scripts/demo-data/ego2world) for the three
 *   annotators (k = 3), and two SYNTHETIC agent runs (seeded perturbations of the reference).
 * - "ESI-Bench demo": six questions about small rooms drawn in first person (scripts/demo-data/esi),
 *   all four conditions (passive single, passive multi, passive reference views, active), for the
 *   three annotators (k = 3), with SYNTHETIC model runs; and "ESI-Bench demo, simulated responses"
 *   answered by eight SIMULATED explorers with trajectories and step labels.
 * - "EXPLORE-Bench demo": three drawn kitchen scenes (scripts/demo-data/explore): a Short list, a
 *   Long one (240 actions) and an abnormal case with a key state, for the three annotators (k = 3),
 *   and a SYNTHETIC model run (fixed free-text descriptions).
 * - "Free-text demo": questions about drawn rooms (scripts/demo-data/free-text) for the three
 *   annotators (k = 3), a SYNTHETIC model run graded by a SYNTHETIC judge (no LLM), and its grading
 *   study graded by two SIMULATED graders.
 */
import path from "node:path";
import { DATA_DIR } from "@/lib/db/database-url";
import { db } from "@/lib/db";
import { hashPassword } from "@/lib/auth/passwords";
import { importBatchFromPath } from "@/lib/import";
import { importModelRun } from "@/lib/models/runs";
import { getTaskModule } from "@/lib/tasks";
import { mulberry32, type Rng } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";
import { activeTimeMs } from "@/lib/timing/active-time";
import type { Prisma } from "@/lib/generated/prisma/client";
import { generateEnactDemoBatch, generateSyntheticModelRun } from "./generate-enact-batch";
import { settleSimulatedMembers } from "./simulated-members";
import { generateGridwmDemoBatch, type GridwmDemoItem } from "./gridwm/generate-gridwm-batch";
import { ESI_SIMULATED_STUDY, ESI_STUDY, seedEsiStudies } from "./esi/seed-esi";
import { EGO2WORLD_STUDY, seedEgo2worldStudy } from "./ego2world/seed-ego2world";
import { EXPLORE_STUDY, seedExploreStudy } from "./explore/seed-explore";
import { seedRatingStudy } from "./rating/seed-rating";
import { seedPairwiseStudy } from "./pairwise/seed-pairwise";
import { seedChoiceStudy } from "./choice/seed-choice";
import { FREE_TEXT_STUDY, seedFreeTextStudy } from "./free-text/seed-free-text";

const root = path.resolve(import.meta.dirname, "..", "..");

export const demoLogins = [
  { role: "admin", email: "admin@yardstick.local", password: "admin-demo", name: "Ada Admin", dbRole: "ADMIN" },
  { role: "researcher", email: "researcher@yardstick.local", password: "researcher-demo", name: "Rosa Researcher", dbRole: "RESEARCHER" },
  { role: "annotator", email: "annotator1@yardstick.local", password: "annotator-demo", name: "Ana Annotator", dbRole: "ANNOTATOR" },
  { role: "annotator", email: "annotator2@yardstick.local", password: "annotator-demo", name: "Ben Annotator", dbRole: "ANNOTATOR" },
  { role: "annotator", email: "annotator3@yardstick.local", password: "annotator-demo", name: "Chen Annotator", dbRole: "ANNOTATOR" },
] as const;

export const DEMO_STUDY = "enact-demo";
export const SIMULATED_STUDY = "enact-demo-simulated";
export const GRIDWM_STUDY = "gridwm-demo";

const gridwmInstructions = `# GridWM-Judge: a small grid world

An agent (the red triangle) acts in a MiniGrid world. There are three kinds of item:

- **Next observation**: given what the agent sees now (the 7x7 cells in front of it, the agent at
  the bottom facing up) and its action, pick what it sees next (click, or press 1-4 / A-D).
- **Scene JSON**: one picture of the whole grid from above, its axes labelled. Positions are
  [x, y] grid cells: [0, 0] top left, x to the right, y down, read off the axes (grids run from
  7x7 to 16x16). Describe the scene: click the agent's cell, set its direction (north is up; arrow
  buttons or arrow keys), what it carries (written under the picture), the cell in front of it,
  and every object in the lighter cells (what the agent sees).
- **Judge**: eight key frames of an attempt, the mission and the actions: did the agent succeed?
  (Success / Fail, or press S / F). Click a frame to see it large.

Some storyboards are shown with a sentence about the agent first; judge from the frames alone.`;

/**
 * A SYNTHETIC model's answers to the GridWM demo items (not a real model): Task A right 40% of the
 * time, Task B the key with the direction wrong 30% of the time, Task C "Success" unless the last
 * frame is the counterfactual's (a judge that mostly believes what it is told).
 */
function gridwmSyntheticRun(items: readonly GridwmDemoItem[], seed: number): string {
  const rng = mulberry32(seed);
  const lines = items.map((item) => {
    if (item.kind === "gridwm-next-obs") {
      const key = (item.key as { answer: string }).answer;
      return { id: item.id, answer: rng() < 0.4 ? key : "ABCD"[Math.floor(rng() * 4)] };
    }
    if (item.kind === "gridwm-scene-json") {
      const scene = JSON.parse(JSON.stringify((item.key as { answer_json: { agent: { dir: number } } }).answer_json)) as { agent: { dir: number } };
      if (rng() < 0.3) scene.agent.dir = (scene.agent.dir + 1) % 4;
      return { id: item.id, answer: "```json\n" + JSON.stringify(scene) + "\n```" };
    }
    const key = (item.key as { answer: string }).answer;
    return { id: item.id, answer: item.tags.variant === "cf" && item.tags.temporal === "orig" && rng() < 0.5 ? key : rng() < 0.85 ? "Success" : "Fail" };
  });
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

async function seedGridwmStudy(users: Record<string, string>, admin: string): Promise<number> {
  const batchDir = path.join(DATA_DIR, "demo", "gridwm-batch");
  // one base case per environment keeps the seed quick (about 100 items, 100 images)
  const generated = await generateGridwmDemoBatch({ outDir: batchDir, seed: 1, groupsPerEnv: 1 });
  const study = await db.study.create({
    data: {
      slug: GRIDWM_STUDY,
      title: "GridWM-Judge demo: next observation, scene JSON, storyboard judge",
      instructions: gridwmInstructions,
      overlap: 1,
      confidenceScale: "LIKERT_5",
      createdById: users["researcher@yardstick.local"],
    },
    select: { id: true },
  });
  await importBatchFromPath(batchDir, { studySlug: GRIDWM_STUDY, importedById: admin });
  await db.studyMember.createMany({
    data: demoLogins.filter((l) => l.dbRole === "ANNOTATOR").map((l) => ({ studyId: study.id, userId: users[l.email] })),
  });
  const scored = generated.items.filter((item) => !item.practice);
  await importModelRun({
    studySlug: GRIDWM_STUDY,
    name: "synthetic credulous judge (not a real model)",
    answersJsonl: gridwmSyntheticRun(scored, 13),
    fileName: "synthetic-gridwm-run.jsonl",
    importedById: admin,
  });
  return generated.items.length;
}

const instructions = `# ENACT: ordering what happens

You will see short household scenes from a robot's point of view.

- **Forward items**: you see the current state and the robot's actions, in order. Fill each
  *Next state* slot with the picture that results from that action (each action starts from the
  result of the previous one).
- **Inverse items**: you see the pictures in order. For each step (*current → next*), pick the
  action that explains the change.

Drag a candidate into a slot, or focus a candidate and press the slot's number. Click a picture to
see it large. Then say how confident you are and submit.

The first items are **practice**: after each, you see the right answer. Take your time; there is
no time limit, but please stay on the page while you work.`;

async function upsertUsers() {
  const users: Record<string, string> = {};
  for (const login of demoLogins) {
    const user = await db.user.upsert({
      where: { email: login.email },
      update: {},
      create: { email: login.email, name: login.name, role: login.dbRole, passwordHash: await hashPassword(login.password) },
      select: { id: true },
    });
    users[login.email] = user.id;
  }
  return users;
}

interface SimulatedAnnotator {
  name: string;
  /** probability of a fully right answer at the shortest length, and its drop per extra step */
  accuracy: number;
  dropPerStep: number;
  /** median seconds per step */
  secondsPerStep: number;
  /** how far confidence follows correctness */
  calibration: number;
}

const simulatedAnnotators: SimulatedAnnotator[] = [
  { name: "Simulated annotator 1 (careful)", accuracy: 0.96, dropPerStep: 0.012, secondsPerStep: 9, calibration: 0.8 },
  { name: "Simulated annotator 2 (quick)", accuracy: 0.93, dropPerStep: 0.02, secondsPerStep: 6, calibration: 0.5 },
  { name: "Simulated annotator 3 (hasty)", accuracy: 0.8, dropPerStep: 0.05, secondsPerStep: 0.7, calibration: 0.2 },
];

function logNormal(rng: Rng, median: number, spread: number): number {
  // Box-Muller
  const u = Math.max(rng(), 1e-9);
  const v = rng();
  return median * Math.exp(spread * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
}

function simulatedOrder(rng: Rng, reference: readonly number[], pRight: number): number[] {
  const order = [...reference];
  if (rng() < pRight || order.length < 2) return order;
  const swaps = 1 + (rng() < 0.3 ? 1 : 0);
  for (let s = 0; s < swaps; s++) {
    const i = Math.floor(rng() * (order.length - 1));
    [order[i], order[i + 1]] = [order[i + 1], order[i]];
  }
  return order;
}

/** Three simulated annotators answer every non-practice item of the study, with trajectories. */
async function simulateResponses(studyId: string, idleCapSeconds: number) {
  const annotators = [];
  for (const [index, simulated] of simulatedAnnotators.entries()) {
    annotators.push(
      await db.user.create({
        data: { name: simulated.name, role: "ANNOTATOR", disabled: true, externalId: `simulated-${index + 1}`, externalSource: "yardstick-demo" },
        select: { id: true },
      }),
    );
  }
  await db.studyMember.createMany({ data: annotators.map((a) => ({ studyId, userId: a.id })) });
  const items = await db.item.findMany({
    where: { studyId, practice: false },
    select: { id: true, externalId: true, kind: true, public: true, key: true, tags: true },
  });
  const start = Date.UTC(2026, 10, 16, 9, 0, 0);

  for (const [a, simulated] of simulatedAnnotators.entries()) {
    const rng = mulberry32(seedFromString(`demo-sim-${a}`));
    let clock = start + a * 3_600_000;
    const shuffled = [...items].sort((x, y) => seedFromString(`${a}:${x.id}`) - seedFromString(`${a}:${y.id}`));
    for (const [position, item] of shuffled.entries()) {
      const taskModule = getTaskModule(item.kind);
      const key = item.key as { order: number[] };
      const L = key.order.length;
      const order = simulatedOrder(rng, key.order, Math.max(0.3, simulated.accuracy - simulated.dropPerStep * (L - 2)));
      const score = taskModule.score({ order }, item.key, {
        id: item.externalId,
        kind: item.kind,
        public: item.public,
        key: item.key,
        tags: item.tags as Record<string, string | number>,
      });
      const correct = taskModule.correct(score);
      const baseConfidence = correct ? 4.2 : 3.2;
      const confidenceRaw = Math.min(
        5,
        Math.max(1, Math.round(baseConfidence * simulated.calibration + (1 - simulated.calibration) * 4 + (rng() - 0.5) * 1.6)),
      );

      // a trajectory: shown, one drop per slot, a confidence, the submission; sometimes a break
      const events: Array<{ seq: number; type: string; payload: Prisma.InputJsonValue; clientTime: Date }> = [];
      let t = clock;
      const push = (type: string, payload: Prisma.InputJsonValue, gapMs: number) => {
        t += Math.round(gapMs);
        events.push({ seq: events.length, type, payload, clientTime: new Date(t) });
      };
      push("item_shown", { kind: item.kind, resumed: false }, 0);
      const secondsPerDrop = logNormal(rng, simulated.secondsPerStep, 0.35) * 1000;
      order.forEach((candidate, slot) =>
        push("slot_filled", { slot, candidate, fromSlot: null, replaced: null, via: rng() < 0.2 ? "keyboard" : "drag" }, secondsPerDrop * (0.6 + rng() * 0.8)),
      );
      if (rng() < 0.08) {
        push("page_hidden", {}, 2000);
        push("page_visible", {}, 90_000 + rng() * 300_000);
      }
      push("confidence_changed", { value: confidenceRaw, previous: null }, 1500 + rng() * 2500);
      const clientId = crypto.randomUUID();
      push("submitted", { order, confidence: confidenceRaw, clientId }, 800 + rng() * 1200);
      const wallMs = t - clock;
      const activeMs = activeTimeMs(
        events.map((e) => ({ type: e.type, clientTime: e.clientTime.getTime() })),
        idleCapSeconds * 1000,
      );

      await db.assignment.create({
        data: {
          studyId,
          itemId: item.id,
          userId: annotators[a].id,
          status: "SUBMITTED",
          purpose: "MAIN",
          position,
          createdAt: new Date(clock),
          startedAt: new Date(clock),
          submittedAt: new Date(t),
          events: { createMany: { data: events } },
          response: {
            create: {
              clientId,
              answer: { order },
              confidenceRaw,
              confidence: (confidenceRaw - 1) / 4,
              wallMs,
              activeMs,
              score: score as Prisma.InputJsonValue,
              correct,
              createdAt: new Date(t),
            },
          },
        },
      });
      clock = t + 5_000 + rng() * 20_000;
      // sixteen items a day, then the next morning
      if (position % 16 === 15) {
        const day = new Date(clock);
        clock = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1, 9 + a, Math.floor(rng() * 60));
      }
    }
  }
  await settleSimulatedMembers(
    studyId,
    annotators.map((a) => a.id),
  );
  return { annotators: annotators.length, responses: items.length * annotators.length };
}

export async function seedDemo(): Promise<string> {
  const existing = await db.study.findUnique({ where: { slug: DEMO_STUDY }, select: { id: true } });
  if (existing) return "Demo data is loaded already.";
  const users = await upsertUsers();
  const admin = users["admin@yardstick.local"];

  const batchDir = path.join(DATA_DIR, "demo", "kitchen-batch");
  const generated = await generateEnactDemoBatch({ outDir: batchDir, seed: 7 });

  const study = await db.study.create({
    data: {
      slug: DEMO_STUDY,
      title: "ENACT demo: forward and inverse world modeling",
      instructions,
      overlap: 3,
      confidenceScale: "LIKERT_5",
      createdById: users["researcher@yardstick.local"],
    },
    select: { id: true },
  });
  await importBatchFromPath(path.join(root, "data", "enact-sample"), { studySlug: DEMO_STUDY, importedById: admin });
  await importBatchFromPath(batchDir, { studySlug: DEMO_STUDY, importedById: admin });
  await db.studyMember.createMany({
    data: demoLogins.filter((l) => l.dbRole === "ANNOTATOR").map((l) => ({ studyId: study.id, userId: users[l.email] })),
  });
  const nonPractice = generated.items.filter((item) => !item.practice);
  const modelRun = generateSyntheticModelRun(nonPractice, { seed: 11, name: "synthetic noisy oracle (not a real model)" });
  await importModelRun({
    studySlug: DEMO_STUDY,
    name: modelRun.name,
    answersJsonl: modelRun.jsonl,
    fileName: "synthetic-model-run.jsonl",
    importedById: admin,
  });

  const simulated = await db.study.create({
    data: {
      slug: SIMULATED_STUDY,
      title: "ENACT demo, simulated responses",
      instructions:
        "Every response in this study comes from **simulated** annotators (a seeded model, not people), so that the dashboards have data to show. Use the *ENACT demo* study for real work.",
      overlap: 3,
      confidenceScale: "LIKERT_5",
      createdById: users["researcher@yardstick.local"],
    },
    select: { id: true, idleCapSeconds: true },
  });
  await importBatchFromPath(batchDir, { studySlug: SIMULATED_STUDY, importedById: admin });
  const simulation = await simulateResponses(simulated.id, simulated.idleCapSeconds);
  await importModelRun({
    studySlug: SIMULATED_STUDY,
    name: modelRun.name,
    answersJsonl: modelRun.jsonl,
    fileName: "synthetic-model-run.jsonl",
    importedById: admin,
  });
  const gridwmItems = await seedGridwmStudy(users, admin);
  const egoItems = await seedEgo2worldStudy(
    users,
    admin,
    demoLogins.filter((l) => l.dbRole === "ANNOTATOR").map((l) => users[l.email]),
  );

  const esi = await seedEsiStudies(
    users,
    admin,
    demoLogins.filter((l) => l.dbRole === "ANNOTATOR").map((l) => users[l.email]),
  );
  const exploreItems = await seedExploreStudy(
    users,
    admin,
    demoLogins.filter((l) => l.dbRole === "ANNOTATOR").map((l) => users[l.email]),
  );
  await seedRatingStudy(
    users,
    admin,
    demoLogins.filter((l) => l.dbRole === "ANNOTATOR").map((l) => users[l.email]),
  );
  await seedPairwiseStudy(
    users,
    admin,
    demoLogins.filter((l) => l.dbRole === "ANNOTATOR").map((l) => users[l.email]),
  );
  await seedChoiceStudy(
    users,
    admin,
    demoLogins.filter((l) => l.dbRole === "ANNOTATOR").map((l) => users[l.email]),
  );
  const freeTextItems = await seedFreeTextStudy(
    users,
    admin,
    demoLogins.filter((l) => l.dbRole === "ANNOTATOR").map((l) => users[l.email]),
  );

  return `Demo loaded: ${demoLogins.length} accounts; study "${DEMO_STUDY}" with 16 real ENACT items and ${generated.items.length} generated ones; study "${SIMULATED_STUDY}" with ${simulation.responses} simulated responses; study "${GRIDWM_STUDY}" with ${gridwmItems} GridWM-Judge items; study "${EGO2WORLD_STUDY}" with ${egoItems} Ego2World episodes; studies "${ESI_STUDY}" and "${ESI_SIMULATED_STUDY}" with ${esi.items} ESI-Bench items (${esi.simulated} simulated explorations); study "${EXPLORE_STUDY}" with ${exploreItems} EXPLORE-Bench scenes; study "${FREE_TEXT_STUDY}" with ${freeTextItems} free-text questions (SYNTHETIC judge grades) and its grading study.`;
}
