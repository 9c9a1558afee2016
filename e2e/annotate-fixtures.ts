import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { convertEnactReleaseLine } from "../lib/tasks/shared/enact/release";
import { e2eDb } from "./db";
import { e2eUsers, type E2eUserName } from "./users";

/**
 * Factories for the annotator specs: a study with real ENACT items (data/enact-sample: the
 * release's images and gold orders), written straight into the run's database with pg and
 * removed again afterwards (cascades remove items, assignments, responses, events).
 *
 * The release has no scene graphs, so the keys get synthetic ones made of distinctive strings
 * ("KeyLeak<n>..."): an order-consistent chain of states for forward items, change sets for
 * inverse items. They make the verifier's semantic scoring run, and let the key-leak spec look
 * for key content in everything an annotator receives.
 */

const sampleRoot = path.resolve(import.meta.dirname, "../data/enact-sample");
const sampleFile = path.join(sampleRoot, "QA/enact_ordering_sample.jsonl");

export interface ItemSpec {
  kind: "enact-forward" | "enact-inverse";
  /** ENACT's step count: images per item (L = steps - 1 slots) */
  steps: number;
  practice?: boolean;
}

export interface FixtureItem {
  id: string;
  externalId: string;
  kind: "enact-forward" | "enact-inverse";
  practice: boolean;
  /** the key: order[i] = candidate index of step i */
  order: number[];
  /** distinctive strings that exist only in this item's key */
  secrets: string[];
  /** candidate texts (inverse) or image URLs (forward) */
  candidates: string[];
}

export interface FixtureStudy {
  id: string;
  slug: string;
  title: string;
  items: FixtureItem[];
}

interface ReleaseLine {
  type: string;
}

function releaseLines(): Array<{ raw: ReleaseLine & Record<string, unknown>; line: number }> {
  return readFileSync(sampleFile, "utf8")
    .split("\n")
    .map((text, i) => ({ text, line: i + 1 }))
    .filter(({ text }) => text.trim() !== "")
    .map(({ text, line }) => ({ raw: JSON.parse(text) as ReleaseLine & Record<string, unknown>, line }));
}

async function storeAsset(db: pg.Pool, studyId: string, relative: string): Promise<string> {
  const bytes = readFileSync(path.join(sampleRoot, relative));
  const hash = createHash("sha256").update(bytes).digest("hex");
  await db.query(`INSERT INTO "Asset" (hash, mime, size, bytes) VALUES ($1, 'image/png', $2, $3) ON CONFLICT (hash) DO NOTHING`, [hash, bytes.length, bytes]);
  await db.query(`INSERT INTO "StudyAsset" ("studyId", "assetHash") VALUES ($1, $2) ON CONFLICT DO NOTHING`, [studyId, hash]);
  return `/api/assets/${hash}`;
}

