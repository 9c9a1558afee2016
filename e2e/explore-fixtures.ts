import { createHash, randomUUID } from "node:crypto";
import sharp from "sharp";
import { scoreStructured, type SceneObject } from "../lib/tasks/shared/explore/scorer";
import { e2eDb } from "./db";
import { e2eUsers, type E2eUserName } from "./users";

/**
 * A study with one EXPLORE-Bench `explore-scene` item for the annotator specs: a real tiny JPEG as
 * the initial image (made with sharp), a long action list (so that it scrolls in its panel) and a
 * vocabulary, written straight into the run's database and removed again afterwards.
 */

export interface ExploreFixtureStudy {
  id: string;
  slug: string;
  itemId: string;
  actions: string[];
}

export const EXPLORE_VOCABULARY = ["bowl", "colander", "kitchen counter", "sink", "faucet"];

export function exploreActions(count: number): string[] {
  const verbs = [
    "C looks at the sink",
    "C picks up the bowl",
    "C rinses the bowl under the faucet",
    "C puts the bowl on the kitchen counter",
    "C opens the cabinet",
    "C closes the cabinet",
  ];
  return Array.from({ length: count }, (_, i) => `${verbs[i % verbs.length]} (${i + 1})`);
}

export async function createExploreStudy(options: { members?: E2eUserName[]; actionCount?: number; freeText?: boolean } = {}): Promise<ExploreFixtureStudy> {
  const db = e2eDb();
  const id = `st_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const slug = `explore-e2e-${randomUUID().slice(0, 8)}`;
  await db.query(
    `INSERT INTO "Study" (id, slug, title, instructions, overlap, "confidenceScale", status, "completionCode", "idleCapSeconds", "taskSettings", "pseudonymSalt", "updatedAt")
     VALUES ($1, $2, 'EXPLORE-Bench (e2e)', '## How to work\n\nDescribe the final scene.', 1, 'LIKERT_5', 'OPEN', 'EXPLORE-E2E', 60, $3, $4, now())`,
    [id, slug, JSON.stringify(options.freeText ? { "explore-scene": { freeText: true } } : {}), randomUUID()],
  );
  const batchId = `ba_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await db.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'explore (e2e)', $3, 1)`, [batchId, id, randomUUID()]);
  for (const name of options.members ?? []) {
    await db.query(`INSERT INTO "StudyMember" ("studyId", "userId") SELECT $1, id FROM "User" WHERE email = $2`, [id, e2eUsers[name].email]);
  }
  // a 64x48 kitchen-ish picture: grey counter, white bowl, steel sink
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 150, g: 150, b: 150 } } })
    .composite([
      { input: { create: { width: 14, height: 8, channels: 3, background: { r: 250, g: 250, b: 245 } } }, left: 10, top: 20 },
      { input: { create: { width: 20, height: 12, channels: 3, background: { r: 120, g: 130, b: 140 } } }, left: 36, top: 16 },
    ])
    .jpeg()
    .toBuffer();
  const hash = createHash("sha256").update(jpeg).digest("hex");
  await db.query(`INSERT INTO "Asset" (hash, mime, size, bytes) VALUES ($1, 'image/jpeg', $2, $3) ON CONFLICT (hash) DO NOTHING`, [hash, jpeg.length, jpeg]);
  await db.query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, hash]);
  const actions = exploreActions(options.actionCount ?? 150);
  const publicPart = { initialImage: `/api/assets/${hash}`, actions, vocabulary: EXPLORE_VOCABULARY };
  const key = {
    objects: [
      { category: "bowl", description: "white ceramic bowl", relation: ["bowl on kitchen counter", "bowl next to sink"] },
      { category: "kitchen counter", description: "grey counter", relation: [] },
      { category: "sink", description: "metal sink", relation: [] },
    ],
  };
  const itemId = `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await db.query(
    `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt")
     VALUES ($1, $2, $3, 'explore-0001', 'explore-scene', $4, $5, $6, false, false, $7, now())`,
    [
      itemId,
      id,
      batchId,
      JSON.stringify(publicPart),
      JSON.stringify(key),
      JSON.stringify({ subset: "Medium", actions: actions.length, source: "e2e" }),
      randomUUID(),
    ],
  );
  return { id, slug, itemId, actions };
}

/**
 * A study for the EXPLORE dashboard: two items (Short, Medium) and one abnormal-outcome item (key
 * states) answered by both e2e annotators (a structured scene and a typed description), and a model
 * run's free text for the first two, each scored by the real structured scorer as the app would.
 */
