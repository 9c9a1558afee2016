import { createHash, randomUUID } from "node:crypto";
import sharp from "sharp";
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
  const verbs = ["C looks at the sink", "C picks up the bowl", "C rinses the bowl under the faucet", "C puts the bowl on the kitchen counter", "C opens the cabinet", "C closes the cabinet"];
  return Array.from({ length: count }, (_, i) => `${verbs[i % verbs.length]} (${i + 1})`);
}

export async function createExploreStudy(options: { members?: E2eUserName[]; actionCount?: number } = {}): Promise<ExploreFixtureStudy> {
  const db = e2eDb();
  const id = `st_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const slug = `explore-e2e-${randomUUID().slice(0, 8)}`;
  await db.query(
    `INSERT INTO "Study" (id, slug, title, instructions, overlap, "confidenceScale", status, "completionCode", "idleCapSeconds", "updatedAt")
     VALUES ($1, $2, 'EXPLORE-Bench (e2e)', '## How to work\n\nDescribe the final scene.', 1, 'LIKERT_5', 'OPEN', 'EXPLORE-E2E', 60, now())`,
    [id, slug],
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
    [itemId, id, batchId, JSON.stringify(publicPart), JSON.stringify(key), JSON.stringify({ subset: "Medium", actions: actions.length, source: "e2e" }), randomUUID()],
  );
  return { id, slug, itemId, actions };
}
