import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { copySupported } from "@/lib/db/copy";
import { disconnectReadDb, readPool } from "@/lib/db/read";
import { Prisma } from "@/lib/generated/prisma/client";
import { clearDashboardCaches, loadSnapshot, storeLoadedSnapshot, type StudySnapshot } from "@/lib/dashboard/snapshot";
import { createBatch } from "@/lib/dashboard/testing/seed";
import { createStudy, createUser, resetDatabase } from "@/tests/db-helpers";

/**
 * The snapshot read by one COPY and parsed from PostgreSQL's text format (the default on
 * PostgreSQL) against the one read in keyset pages through Prisma (PGlite's path, and the loader
 * before the COPY loader): equal on a study with awkward values, number for number (Object.is: -0, NaN,
 * the last bit of a double).
 */

afterAll(async () => {
  await disconnectReadDb();
  await disconnectDb();
});

beforeEach(async () => {
  await resetDatabase();
  clearDashboardCaches();
});

/** mulberry32: the study is random, and the same on every run */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** texts through every escape of COPY's text format (\b \f \n \r \t \v \\), "\N", quotes and non-ASCII */
const TEXTS = [
  "plain",
  "tab\there",
  "new\nline",
  "cr\rlf\r\n",
  "back\\slash",
  "\\N",
  "\\",
  "\\t literal",
  "quote \" and '",
  "\b\f\v",
  "é ü ß",
  "😀 \u2028 \ufeff",
  "=1+1",
  "",
  " ",
  "a,b",
];
const NUMBERS = [0, -0, 1, -1, 0.1 + 0.2, 1e-300, 5e-324, 1.7976931348623157e308, 2 ** 53 + 2, 1e21, 123.456, -7.5e-7];
/** (Prisma writes the largest doubles as decimal digits that PostgreSQL rounds out of range: those are set by SQL below) */
const CONFIDENCES = NUMBERS.filter((x) => Math.abs(x) < 1e300);

function awkwardJson(next: () => number, depth = 0): unknown {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const choice = Math.floor(next() * (depth > 1 ? 4 : 6));
  switch (choice) {
    case 0:
      return pick(TEXTS);
    case 1:
      return pick(NUMBERS);
    case 2:
      return pick([true, false, null]);
    case 3:
      return pick([{}, [], { order: [2, 0, 1] }]);
    case 4:
      return Array.from({ length: Math.floor(next() * 3) }, () => awkwardJson(next, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 4) }, () => [pick([...TEXTS, "accepted", "L", "0", "10"]), awkwardJson(next, depth + 1)]),
      );
  }
}

const json = (value: unknown) => (value === null ? Prisma.JsonNull : (value as Prisma.InputJsonValue));

/** equal snapshots: every column, typed ones element by element with Object.is */
function expectSameSnapshot(actual: StudySnapshot, expected: StudySnapshot) {
  expect(actual.studyId).toBe(expected.studyId);
  expect(actual.version).toBe(expected.version);
  expect(actual.annotators).toEqual(expected.annotators);
  expect(actual.conditions).toEqual(expected.conditions);
  const { index: actualIndex, ...actualItems } = actual.items;
  const { index: expectedIndex, ...expectedItems } = expected.items;
  expect(actualItems).toStrictEqual(expectedItems);
  expect([...actualIndex]).toEqual([...expectedIndex]);
  const { score, answer, ...columns } = actual.responses;
  expect(score).toStrictEqual(expected.responses.score);
  expect(answer).toStrictEqual(expected.responses.answer);
  for (const [name, column] of Object.entries(columns)) {
    const other = expected.responses[name as keyof typeof columns];
    if (typeof column === "number") {
      expect(column, name).toBe(other);
      continue;
    }
    expect(column.constructor, name).toBe((other as typeof column).constructor);
    expect(column.length, name).toBe((other as typeof column).length);
    const differing = Array.from(column, (value: number, i: number) => i).filter((i) => !Object.is(column[i], (other as typeof column)[i]));
    expect(
      differing.slice(0, 5).map((i) => ({ i, actual: column[i], expected: (other as typeof column)[i] })),
      name,
    ).toEqual([]);
  }
}

