import { createHash, randomUUID } from "node:crypto";
import type pg from "pg";
import { ego2worldPlayModule } from "../lib/tasks/ego2world-play";
import { areaSvg } from "../scripts/demo-data/ego2world/draw";
import { coffeeEpisode, type DemoEpisode } from "../scripts/demo-data/ego2world/episodes";
import { episodeItem, renderAreaPng, syntheticRuns } from "../scripts/demo-data/ego2world/generate-ego2world-batch";
import { e2eDb } from "./db";
import { e2eUsers, type E2eUserName } from "./users";

/**
 * Factories for the Ego2World spec: a study with demo kitchen episodes (scripts/demo-data/ego2world)
 * and their area pictures, written straight into the run's database with pg, plus the demo's
 * synthetic agent runs scored by the kind's own scorer; removed again afterwards (cascades).
 */

export interface EgoFixtureStudy {
  id: string;
  slug: string;
  items: Array<{ id: string; externalId: string; public: Record<string, unknown>; key: Record<string, unknown> }>;
}

async function storeAsset(db: pg.Pool, studyId: string, bytes: Buffer): Promise<string> {
  const hash = createHash("sha256").update(bytes).digest("hex");
  await db.query(`INSERT INTO "Asset" (hash, mime, size, bytes) VALUES ($1, 'image/png', $2, $3) ON CONFLICT (hash) DO NOTHING`, [hash, bytes.length, bytes]);
  await db.query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [studyId, hash]);
  return `/api/assets/${hash}`;
}

export async function createEgoStudy(
  options: { episodes?: DemoEpisode[]; members?: E2eUserName[]; agentRuns?: boolean; taskSettings?: Record<string, unknown> } = {},
): Promise<EgoFixtureStudy> {
  const db = e2eDb();
  const episodes = options.episodes ?? [coffeeEpisode];
  const id = `st_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const slug = `ego-e2e-${randomUUID().slice(0, 8)}`;
  await db.query(
    `INSERT INTO "Study" (id, slug, title, instructions, overlap, "confidenceScale", status, "completionCode", "idleCapSeconds", "taskSettings", "pseudonymSalt", "updatedAt")
     VALUES ($1, $2, 'Ego2World (e2e)', $3, 2, 'LIKERT_5', 'OPEN', 'EGO-E2E', 60, $4, $5, now())`,
    [id, slug, "## Play the kitchen\n\nDo each task, keep your notes, then submit.", JSON.stringify(options.taskSettings ?? {}), randomUUID()],
  );
  const batchId = `ba_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await db.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'ego2world demo (e2e)', $3, $4)`, [
    batchId,
    id,
    randomUUID(),
    episodes.length,
  ]);
  for (const name of options.members ?? []) {
    await db.query(`INSERT INTO "StudyMember" ("studyId", "userId") SELECT $1, id FROM "User" WHERE email = $2`, [id, e2eUsers[name].email]);
  }
  const items: EgoFixtureStudy["items"] = [];
  for (const [n, episode] of episodes.entries()) {
    const line = episodeItem(episode);
    const areas: Record<string, { image: string }> = {};
    for (const area of Object.keys(line.public.areas))
      areas[area] = { image: await storeAsset(db, id, await renderAreaPng(areaSvg(episode, area, episode.world))) };
    const publicPart = { ...line.public, areas };
    const itemId = `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
    await db.query(
      `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt")
       VALUES ($1, $2, $3, $4, 'ego2world-play', $5, $6, $7, false, false, $8, now() + ($9 || ' milliseconds')::interval)`,
      [itemId, id, batchId, line.id, JSON.stringify(publicPart), JSON.stringify(line.key), JSON.stringify(line.tags), randomUUID(), String(n)],
    );
    items.push({ id: itemId, externalId: line.id, public: publicPart, key: line.key as unknown as Record<string, unknown> });
  }
  if (options.agentRuns) {
    for (const run of syntheticRuns(episodes, 1)) {
      const runId = `mr_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
      await db.query(`INSERT INTO "ModelRun" (id, "studyId", name) VALUES ($1, $2, $3)`, [runId, id, run.name]);
      for (const text of run.jsonl.trim().split("\n")) {
        const { id: externalId, answer } = JSON.parse(text) as { id: string; answer: unknown };
        const item = items.find((entry) => entry.externalId === externalId)!;
        const parsed = ego2worldPlayModule.parseModelAnswer(answer)!;
        const score = ego2worldPlayModule.score(parsed, item.key as never, {
          id: externalId,
          kind: "ego2world-play",
          public: item.public as never,
          key: item.key as never,
          tags: {},
        });
        await db.query(`INSERT INTO "ModelPrediction" (id, "runId", "itemId", answer, score, correct) VALUES ($1, $2, $3, $4, $5, $6)`, [
          `mp_${randomUUID().replace(/-/g, "").slice(0, 20)}`,
          runId,
          item.id,
          JSON.stringify(parsed),
          JSON.stringify(score),
          ego2worldPlayModule.correct(score),
        ]);
      }
    }
  }
  return { id, slug, items };
}

export async function playStepsOf(
  assignmentId: string,
): Promise<Array<{ seq: number; action: Record<string, unknown>; valid: boolean; message: string | null }>> {
  const result = await e2eDb().query(`SELECT seq, action, valid, message FROM "PlayStep" WHERE "assignmentId" = $1 ORDER BY seq`, [assignmentId]);
  return result.rows;
}