export async function createExploreDashboardStudy(): Promise<ExploreFixtureStudy & { runId: string }> {
  const db = e2eDb();
  const study = await createExploreStudy({ members: ["annotator", "annotator2"], actionCount: 40 });
  await db.query(`UPDATE "Item" SET tags = $2 WHERE id = $1`, [study.itemId, JSON.stringify({ subset: "Short", actions: 40, source: "e2e" })]);
  const {
    rows: [batch],
  } = await db.query<{ batchId: string; public: unknown; key: unknown }>(`SELECT "batchId", public, key FROM "Item" WHERE id = $1`, [study.itemId]);
  const mediumId = `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const mediumKey = {
    objects: [
      { category: "cabbage", description: "shredded green cabbage", relation: ["cabbage in colander"] },
      { category: "colander", description: "metal colander", relation: ["colander in sink"] },
    ],
  };
  await db.query(
    `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt")
     VALUES ($1, $2, $3, 'explore-0002', 'explore-scene', $4, $5, $6, false, false, $7, now())`,
    [
      mediumId,
      study.id,
      batch.batchId,
      JSON.stringify(batch.public),
      JSON.stringify(mediumKey),
      JSON.stringify({ subset: "Medium", actions: 140, source: "e2e" }),
      randomUUID(),
    ],
  );
  // an abnormal outcome: the key states that the faucet was left running
  const abnormalId = `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const abnormalKey = {
    objects: [
      { category: "faucet", description: "chrome faucet, running", relation: ["faucet above sink"] },
      { category: "sink", description: "filling with water", relation: [] },
    ],
    keyStates: ["the faucet is left running"],
  };
  await db.query(
    `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt")
     VALUES ($1, $2, $3, 'explore-0003', 'explore-scene', $4, $5, $6, false, false, $7, now())`,
    [
      abnormalId,
      study.id,
      batch.batchId,
      JSON.stringify(batch.public),
      JSON.stringify(abnormalKey),
      JSON.stringify({ subset: "Short", actions: 40, source: "e2e" }),
      randomUUID(),
    ],
  );
  const keys: Record<string, { objects: SceneObject[]; keyStates?: string[] }> = {
    [study.itemId]: batch.key as { objects: SceneObject[] },
    [mediumId]: mediumKey,
    [abnormalId]: abnormalKey,
  };
  const answers: Array<{ user: E2eUserName; itemId: string; answer: { objects: SceneObject[]; text: string } }> = [
    {
      user: "annotator",
      itemId: study.itemId,
      answer: {
        objects: [
          { category: "bowl", description: "white ceramic", relation: ["bowl on kitchen counter"] },
          { category: "kitchen counter", description: "", relation: [] },
        ],
        text: "The bowl is white ceramic, on the kitchen counter. There is a kitchen counter.",
      },
    },
    { user: "annotator2", itemId: study.itemId, answer: { objects: [], text: "A white bowl sits on the grey kitchen counter next to the metal sink." } },
    {
      user: "annotator",
      itemId: mediumId,
      answer: {
        objects: [
          { category: "cabbage", description: "green", relation: ["cabbage in colander"] },
          { category: "colander", description: "", relation: [] },
        ],
        text: "The cabbage is green, in the colander. There is a colander.",
      },
    },
    { user: "annotator2", itemId: mediumId, answer: { objects: [], text: "Green cabbage is in a metal colander in the sink." } },
    {
      user: "annotator",
      itemId: abnormalId,
      answer: {
        objects: [
          { category: "faucet", description: "running", relation: ["faucet above sink"] },
          { category: "sink", description: "full of water", relation: [] },
        ],
        text: "The faucet is running, above the sink. The sink is full of water.",
      },
    },
    { user: "annotator2", itemId: abnormalId, answer: { objects: [], text: "The faucet was left running and the sink is filling up." } },
  ];
  let position = 0;
  for (const { user, itemId, answer } of answers) {
    const score = scoreStructured(answer, keys[itemId]);
    const assignmentId = `as_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
    await db.query(
      `INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", status, purpose, position, "startedAt", "submittedAt")
       SELECT $1, $2, $3, id, 'SUBMITTED', 'MAIN', $4, now(), now() FROM "User" WHERE email = $5`,
      [assignmentId, study.id, itemId, position++, e2eUsers[user].email],
    );
    await db.query(
      `INSERT INTO "Response" (id, "assignmentId", "clientId", answer, "confidenceRaw", confidence, "wallMs", "activeMs", score, correct)
       VALUES ($1, $2, $3, $4, 4, 0.75, 60000, 50000, $5, $6)`,
      [`re_${randomUUID().replace(/-/g, "").slice(0, 20)}`, assignmentId, randomUUID(), JSON.stringify(answer), JSON.stringify(score), score.correct],
    );
  }
  const runId = `mr_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await db.query(`INSERT INTO "ModelRun" (id, "studyId", name) VALUES ($1, $2, 'Model X (e2e)')`, [runId, study.id]);
  for (const [itemId, text] of [
    [study.itemId, "There is a bowl on the counter."],
    [mediumId, "Cabbage lies in a colander."],
  ] as const) {
    const answer = { objects: [], text };
    const score = scoreStructured(answer, keys[itemId]);
    await db.query(`INSERT INTO "ModelPrediction" (id, "runId", "itemId", answer, score, correct) VALUES ($1, $2, $3, $4, $5, $6)`, [
      `mp_${randomUUID().replace(/-/g, "").slice(0, 20)}`,
      runId,
      itemId,
      JSON.stringify(answer),
      JSON.stringify(score),
      score.correct,
    ]);
  }
  return { ...study, runId };
}
