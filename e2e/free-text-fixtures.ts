import { createHash, randomUUID } from "node:crypto";
import sharp from "sharp";
import { e2eDb } from "./db";
import { e2eUsers, type E2eUserName } from "./users";

/**
 * Studies for the free-text specs, written straight into the run's database: a `free-text` study
 * (a drawn room as the image, a question with reference answers) and a grading study of the
 * grading kind `free-text-grade` (one answer to grade 1-5).
 */

export interface FreeTextFixtureStudy {
  id: string;
  slug: string;
}

async function study(kind: string, members: E2eUserName[], title: string): Promise<{ id: string; slug: string; batchId: string }> {
  const db = e2eDb();
  const id = `st_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const slug = `${kind}-e2e-${randomUUID().slice(0, 8)}`;
  await db.query(
    `INSERT INTO "Study" (id, slug, title, instructions, overlap, "confidenceScale", status, "completionCode", "idleCapSeconds", "pseudonymSalt", "updatedAt")
     VALUES ($1, $2, $3, '## How to work\n\nAnswer in your own words.', 1, 'LIKERT_5', 'OPEN', 'FREE-TEXT-E2E', 60, $4, now())`,
    [id, slug, title, randomUUID()],
  );
  const batchId = `ba_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await db.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'free-text (e2e)', $3, 1)`, [
    batchId,
    id,
    randomUUID(),
  ]);
  for (const name of members)
    await db.query(`INSERT INTO "StudyMember" ("studyId", "userId") SELECT $1, id FROM "User" WHERE email = $2`, [id, e2eUsers[name].email]);
  return { id, slug, batchId };
}

async function item(studyId: string, batchId: string, externalId: string, kind: string, publicPart: unknown, key: unknown, tags: unknown = {}) {
  await e2eDb().query(
    `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, false, false, $9, now())`,
    [
      `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`,
      studyId,
      batchId,
      externalId,
      kind,
      JSON.stringify(publicPart),
      JSON.stringify(key),
      JSON.stringify(tags),
      randomUUID(),
    ],
  );
}

export const FREE_TEXT_QUESTION = "What color is the sofa?";
export const FREE_TEXT_REFERENCE = "SecretRef red";

export async function createFreeTextStudy(members: E2eUserName[] = ["annotator"]): Promise<FreeTextFixtureStudy> {
  const { id, slug, batchId } = await study("free-text", members, "Free text (e2e)");
  // a drawn room: beige wall, a red sofa
  const png = await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 235, g: 225, b: 200 } } })
    .composite([{ input: { create: { width: 50, height: 18, channels: 3, background: { r: 200, g: 30, b: 40 } } }, left: 20, top: 38 }])
    .png()
    .toBuffer();
  const hash = createHash("sha256").update(png).digest("hex");
  await e2eDb().query(`INSERT INTO "Asset" (hash, mime, size, bytes) VALUES ($1, 'image/png', $2, $3) ON CONFLICT (hash) DO NOTHING`, [hash, png.length, png]);
  await e2eDb().query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, hash]);
  await item(
    id,
    batchId,
    "ft-0001",
    "free-text",
    { question: FREE_TEXT_QUESTION, media: { images: [`/api/assets/${hash}`] }, maxChars: 200 },
    { answer: FREE_TEXT_REFERENCE, extraAnswers: ["SecretExtra crimson"] },
    { category: "attribute recognition" },
  );
  return { id, slug };
}

export const GRADE_ANSWER = "It is a dark red sofa";

export async function createGradingStudy(members: E2eUserName[] = ["annotator"]): Promise<FreeTextFixtureStudy> {
  const { id, slug, batchId } = await study("free-text-grade", members, "Grading (e2e)");
  await item(
    id,
    batchId,
    "grade-0001",
    "free-text-grade",
    { question: FREE_TEXT_QUESTION, references: ["Red", "Crimson"], answer: GRADE_ANSWER },
    { source: { study: "st_source", response: "resp_source" } },
  );
  return { id, slug };
}

/**
 * A free-text study for the dashboard: three questions of two categories, answered by both e2e
 * annotators (submitted responses written as the app would, ungraded), and no grade yet.
 */
export async function createFreeTextDashboardStudy(): Promise<FreeTextFixtureStudy & { answers: Array<{ item: string; text: string; references: string[] }> }> {
  const { id, slug, batchId } = await study("free-text", ["annotator", "annotator2"], "Free text dashboard (e2e)");
  const questions = [
    { ext: "ft-1", question: "What color is the sofa?", answer: "Red", category: "attribute recognition" },
    { ext: "ft-2", question: "Where is the kettle?", answer: "On the counter", category: "object localization" },
    { ext: "ft-3", question: "Is the door open?", answer: "No", category: "object localization" },
  ];
  for (const q of questions) await item(id, batchId, q.ext, "free-text", { question: q.question }, { answer: q.answer }, { category: q.category });
  const typed: Record<string, [string, string]> = { "ft-1": ["red", "dark red sofa"], "ft-2": ["on the counter", "in the sink"], "ft-3": ["no", "yes it is"] };
  const answers: Array<{ item: string; text: string; references: string[] }> = [];
  let position = 0;
  for (const q of questions) {
    const {
      rows: [itemRow],
    } = await e2eDb().query<{ id: string }>(`SELECT id FROM "Item" WHERE "studyId" = $1 AND "externalId" = $2`, [id, q.ext]);
    for (const [i, user] of (["annotator", "annotator2"] as const).entries()) {
      const assignmentId = `as_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
      await e2eDb().query(
        `INSERT INTO "Assignment" (id, "studyId", "itemId", "userId", status, position, "submittedAt", "createdAt") SELECT $1, $2, $3, u.id, 'SUBMITTED', $4, now(), now() FROM "User" u WHERE u.email = $5`,
        [assignmentId, id, itemRow.id, position++, e2eUsers[user].email],
      );
      await e2eDb().query(
        `INSERT INTO "Response" (id, "assignmentId", "clientId", answer, "confidenceRaw", confidence, "wallMs", "activeMs", score, correct, "createdAt") VALUES ($1, $2, $3, $4, 4, 0.75, 5000, 4000, $5, false, now())`,
        [
          `re_${randomUUID().replace(/-/g, "").slice(0, 20)}`,
          assignmentId,
          randomUUID(),
          JSON.stringify({ text: typed[q.ext][i] }),
          JSON.stringify({ grade: null, score: null }),
        ],
      );
      answers.push({ item: q.ext, text: typed[q.ext][i], references: [q.answer] });
    }
  }
  return { id, slug, answers };
}
