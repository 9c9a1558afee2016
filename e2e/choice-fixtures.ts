import { createHash, randomUUID } from "node:crypto";
import sharp from "sharp";
import { e2eDb } from "./db";
import { e2eUsers, type E2eUserName } from "./users";

/**
 * A study with one `choice` item (five text options, a drawn picture as the stimulus; shuffled per
 * person) and one `numeric` item (MRA, a unit), written straight into the run's database, for the
 * annotator and dashboard specs of the generic kinds (e2e/choice.e2e.ts).
 */

export interface ChoiceFixtureStudy {
  id: string;
  slug: string;
  options: Array<{ id: string; text: string }>;
  keyed: string;
  numericAnswer: number;
}

async function storeImage(studyId: string, color: { r: number; g: number; b: number }): Promise<string> {
  const db = e2eDb();
  const bytes = await sharp({ create: { width: 96, height: 64, channels: 3, background: color } })
    .composite([{ input: { create: { width: 20, height: 20, channels: 3, background: { r: 240, g: 90, b: 20 } } }, left: 30, top: 20 }])
    .png()
    .toBuffer();
  const hash = createHash("sha256").update(bytes).digest("hex");
  await db.query(`INSERT INTO "Asset" (hash, mime, size, bytes) VALUES ($1, 'image/png', $2, $3) ON CONFLICT (hash) DO NOTHING`, [hash, bytes.length, bytes]);
  await db.query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [studyId, hash]);
  return `/api/assets/${hash}`;
}

export async function createChoiceStudy(options: { members?: E2eUserName[] } = {}): Promise<ChoiceFixtureStudy> {
  const db = e2eDb();
  const id = `st_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const slug = `choice-e2e-${randomUUID().slice(0, 8)}`;
  await db.query(
    `INSERT INTO "Study" (id, slug, title, instructions, overlap, "confidenceScale", status, "completionCode", "idleCapSeconds", "pseudonymSalt", "updatedAt")
     VALUES ($1, $2, 'Choose and estimate (e2e)', '## How to work\n\nChoose or type a number.', 1, 'LIKERT_5', 'OPEN', 'CHOICE-E2E', 60, $3, now())`,
    [id, slug, randomUUID()],
  );
  const batchId = `ba_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await db.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'choice (e2e)', $3, 2)`, [batchId, id, randomUUID()]);
  for (const name of options.members ?? []) {
    await db.query(`INSERT INTO "StudyMember" ("studyId", "userId") SELECT $1, id FROM "User" WHERE email = $2`, [id, e2eUsers[name].email]);
  }
  const picture = await storeImage(id, { r: 200, g: 220, b: 240 });
  const choiceOptions = [
    { id: "sofa", text: "the sofa" },
    { id: "lamp", text: "the lamp" },
    { id: "plant", text: "the plant" },
    { id: "tv", text: "the television" },
    { id: "rug", text: "the rug" },
  ];
  const insert = (externalId: string, kind: string, publicPart: unknown, key: unknown, tags: unknown) =>
    db.query(
      `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, false, false, $9, now())`,
      [
        `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`,
        id,
        batchId,
        externalId,
        kind,
        JSON.stringify(publicPart),
        JSON.stringify(key),
        JSON.stringify(tags),
        randomUUID(),
      ],
    );
  await insert(
    "choice-1",
    "choice",
    { question: "Which object is nearest to the orange square?", options: choiceOptions, media: { images: [picture] } },
    { answer: "plant" },
    { question_type: "object_rel_distance" },
  );
  await insert(
    "numeric-1",
    "numeric",
    { question: "How many meters from the door to the window?", unit: "meters", media: { images: [picture] } },
    { answer: 10, metric: "mra" },
    { question_type: "object_abs_distance" },
  );
  return { id, slug, options: choiceOptions, keyed: "plant", numericAnswer: 10 };
}
