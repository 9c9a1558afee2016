import { db } from "@/lib/db";
import { hashPassword } from "@/lib/auth/passwords";
import type { Role } from "@/lib/generated/prisma/enums";

/** Empties every table (integration tests start from a known state). */
export async function resetDatabase(): Promise<void> {
  const tables = await db.$queryRawUnsafe<Array<{ tablename: string }>>(
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
  );
  if (tables.length === 0) return;
  await db.$executeRawUnsafe(`TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(", ")} RESTART IDENTITY CASCADE`);
}

/** Empties the job queue (pg-boss's schema, when a test has created it): jobs outlive resetDatabase. */
export async function resetJobQueue(): Promise<void> {
  const [exists] = await db.$queryRawUnsafe<Array<{ found: boolean }>>(`SELECT to_regclass('pgboss.job') IS NOT NULL AS found`);
  if (exists?.found) await db.$executeRawUnsafe(`DELETE FROM pgboss.job`);
}

let counter = 0;
/** one argon2id hash per password (about 0.1 s each): tests create many users with the same one */
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  return hashes.get(password)!;
}

export async function createUser(role: Role, overrides: { email?: string; name?: string; password?: string } = {}) {
  counter += 1;
  return db.user.create({
    data: {
      role,
      email: overrides.email ?? `${role.toLowerCase()}${counter}-${Date.now()}@test.local`,
      name: overrides.name ?? `${role.toLowerCase()} ${counter}`,
      passwordHash: await hashOnce(overrides.password ?? "password"),
    },
  });
}

export async function createStudy(overrides: { slug?: string; overlap?: number; createdById?: string } = {}) {
  counter += 1;
  return db.study.create({
    data: {
      slug: overrides.slug ?? `study-${counter}-${Date.now().toString(36)}`,
      title: `Test study ${counter}`,
      overlap: overrides.overlap ?? 1,
      createdById: overrides.createdById,
    },
  });
}

// --- annotator flow (lib/assignment, lib/responses) ------------------------------------------

export async function addMember(studyId: string, userId: string) {
  return db.studyMember.create({ data: { studyId, userId } });
}

/**
 * A batch of ENACT items in a study. Forward items carry symbolic states whose facts are
 * distinctive strings ("SecretFact_<item>_<n>"), so tests can look for key content in what an
 * annotator receives. The key order is a fixed derangement per item (never the identity).
 */
export async function createEnactItems(
  studyId: string,
  options: { count: number; kind?: "enact-forward" | "enact-inverse"; length?: number; practice?: boolean; prefix?: string } = { count: 1 },
) {
  counter += 1;
  const kind = options.kind ?? "enact-forward";
  const length = options.length ?? 3;
  const prefix = options.prefix ?? `it${counter}`;
  const batch = await db.batch.create({
    data: { studyId, fileName: `${prefix}.jsonl`, checksum: `${prefix}-${Date.now()}-${Math.random()}`, itemCount: options.count },
  });
  const items = [];
  for (let n = 0; n < options.count; n++) {
    const externalId = `${prefix}-${kind}-${n}`;
    // order[i] = candidate shown after action i: rotate by one (never the identity for length > 1)
    const order = Array.from({ length }, (_, i) => (i + 1) % length);
    const fact = (step: number) => `SecretFact_${prefix}_${n}_${step}`;
    const publicPart =
      kind === "enact-forward"
        ? {
            initialImage: `/img/${externalId}/0.png`,
            actions: Array.from({ length }, (_, i) => `Action ${i + 1} of ${externalId}`),
            candidates: Array.from({ length }, (_, c) => `/img/${externalId}/c${c}.png`),
          }
        : {
            observations: Array.from({ length: length + 1 }, (_, i) => `/img/${externalId}/o${i}.png`),
            candidates: Array.from({ length }, (_, c) => `Candidate action ${c} of ${externalId}`),
          };
    // forward states: after step i the facts 0..i hold (each step adds one distinctive fact)
    const candidateStates: string[][] = Array.from({ length }, () => []);
    order.forEach((candidate, step) => {
      candidateStates[candidate] = Array.from({ length: step + 1 }, (_, k) => fact(k));
    });
    const key =
      kind === "enact-forward"
        ? { order, states: { initial: [], candidates: candidateStates } }
        : { order, changes: Array.from({ length }, (_, c) => [`+${fact(order.indexOf(c))}`]), stepChanges: Array.from({ length }, (_, i) => [`+${fact(i)}`]) };
    items.push(
      await db.item.create({
        data: {
          studyId,
          batchId: batch.id,
          externalId,
          kind,
          public: publicPart,
          key,
          tags: { steps: length + 1 },
          practice: options.practice ?? false,
          contentHash: `${externalId}-hash`,
        },
      }),
    );
  }
  return items;
}

/**
 * GridWM-Judge (Task C) probe families: `families` base cases (tags env + group) of `members`
 * items each, varying the framing/temporal/visual probe tags. Returns the items in creation order.
 */
export async function createGridwmJudgeFamilies(
  studyId: string,
  options: { families: number; members: number; env?: string; prefix?: string; practice?: boolean },
) {
  counter += 1;
  const prefix = options.prefix ?? `gj${counter}`;
  const env = options.env ?? "MiniGrid-DoorKey-5x5-v0";
  const total = options.families * options.members;
  const batch = await db.batch.create({
    data: { studyId, fileName: `${prefix}.jsonl`, checksum: `${prefix}-${Date.now()}-${Math.random()}`, itemCount: total },
  });
  const probes = [
    {},
    { framing: "positive" },
    { framing: "negative" },
    { temporal: "rev" },
    { visual: "noisy" },
    { visual: "style" },
    { variant: "nocue" },
    { variant: "cf" },
  ];
  const items = [];
  for (let f = 0; f < options.families; f++) {
    for (let m = 0; m < options.members; m++) {
      const externalId = `${prefix}-g${f}-m${m}`;
      items.push(
        await db.item.create({
          data: {
            studyId,
            batchId: batch.id,
            externalId,
            kind: "gridwm-judge",
            public: { storyboard: `/img/${externalId}/storyboard.png` },
            key: { answer: "Success" },
            tags: { env, group: `${prefix}-g${f}`, ...probes[m % probes.length] },
            practice: options.practice ?? false,
            contentHash: `${externalId}-hash`,
          },
        }),
      );
    }
  }
  return items;
}

/** An item's base case as the assignment rule sees it: `${env}|${group}` (null outside probe families). */
export function probeBaseCase(item: { kind: string; tags: unknown }): string | null {
  const tags = (item.tags ?? {}) as Record<string, unknown>;
  if (item.kind !== "gridwm-judge" || tags.group === undefined || tags.group === null) return null;
  return `${String(tags.env ?? "")}|${String(tags.group)}`;
}
