import { randomUUID } from "node:crypto";
import { e2eDb } from "./db";
import { e2eUsers } from "./users";
import { mulberry32 } from "../lib/stats/rng";

/**
 * A study for the research dashboards, written straight into the run's database with pg: ENACT
 * items of both kinds at step lengths 3..10 with index-only keys (an answer is accepted when it is
 * the key's order; pairwise accuracy = share of slots holding the key's index), disjoint main work
 * of three annotators, an ENACT-style agreement sample that every annotator answered, a practice
 * item, trajectory events (with focus losses) and a model run. Seeded: the same data every run.
 * deleteDashboardStudy removes it all (cascades) and the annotators it made.
 */

export interface DashboardFixture {
  studyId: string;
  slug: string;
  title: string;
  annotators: Array<{ id: string; name: string }>;
  items: number;
  responses: number;
}

function score(key: number[], answer: number[]) {
  const exact = key.length === answer.length && key.every((v, i) => v === answer[i]);
  const correctPairs = exact ? key.length : key.filter((v, i) => answer[i] === v).length;
  return { accepted: exact, exact, correctPairs, L: key.length, semanticAvailable: false };
}

/** Eight more people for the wide-data layout checks (e2e/dashboard-layout.e2e.ts), with long names. */
const moreAnnotators = [
  { name: "Dmitri Volkov-Alexandrov", skill: 0.85, speed: 0.9 },
  { name: "Esperanza Gutiérrez de la Fuente", skill: 0.7, speed: 1.1 },
  { name: "Farid Haddad", skill: 0.92, speed: 0.8 },
  { name: "Grace O'Connor-Whitfield", skill: 0.88, speed: 1.4 },
  { name: "Hiroshi Yamamoto", skill: 0.75, speed: 0.95 },
  { name: "Ingrid Johansson", skill: 0.9, speed: 1.05 },
];

/**
 * `annotators` (3 to 9) people share the work; step lengths run from 3 to `maxSteps` (10 by
 * default), one tag value each.
 */
