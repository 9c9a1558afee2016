import { createHash, randomUUID } from "node:crypto";
import type pg from "pg";
import { buildGridwmDemoBatch, type GridwmDemoItem } from "../scripts/demo-data/gridwm/generate-gridwm-batch";
import { svgToPng, viewFrameSvg } from "../scripts/demo-data/gridwm/render";
import { egocentricView, makeWorld } from "../scripts/demo-data/gridwm/world";
import { convertGridwmExamLine } from "../lib/tasks/shared/gridwm/exam";
import { e2eDb } from "./db";
import { e2eUsers, type E2eUserName } from "./users";

/**
 * Factories for the GridWM specs: a study with items from the demo generator
 * (scripts/demo-data/gridwm), only the images they use rendered, written straight into the run's
 * database with pg and removed again afterwards (cascades remove items, assignments, responses,
 * events). Storyboards are the clean ones (rendered from SVG alone).
 */

export type GridwmKind = GridwmDemoItem["kind"];

export interface GridwmFixtureItem {
  id: string;
  externalId: string;
  kind: GridwmKind;
  practice: boolean;
  key: Record<string, unknown>;
  public: Record<string, unknown>;
}

export interface GridwmFixtureStudy {
  id: string;
  slug: string;
  title: string;
  items: GridwmFixtureItem[];
}

async function storeAsset(db: pg.Pool, studyId: string, bytes: Buffer): Promise<string> {
  const hash = createHash("sha256").update(bytes).digest("hex");
  await db.query(`INSERT INTO "Asset" (hash, mime, size, bytes) VALUES ($1, 'image/png', $2, $3) ON CONFLICT (hash) DO NOTHING`, [hash, bytes.length, bytes]);
  await db.query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [studyId, hash]);
  return `/api/assets/${hash}`;
}

/** Every "img/..." string of a public part replaced by its stored asset's URL. */
async function withAssets(value: unknown, replace: (ref: string) => Promise<string>): Promise<unknown> {
  if (typeof value === "string") return value.startsWith("img/") ? replace(value) : value;
  if (Array.isArray(value)) return Promise.all(value.map((v) => withAssets(v, replace)));
  if (value && typeof value === "object") {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await withAssets(v, replace)] as const));
    return Object.fromEntries(entries);
  }
  return value;
}

export interface GridwmPick {
  kind: GridwmKind;
  practice?: boolean;
  /** Task C: the framing (preamble) of the storyboard; clean visual, orig, full */
  framing?: "neutral" | "positive" | "negative";
  /** Task B: an item on a grid of this size ("8x8"), with or without objects */
  grid?: string;
  /** the demo batch's own practice item of the kind (as the demo study shows it) */
  demoPractice?: boolean;
  /**
   * Task B as the authors' exam file holds it (converted as `yardstick import` does): an agent's-own-view
   * frame and this gold, from environment `env` (its grid size comes with the import)
   */
  exam?: { env: string; gold: Record<string, unknown> };
}

export async function createGridwmStudy(options: {
  picks: GridwmPick[];
  members?: E2eUserName[];
  confidenceScale?: "LIKERT_5" | "PERCENT";
  title?: string;
}): Promise<GridwmFixtureStudy> {
  const db = e2eDb();
  const built = buildGridwmDemoBatch(5, { groupsPerEnv: 1, poolPerEnv: 3, taskAPerEnv: 2, taskBPerEnv: 2 });
  const plans = new Map(built.images.map((plan) => [plan.path, plan]));
  const id = `st_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const slug = `gridwm-e2e-${randomUUID().slice(0, 8)}`;
  const title = options.title ?? "GridWM-Judge (e2e)";
  await db.query(
    `INSERT INTO "Study" (id, slug, title, instructions, overlap, "confidenceScale", status, "completionCode", "idleCapSeconds", "updatedAt")
     VALUES ($1, $2, $3, $4, 1, $5, 'OPEN', 'GRIDWM-E2E', 60, now())`,
    [
      id,
      slug,
      title,
      "## How to work\n\nMiniGrid items: pick the next observation, describe a scene, judge a storyboard.",
      options.confidenceScale ?? "LIKERT_5",
    ],
  );
  const batchId = `ba_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await db.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'gridwm demo (e2e)', $3, $4)`, [
    batchId,
    id,
    randomUUID(),
    options.picks.length,
  ]);
  for (const name of options.members ?? []) {
    await db.query(`INSERT INTO "StudyMember" ("studyId", "userId") SELECT $1, id FROM "User" WHERE email = $2`, [id, e2eUsers[name].email]);
  }
  const used = new Set<string>();
  const items: GridwmFixtureItem[] = [];
  let n = 0;
  for (const pick of options.picks) {
    if (pick.exam) {
      const examId = `B.${pick.exam.env}.${pick.exam.env}_e2e${n}.t0`;
      const line = convertGridwmExamLine(
        { exam_id: examId, task: "B", image: "img/ego", answer_json: pick.exam.gold },
        { file: "task_b_exam.jsonl", line: n + 1 },
      );
      const image = await storeAsset(db, id, await svgToPng(viewFrameSvg(egocentricView(makeWorld("doorkey", n + 1)))));
      const publicPart = { ...line.public, image };
      n += 1;
      const itemId = `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
      await db.query(
        `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, false, false, $9, now() + ($10 || ' milliseconds')::interval)`,
        [itemId, id, batchId, examId, line.kind, JSON.stringify(publicPart), JSON.stringify(line.key), JSON.stringify(line.tags), randomUUID(), String(n)],
      );
      items.push({ id: itemId, externalId: examId, kind: line.kind, practice: false, key: line.key, public: publicPart });
      continue;
    }
    const found = built.items.find(
      (item) =>
        item.kind === pick.kind &&
        !used.has(item.id) &&
        (pick.kind !== "gridwm-judge" ||
          (item.tags.visual === "clean" &&
            item.tags.temporal === "orig" &&
            item.tags.framing === (pick.framing ?? "neutral") &&
            item.tags.variant === "full")) &&
        (pick.kind === "gridwm-judge" || item.practice === (pick.demoPractice ?? false)) &&
        (pick.grid === undefined || item.tags.grid === pick.grid) &&
        // scenes with objects, so that the specs add objects too
        (pick.kind !== "gridwm-scene-json" ||
          pick.grid !== undefined ||
          pick.demoPractice ||
          (item.key as { answer_json: { objects: unknown[] } }).answer_json.objects.length > 0),
    );
    if (!found) throw new Error(`the GridWM demo batch has no further ${pick.kind} item for ${JSON.stringify(pick)}`);
    used.add(found.id);
    const publicPart = (await withAssets(found.public, async (ref) => {
      const plan = plans.get(ref);
      if (!plan) throw new Error(`no image plan for ${ref}`);
      return storeAsset(db, id, await svgToPng(plan.svg));
    })) as Record<string, unknown>;
    n += 1;
    const itemId = `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
    const practice = pick.practice ?? false;
    await db.query(
      `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, false, $10, now() + ($11 || ' milliseconds')::interval)`,
      [
        itemId,
        id,
        batchId,
        found.id,
        found.kind,
        JSON.stringify(publicPart),
        JSON.stringify(found.key),
        JSON.stringify(found.tags),
        practice,
        randomUUID(),
        String(n),
      ],
    );
    items.push({ id: itemId, externalId: found.id, kind: found.kind, practice, key: found.key, public: publicPart });
  }
  return { id, slug, title, items };
}