describe("the dashboard snapshot by COPY", () => {
  it("equals the keyset loader's on awkward values", async () => {
    const next = random(20261127);
    const names = ["Ann", "Bob \\ Tab\there", "Zoë 😀", "Gone", "Cy\nNewline", "Ann"];
    const users = [];
    for (const name of names) users.push(await createUser("ANNOTATOR", { name }));
    const other = await createStudy();
    const study = await createStudy({ overlap: 3 });
    const batch = await createBatch(study.id);
    const otherBatch = await createBatch(other.id);
    // a kind whose keys the snapshot loads, one whose keys it does not, and one no module declares
    const kinds = ["gridwm-scene-json", "enact-forward", "=unknown\tkind"];
    const tagsChoices: unknown[] = [
      { steps: 3, hand: "left" },
      { steps: 3, hand: "left" },
      { hand: 'ri\\ght\t"x"\n', steps: 0.1 + 0.2 },
      ["array", "tags"],
      "text",
      7,
      null,
      {},
    ];
    const items = [];
    for (let n = 0; n < 60; n++) {
      const kind = kinds[n % kinds.length];
      const tags = tagsChoices[n % tagsChoices.length];
      items.push(
        await db.item.create({
          data: {
            studyId: study.id,
            batchId: batch.id,
            externalId: `${TEXTS[n % TEXTS.length]}#${n}`,
            kind,
            public: {},
            key: json(n % 5 === 0 ? null : awkwardJson(next)),
            tags: json(tags),
            practice: n % 11 === 10,
            contentHash: `h${n}`,
          },
        }),
      );
    }
    const otherItem = await db.item.create({
      data: { studyId: other.id, batchId: otherBatch.id, externalId: "elsewhere", kind: "enact-forward", public: {}, key: {}, contentHash: "o" },
    });
    const purposes = ["MAIN", "MAIN", "AGREEMENT", "PRACTICE"] as const;
    let position = 0;
    let responses = 0;
    const createdAts = [
      new Date("2026-01-01T10:00:00.123Z"),
      new Date("1960-06-30T23:59:59.999Z"),
      new Date("2100-01-01T00:00:00.001Z"),
      new Date(0),
      new Date(-1),
    ];
    // answers stored out of (item, annotator) order: items from the last, annotators from the last made (ids grow with time)
    for (const [n, item] of [...items.entries()].reverse()) {
      if (n % 13 === 12) continue; // items without answers
      for (const user of [...users].reverse()) {
        if (next() < 0.3) continue;
        const purpose = purposes[Math.floor(next() * purposes.length)];
        // study conditions of awkward text, or none (drawn from the position: the random draws stay as they were)
        const condition = position % 3 === 0 ? null : TEXTS[position % TEXTS.length];
        const assignment = await db.assignment.create({
          data: { studyId: study.id, itemId: item.id, userId: user.id, purpose, condition, status: "SUBMITTED", position: position++ },
        });
        const score =
          next() < 0.5 ? { accepted: next() < 0.5, L: Math.floor(next() * 4), ratio: NUMBERS[Math.floor(next() * NUMBERS.length)] } : awkwardJson(next);
        await db.response.create({
          data: {
            assignmentId: assignment.id,
            clientId: `c${position}`,
            answer: json(next() < 0.3 ? { order: [0, 1, 2] } : awkwardJson(next)),
            confidenceRaw: 0,
            confidence: CONFIDENCES[Math.floor(next() * CONFIDENCES.length)],
            wallMs: Math.floor(next() * 2 ** 31),
            activeMs: -Math.floor(next() * 1000),
            score: json(score),
            correct: next() < 0.5,
            createdAt: createdAts[Math.floor(next() * createdAts.length)],
          },
        });
        if (purpose !== "PRACTICE" && !item.practice) responses += 1;
      }
    }
    // an assignment without an answer, and another study's answer
    await db.assignment.create({
      data: { studyId: study.id, itemId: items[0].id, userId: (await createUser("ANNOTATOR", { name: "Idle" })).id, status: "STARTED", position: position++ },
    });
    const elsewhere = await db.assignment.create({
      data: { studyId: other.id, itemId: otherItem.id, userId: users[0].id, status: "SUBMITTED", position: position++ },
    });
    await db.response.create({
      data: {
        assignmentId: elsewhere.id,
        clientId: "elsewhere",
        answer: {},
        confidenceRaw: 0,
        confidence: 1,
        wallMs: 1,
        activeMs: 1,
        score: {},
        correct: true,
      },
    });
    // doubles a float8 column holds that no JSON number does
    const special = await db.$queryRaw<Array<{ id: string }>>`
      SELECT r.id FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId" WHERE a."studyId" = ${study.id} AND a.purpose <> 'PRACTICE' ORDER BY r.id LIMIT 5`;
    for (const [n, value] of ["NaN", "-0", "Infinity", "-Infinity", "-1.7976931348623157e308"].entries())
      await db.$executeRaw`UPDATE "Response" SET confidence = ${value}::float8 WHERE id = ${special[n].id}`;
    // a user deleted after answering (the foreign keys' cascade skipped, as if between the passes)
    await db.$transaction([db.$executeRawUnsafe("SET LOCAL session_replication_role = replica"), db.$executeRaw`DELETE FROM "User" WHERE id = ${users[3].id}`]);

    expect(await copySupported(readPool())).toBe(true);
    const keyset = await loadSnapshot(study.id, "v", "keyset");
    const copy = await loadSnapshot(study.id, "v", "copy");
    expectSameSnapshot(copy, keyset);
    expectSameSnapshot(await loadSnapshot(study.id, "v"), keyset);
    // and in its stored form (snapshot-store.ts)
    expect(await storeLoadedSnapshot(copy)).toBe(true);
    expectSameSnapshot(await loadSnapshot(study.id, "v", "stored"), keyset);

    // answers in (item, annotator id) order, whatever order the server's join gave them in
    for (let r = 1; r < copy.responses.count; r++) {
      const [item, before] = [copy.responses.item[r], copy.responses.item[r - 1]];
      expect(item >= before, `answer ${r}'s item`).toBe(true);
      if (item === before)
        expect(copy.annotators[copy.responses.annotator[r]].id > copy.annotators[copy.responses.annotator[r - 1]].id, `answer ${r}'s annotator`).toBe(true);
    }

    // what the study holds, so that equal snapshots are not equally empty
    expect(copy.responses.count).toBe(responses);
    expect(copy.items.ids).toHaveLength(items.filter((i) => !i.practice).length);
    expect(copy.annotators.map((a) => a.name)).toEqual(["(deleted user)", "Ann", "Ann", "Bob \\ Tab\there", "Cy\nNewline", "Zoë 😀"]);
    expect(copy.items.externalIds).toContain("tab\there#1");
    expect(copy.items.keys.filter((k) => k !== undefined).length).toBeGreaterThan(0);
    expect(copy.items.keys.every((k, i) => k === undefined || copy.items.kinds[i] === "gridwm-scene-json")).toBe(true);
    expect(copy.items.tags).toContainEqual({ hand: 'ri\\ght\t"x"\n', steps: 0.1 + 0.2 });
    const confidences = [...copy.responses.confidence];
    for (const value of [NaN, -0, Infinity, -Infinity, -1.7976931348623157e308, 0.1 + 0.2, 5e-324, 1e-300])
      expect(
        confidences.some((c) => Object.is(c, value)),
        String(value),
      ).toBe(true);
    expect(new Set(copy.responses.createdAt)).toEqual(new Set(createdAts.map((d) => d.getTime())));
    expect(copy.responses.agreement.includes(1) && copy.responses.agreement.includes(0)).toBe(true);

    // JSON values are shared between rows of equal text, and frozen
    const firstOfText = new Map<string, unknown>();
    let shared = 0;
    for (const score of copy.responses.score) {
      if (!score || typeof score !== "object") continue;
      const text = JSON.stringify(score);
      if (!firstOfText.has(text)) firstOfText.set(text, score);
      else {
        expect(score).toBe(firstOfText.get(text));
        shared += 1;
      }
    }
    expect(shared).toBeGreaterThan(0);
    const tags = copy.items.tags.find((t) => t.hand === "left")!;
    expect(() => {
      (tags as Record<string, unknown>).hand = "right";
    }).toThrow(TypeError);
    const nested = copy.responses.answer.find((a) => Array.isArray((a as { order?: unknown })?.order)) as { order: number[] };
    expect(() => nested.order.push(3)).toThrow(TypeError);
  });

  it("orders many answers to one item by annotator id", async () => {
    const study = await createStudy({ overlap: 3 });
    const batch = await createBatch(study.id);
    const users = [];
    for (let n = 0; n < 24; n++) users.push(await createUser("ANNOTATOR", { name: `A${n % 3}` }));
    const items = [];
    for (let n = 0; n < 3; n++)
      items.push(
        await db.item.create({
          data: { studyId: study.id, batchId: batch.id, externalId: `i${n}`, kind: "enact-forward", public: {}, key: {}, contentHash: `h${n}` },
        }),
      );
    let position = 0;
    // 24 answers to the middle item, 2 to each other one, stored in an order none of them has
    for (const [n, user] of [...users.entries()].reverse()) {
      for (const [i, item] of items.entries()) {
        if (i !== 1 && n % 12 !== 0) continue;
        const assignment = await db.assignment.create({
          data: { studyId: study.id, itemId: item.id, userId: user.id, status: "SUBMITTED", position: position++ },
        });
        await db.response.create({
          data: {
            assignmentId: assignment.id,
            clientId: `c${position}`,
            answer: { n },
            confidenceRaw: 0,
            confidence: n / 24,
            wallMs: n,
            activeMs: n,
            score: {},
            correct: n % 2 === 0,
          },
        });
      }
    }
    const copy = await loadSnapshot(study.id, "v", "copy");
    expectSameSnapshot(copy, await loadSnapshot(study.id, "v", "keyset"));
    expect(copy.responses.count).toBe(28);
    const ids = Array.from(copy.responses.annotator, (a) => copy.annotators[a].id);
    const itemIds = Array.from(copy.responses.item, (i) => copy.items.ids[i]);
    const expected = itemIds.map((item, r) => `${item} ${ids[r]}`);
    expect(expected).toEqual([...expected].sort());
    // each answer kept its own values through the reordering
    for (let r = 0; r < copy.responses.count; r++) expect(copy.responses.wallMs[r]).toBe((copy.responses.answer[r] as { n: number }).n);
  });

  it("reads an empty study", async () => {
    const study = await createStudy();
    const copy = await loadSnapshot(study.id, "v", "copy");
    expectSameSnapshot(copy, await loadSnapshot(study.id, "v", "keyset"));
    expect(copy.responses.count).toBe(0);
    expect(copy.annotators).toEqual([]);
  });
});