export async function createDashboardStudy(
  options: { perCell?: number; agreementPerCell?: number; annotators?: number; maxSteps?: number } = {},
): Promise<DashboardFixture> {
  const db = e2eDb();
  const random = mulberry32(7);
  const perCell = options.perCell ?? 4;
  const agreementPerCell = options.agreementPerCell ?? 2;
  const studyId = randomUUID();
  const slug = `e2e-dash-${studyId.slice(0, 8)}`;
  const title = "ENACT human baseline (e2e)";
  await db.query(
    `INSERT INTO "Study" (id, slug, title, instructions, overlap, "confidenceScale", status, "updatedAt") VALUES ($1, $2, $3, '', 1, 'LIKERT_5', 'OPEN', now())`,
    [studyId, slug, title],
  );
  const annotators = [
    { id: randomUUID(), name: "Ada Lovelace", skill: 0.95, speed: 1.0 },
    { id: randomUUID(), name: "Ben Okafor", skill: 0.9, speed: 1.25 },
    { id: randomUUID(), name: "Cleo Tanaka", skill: 0.8, speed: 0.12 },
    ...moreAnnotators.slice(0, Math.max(0, (options.annotators ?? 3) - 3)).map((a) => ({ id: randomUUID(), ...a })),
  ];
  const maxSteps = options.maxSteps ?? 10;
  for (const a of annotators) {
    await db.query(`INSERT INTO "User" (id, email, name, role, "updatedAt") VALUES ($1, $2, $3, 'ANNOTATOR', now())`, [a.id, `dash-${a.id}@e2e.test`, a.name]);
    await db.query(`INSERT INTO "StudyMember" ("studyId", "userId") VALUES ($1, $2)`, [studyId, a.id]);
  }
  const batchId = randomUUID();
  await db.query(`INSERT INTO "Batch" (id, "studyId", "fileName", checksum, "itemCount") VALUES ($1, $2, 'enact-dashboard.jsonl', $3, 0)`, [
    batchId,
    studyId,
    randomUUID(),
  ]);

  const itemRows: unknown[][] = [];
  const assignmentRows: unknown[][] = [];
  const responseRows: unknown[][] = [];
  const eventRows: unknown[][] = [];
  const predictionRows: unknown[][] = [];
  const runId = randomUUID();
  const start = Date.UTC(2026, 0, 12, 9);
  let position = 0;
  const answerFor = (key: number[], pCorrect: number) => {
    if (random() < pCorrect) return key.slice();
    const out = key.slice();
    const i = Math.floor(random() * out.length);
    const j = (i + 1 + Math.floor(random() * (out.length - 1))) % out.length;
    [out[i], out[j]] = [out[j], out[i]];
    return out;
  };
  const addAnswer = (
    itemId: string,
    key: number[],
    L: number,
    a: (typeof annotators)[number],
    purpose: "MAIN" | "AGREEMENT" | "PRACTICE",
    day: number,
    given?: number[],
    sampled = false,
  ) => {
    const assignmentId = randomUUID();
    const answer = given ?? answerFor(key, a.skill - 0.03 * (L - 3));
    const s = score(key, answer);
    const confidence = Math.max(1, Math.min(5, Math.round((s.accepted ? 4.2 : 3.1) + (random() - 0.5) * 2)));
    const active = Math.round((5000 + 3500 * L) * a.speed * (0.6 + random() * 0.8));
    const at = new Date(start + day * 86_400_000 + Math.floor(random() * 8 * 3_600_000));
    assignmentRows.push([assignmentId, studyId, itemId, a.id, "SUBMITTED", purpose, position++, at, at, sampled]);
    responseRows.push([
      randomUUID(),
      assignmentId,
      randomUUID(),
      JSON.stringify({ order: answer }),
      confidence,
      (confidence - 1) / 4,
      active + 4000,
      active,
      JSON.stringify(s),
      s.accepted,
      at,
    ]);
    const types = ["item_shown", "slot_filled", ...(random() < 0.15 ? ["page_hidden", "page_visible"] : []), "submitted"];
    types.forEach((type, seq) => eventRows.push([assignmentId, seq, type, "{}", at, at]));
  };

  let items = 0;
  for (const kind of ["enact-forward", "enact-inverse"]) {
    for (let L = 3; L <= maxSteps; L++) {
      annotators.forEach((owner, o) => {
        for (let n = 0; n < perCell; n++) {
          const id = randomUUID();
          const externalId = `${kind}-${L}-${o}-${n}`;
          const key = Array.from({ length: L }, (_, i) => i);
          for (let i = L - 1; i > 0; i--) {
            const j = Math.floor(random() * (i + 1));
            [key[i], key[j]] = [key[j], key[i]];
          }
          const pub =
            kind === "enact-forward"
              ? { initialImage: "i.png", actions: key.map((_, i) => `Action ${i + 1}`), candidates: key.map((_, i) => `c${i}.png`) }
              : { observations: [...key, L].map((_, i) => `o${i}.png`), candidates: key.map((_, i) => `Action ${i + 1}`) };
          itemRows.push([
            id,
            studyId,
            batchId,
            externalId,
            kind,
            JSON.stringify(pub),
            JSON.stringify({ order: key }),
            JSON.stringify({ steps: L, hand: n % 2 ? "left" : "right" }),
            false,
            externalId,
          ]);
          items++;
          const day = Math.floor(random() * 6);
          // the plan's sample is marked on its owner's main assignment, as buildAgreementPlan does
          addAnswer(id, key, L, owner, "MAIN", day, undefined, n < agreementPerCell);
          if (n < agreementPerCell) {
            // ENACT's design: this item of `owner` goes to the two others; they mostly agree
            annotators.forEach((other) => {
              if (other !== owner) addAnswer(id, key, L, other, "AGREEMENT", 6 + Math.floor(random() * 2));
            });
          }
          // a model that collapses with length
          const modelAnswer = answerFor(key, Math.max(0.02, 0.75 - 0.1 * (L - 3)));
          const ms = score(key, modelAnswer);
          predictionRows.push([randomUUID(), runId, id, JSON.stringify({ order: modelAnswer }), JSON.stringify(ms), ms.accepted]);
        }
      });
    }
  }
  const practiceId = randomUUID();
  itemRows.push([
    practiceId,
    studyId,
    batchId,
    "practice-1",
    "enact-forward",
    JSON.stringify({ initialImage: "i.png", actions: ["a", "b", "c"], candidates: ["x", "y", "z"] }),
    JSON.stringify({ order: [1, 2, 0] }),
    JSON.stringify({ steps: 3 }),
    true,
    "practice-1",
  ]);
  for (const a of annotators) addAnswer(practiceId, [1, 2, 0], 3, a, "PRACTICE", 0, [0, 1, 2]);

  const insert = async (table: string, columns: string[], types: string[], rows: unknown[][]) => {
    if (rows.length === 0) return;
    await db.query(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(", ")})`,
      columns.map((_, c) => rows.map((row) => row[c])),
    );
  };
  await insert(
    "Item",
    ["id", "studyId", "batchId", "externalId", "kind", "public", "key", "tags", "practice", "contentHash"],
    ["text", "text", "text", "text", "text", "jsonb", "jsonb", "jsonb", "bool", "text"],
    itemRows,
  );
  await insert(
    "Assignment",
    ["id", "studyId", "itemId", "userId", "status", "purpose", "position", "startedAt", "submittedAt", "agreementSample"],
    ["text", "text", "text", "text", '"AssignmentStatus"', '"AssignmentPurpose"', "int", "timestamp", "timestamp", "bool"],
    assignmentRows,
  );
  await insert(
    "Response",
    ["id", "assignmentId", "clientId", "answer", "confidenceRaw", "confidence", "wallMs", "activeMs", "score", "correct", "createdAt"],
    ["text", "text", "text", "jsonb", "float8", "float8", "int", "int", "jsonb", "bool", "timestamp"],
    responseRows,
  );
  await insert(
    "Event",
    ["assignmentId", "seq", "type", "payload", "clientTime", "serverTime"],
    ["text", "int", "text", "jsonb", "timestamp", "timestamp"],
    eventRows,
  );
  await db.query(`INSERT INTO "ModelRun" (id, "studyId", name) VALUES ($1, $2, 'GPT-5 (synthetic)')`, [runId, studyId]);
  await insert("ModelPrediction", ["id", "runId", "itemId", "answer", "score", "correct"], ["text", "text", "text", "jsonb", "jsonb", "bool"], predictionRows);
  return { studyId, slug, title, annotators: annotators.map(({ id, name }) => ({ id, name })), items, responses: responseRows.length };
}

export async function deleteDashboardStudy(fixture: DashboardFixture): Promise<void> {
  const db = e2eDb();
  await db.query(`DELETE FROM "Study" WHERE id = $1`, [fixture.studyId]);
  await db.query(`DELETE FROM "User" WHERE id = ANY($1::text[])`, [fixture.annotators.map((a) => a.id)]);
}

/** Members of a study by user email (for the admin's member spec). */
export async function memberEmails(studyId: string): Promise<string[]> {
  const { rows } = await e2eDb().query(`SELECT u.email FROM "StudyMember" m JOIN "User" u ON u.id = m."userId" WHERE m."studyId" = $1 ORDER BY u.email`, [
    studyId,
  ]);
  return rows.map((r: { email: string }) => r.email);
}

export { e2eUsers };
