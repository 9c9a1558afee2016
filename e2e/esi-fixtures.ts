import { createHash, randomUUID } from "node:crypto";
import sharp from "sharp";
import { buildEsiDemo, type EsiDemoItem } from "../scripts/demo-data/esi/esi-scenes";
import { e2eDb } from "./db";
import { e2eUsers, type E2eUserName } from "./users";

/**
 * Factories for the ESI-Bench spec: a study with conditions and items from the demo generator
 * (scripts/demo-data/esi/esi-scenes.ts), written straight into the run's database with pg: only the images an
 * assignment's condition can show are rendered and stored (the whole graph for active ones), and
 * each assignment is created with its condition (the study's counterbalancing is tested on its
 * own). Deleting the study removes everything (cascades).
 */

export interface EsiFixtureAssignment {
  id: string;
  itemId: string;
  externalId: string;
  condition: string;
  item: EsiDemoItem;
  /** image path in the demo batch -> served URL */
  urls: Map<string, string>;
}

export interface EsiFixtureStudy {
  id: string;
  slug: string;
  assignments: EsiFixtureAssignment[];
}

const demo = buildEsiDemo();
const svgByPath = new Map(demo.images.map((image) => [image.path, image.svg]));

async function storeImage(studyId: string, imagePath: string): Promise<string> {
  const svg = svgByPath.get(imagePath);
  if (!svg) throw new Error(`no image ${imagePath} in the ESI demo`);
  const bytes = await sharp(Buffer.from(svg)).png({ palette: true, colours: 128, compressionLevel: 6, effort: 1 }).toBuffer();
  const hash = createHash("sha256").update(bytes).digest("hex");
  const db = e2eDb();
  await db.query(`INSERT INTO "Asset" (hash, mime, size, bytes) VALUES ($1, 'image/png', $2, $3) ON CONFLICT (hash) DO NOTHING`, [hash, bytes.length, bytes]);
  await db.query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [studyId, hash]);
  return `/api/assets/${hash}`;
}

function rewrite(value: unknown, urls: Map<string, string>): unknown {
  if (typeof value === "string") return urls.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => rewrite(v, urls));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, urls)]));
  return value;
}

/** The images an assignment in this condition can show. */
function imagesFor(item: EsiDemoItem, condition: string): string[] {
  if (condition === "passive-single") return [item.public.initialImage];
  if (condition === "passive-multi") return [item.public.initialImage, ...item.key.views.multi];
  if (condition === "passive-gt") return [item.public.initialImage, ...item.key.views.gt];
  return Object.values(item.key.graph.states).map((state) => state.image);
}

export async function createEsiStudy(options: {
  user: E2eUserName;
  work: Array<{ item: string; condition: string }>;
  settings?: Record<string, unknown>;
}): Promise<EsiFixtureStudy> {
  const db = e2eDb();
  const id = `st_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const slug = `esi-e2e-${randomUUID().slice(0, 8)}`;
  await db.query(
    `INSERT INTO "Study" (id, slug, title, instructions, overlap, "confidenceScale", status, "idleCapSeconds", conditions, "taskSettings", "pseudonymSalt", "updatedAt")
     VALUES ($1, $2, 'ESI-Bench (e2e)', '## Explore, then answer', 1, 'PERCENT', 'OPEN', 60, $3, $4, $5, now())`,
    [id, slug, ["passive-single", "passive-multi", "passive-gt", "active"], JSON.stringify(options.settings ?? {}), randomUUID()],
  );
  const batchId = `ba_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await db.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'esi demo (e2e)', $3, $4)`, [
    batchId,
    id,
    randomUUID(),
    options.work.length,
  ]);
  const user = await db.query(`SELECT id FROM "User" WHERE email = $1`, [e2eUsers[options.user].email]);
  const userId = user.rows[0].id as string;
  await db.query(`INSERT INTO "StudyMember" ("studyId", "userId") VALUES ($1, $2)`, [id, userId]);

  const assignments: EsiFixtureAssignment[] = [];
  for (const [position, work] of options.work.entries()) {
    const item = demo.items.find((candidate) => candidate.id === work.item);
    if (!item) throw new Error(`no ESI demo item ${work.item}`);
    const urls = new Map<string, string>();
    for (const imagePath of new Set(imagesFor(item, work.condition))) urls.set(imagePath, await storeImage(id, imagePath));
    const itemId = `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
    await db.query(
      `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt")
       VALUES ($1, $2, $3, $4, 'esi-explore', $5, $6, $7, false, false, $8, now())`,
      [
        itemId,
        id,
        batchId,
        item.id,
        JSON.stringify(rewrite(item.public, urls)),
        JSON.stringify(rewrite(item.key, urls)),
        JSON.stringify(item.tags),
        randomUUID(),
      ],
    );
    const assignmentId = `as_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
    await db.query(
      `INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", status, purpose, position, condition) VALUES ($1, $2, $3, $4, 'ASSIGNED', 'MAIN', $5, $6)`,
      [assignmentId, id, itemId, userId, position, work.condition],
    );
    assignments.push({ id: assignmentId, itemId, externalId: item.id, condition: work.condition, item, urls });
  }
  return { id, slug, assignments };
}

export async function playStepsOf(
  assignmentId: string,
): Promise<Array<{ seq: number; action: { name: string; args: string[] }; valid: boolean; view: { image?: string } }>> {
  const result = await e2eDb().query(`SELECT seq, action, valid, view FROM "PlayStep" WHERE "assignmentId" = $1 ORDER BY seq`, [assignmentId]);
  return result.rows;
}

export async function stepLabelsOf(assignmentId: string): Promise<Array<{ seq: number; label: string }>> {
  const result = await e2eDb().query(`SELECT seq, label::text AS label FROM "StepLabel" WHERE "assignmentId" = $1 ORDER BY seq`, [assignmentId]);
  return result.rows;
}