export async function createEnactStudy(options: {
  items: ItemSpec[];
  members?: E2eUserName[];
  overlap?: number;
  confidenceScale?: "LIKERT_5" | "PERCENT";
  completionCode?: string | null;
  instructions?: string;
  idleCapSeconds?: number;
  title?: string;
}): Promise<FixtureStudy> {
  const db = e2eDb();
  const id = `st_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const slug = `enact-e2e-${randomUUID().slice(0, 8)}`;
  const title = options.title ?? "ENACT world modeling (e2e)";
  await db.query(
    `INSERT INTO "Study" (id, slug, title, instructions, overlap, "confidenceScale", status, "completionCode", "idleCapSeconds", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, 'OPEN', $7, $8, now())`,
    [
      id,
      slug,
      title,
      options.instructions ??
        "## How to work\n\nPut the **shuffled** candidates in order. Practice items come first.\n\n- Drag, or use the keyboard\n- Then give your confidence",
      options.overlap ?? 1,
      options.confidenceScale ?? "LIKERT_5",
      options.completionCode === undefined ? "E2E-DONE-42" : options.completionCode,
      options.idleCapSeconds ?? 60,
    ],
  );
  const batchId = `ba_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
  await db.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'enact-sample (e2e)', $3, $4)`, [
    batchId,
    id,
    randomUUID(),
    options.items.length,
  ]);
  for (const name of options.members ?? []) {
    await db.query(`INSERT INTO "StudyMember" ("studyId", "userId") SELECT $1, id FROM "User" WHERE email = $2`, [id, e2eUsers[name].email]);
  }

  const lines = releaseLines();
  const items: FixtureItem[] = [];
  let n = 0;
  for (const spec of options.items) {
    const type = `${spec.kind === "enact-forward" ? "forward" : "inverse"}_world_modeling_ordering_${spec.steps}_steps`;
    const found = lines.find(({ raw }) => raw.type === type);
    if (!found) throw new Error(`data/enact-sample has no ${type} item`);
    const native = convertEnactReleaseLine(found.raw, { file: "QA/enact_ordering_sample.jsonl", line: found.line });
    n += 1;
    const tag = `KeyLeak${n}x${randomUUID().slice(0, 6)}`;
    const order = native.key.order;
    const L = order.length;
    const fact = (step: number) => `${tag}Fact${step}`;
    let publicPart: Record<string, unknown>;
    let key: Record<string, unknown>;
    if (native.kind === "enact-forward") {
      const pub = native.public as { initialImage: string; actions: string[]; candidates: string[] };
      const candidateStates: string[][] = Array.from({ length: L }, () => []);
      order.forEach((candidate, step) => {
        candidateStates[candidate] = Array.from({ length: step + 1 }, (_, k) => fact(k));
      });
      publicPart = {
        initialImage: await storeAsset(db, id, pub.initialImage),
        actions: pub.actions,
        candidates: await Promise.all(pub.candidates.map((ref) => storeAsset(db, id, ref))),
      };
      key = {
        order,
        states: { initial: [`${tag}Initial`], candidates: candidateStates.map((facts) => [`${tag}Initial`, ...facts]) },
        hidden: [`${tag}Hidden`],
      };
    } else {
      const pub = native.public as { observations: string[]; candidates: string[] };
      publicPart = { observations: await Promise.all(pub.observations.map((ref) => storeAsset(db, id, ref))), candidates: pub.candidates };
      key = {
        order,
        changes: Array.from({ length: L }, (_, c) => [`+${fact(order.indexOf(c))}`]),
        stepChanges: Array.from({ length: L }, (_, step) => [`+${fact(step)}`, `-${tag}Gone${step}`]),
      };
    }
    const itemId = `it_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
    const externalId = `${native.id}-${n}`;
    await db.query(
      `INSERT INTO "Item" (id, "studyId", "batchId", "externalId", kind, public, key, tags, practice, gold, "contentHash", "createdAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, false, $10, now() + ($11 || ' milliseconds')::interval)`,
      [
        itemId,
        id,
        batchId,
        externalId,
        native.kind,
        JSON.stringify(publicPart),
        JSON.stringify(key),
        JSON.stringify(native.tags),
        spec.practice ?? false,
        randomUUID(),
        String(n),
      ],
    );
    items.push({
      id: itemId,
      externalId,
      kind: native.kind,
      practice: spec.practice ?? false,
      order,
      secrets: [tag],
      candidates: native.kind === "enact-forward" ? (publicPart.candidates as string[]) : (publicPart.candidates as string[]),
    });
  }
  return { id, slug, title, items };
}

export async function deleteStudy(studyId: string): Promise<void> {
  await e2eDb().query(`DELETE FROM "Study" WHERE id = $1`, [studyId]);
}

/** Stored events of an assignment, in seq order. */
export async function storedEvents(assignmentId: string): Promise<Array<{ seq: number; type: string; payload: Record<string, unknown> }>> {
  const result = await e2eDb().query(`SELECT seq, type, payload FROM "Event" WHERE "assignmentId" = $1 ORDER BY seq`, [assignmentId]);
  return result.rows;
}

export async function assignmentsOf(studyId: string, user: E2eUserName) {
  const result = await e2eDb().query(
    `SELECT a.id, a."itemId", a.purpose, a.status, a.position FROM "Assignment" a JOIN "User" u ON u.id = a."userId" WHERE a."studyId" = $1 AND u.email = $2 ORDER BY a.position`,
    [studyId, e2eUsers[user].email],
  );
  return result.rows as Array<{ id: string; itemId: string; purpose: string; status: string; position: number }>;
}

export async function responsesOf(assignmentId: string) {
  const result = await e2eDb().query(
    `SELECT id, "clientId", answer, correct, score, "confidenceRaw", "wallMs", "activeMs" FROM "Response" WHERE "assignmentId" = $1`,
    [assignmentId],
  );
  return result.rows as Array<{
    id: string;
    clientId: string;
    answer: { order: number[] };
    correct: boolean;
    score: Record<string, unknown>;
    confidenceRaw: number;
    wallMs: number;
    activeMs: number;
  }>;
}
