import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeSnapshot, encodeSnapshot } from "@/lib/dashboard/snapshot-store";
import type { StudySnapshot } from "@/lib/dashboard/types";

/**
 * The stored form of a snapshot (lib/dashboard/snapshot-store.ts) gives back the same snapshot:
 * every column value by Object.is (-0, NaN, ±Infinity, negative and fractional numbers, integers
 * past 32 bits), every JSON value equal and frozen, annotators re-sorted by their names now; and
 * refuses what would not come back the same.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261128);

const special = fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1, 0.5, 2 ** 32, 2 ** 32 - 1, -1, 5e-324, 1.7976931348623157e308, 255, 256, 65535, 65536);
const number = fc.oneof(special, fc.integer({ min: 0, max: 300 }), fc.double(), fc.integer({ min: -5, max: 2 ** 31 }));
const jsonValue = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown),
  fc.constantFrom({ order: [2, 0, 1] }, "text", 7, null),
);

interface Drawn {
  items: Array<{ id: string; externalId: string; kind: string; tags: Record<string, string | number>; key: unknown }>;
  users: string[];
  answers: Array<{
    item: number;
    annotator: number;
    condition: number;
    flags: [boolean, boolean];
    numbers: [number, number, number, number];
    score: unknown;
    answer: unknown;
  }>;
}

const drawn: fc.Arbitrary<Drawn> = fc
  .record({
    items: fc.array(
      fc.record({
        id: fc.uuid(),
        externalId: fc.string(),
        kind: fc.constantFrom("a-kind", "b-kind", "tab\tkind"),
        tags: fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.string(), fc.integer())),
        key: jsonValue,
      }),
      { minLength: 1, maxLength: 12 },
    ),
    users: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
  })
  .chain(({ items, users }) =>
    fc.record({
      items: fc.constant(items),
      users: fc.constant(users),
      answers: fc.array(
        fc.record({
          item: fc.integer({ min: 0, max: items.length - 1 }),
          annotator: fc.integer({ min: 0, max: users.length - 1 }),
          // an index into CONDITIONS, -1 for none
          condition: fc.integer({ min: -1, max: 2 }),
          flags: fc.tuple(fc.boolean(), fc.boolean()),
          numbers: fc.tuple(number, number, number, number),
          score: jsonValue.filter((v) => v !== undefined),
          answer: jsonValue.filter((v) => v !== undefined),
        }),
        { maxLength: 400 },
      ),
    }),
  );

/** the study conditions the drawn answers' condition indexes name */
const CONDITIONS = ["passive", "active", "a condition with spaces"];

function snapshotOf({ items, users, answers }: Drawn, names: Map<string, string>): StudySnapshot {
  const sorted = answers.slice().sort((a, b) => a.item - b.item || a.annotator - b.annotator);
  const shared = new Map<string, unknown>();
  const freeze = <T>(value: T): T => {
    const text = JSON.stringify(value);
    if (text === undefined) return value;
    if (!shared.has(text)) shared.set(text, Object.freeze(value));
    return shared.get(text) as T;
  };
  return {
    studyId: "s",
    version: "3:1700000000000",
    loadedAt: 0,
    items: {
      ids: items.map((i) => i.id),
      externalIds: items.map((i) => i.externalId),
      kinds: items.map((i) => i.kind),
      tags: items.map((i) => freeze(i.tags)),
      keys: items.map((i) => (i.key === null ? undefined : i.key)),
      index: new Map(items.map((i, n) => [i.id, n])),
    },
    annotators: users.map((id) => ({ id, name: names.get(id) ?? "(deleted user)" })),
    conditions: [...CONDITIONS],
    responses: {
      count: sorted.length,
      item: Int32Array.from(sorted, (a) => a.item),
      annotator: Int32Array.from(sorted, (a) => a.annotator),
      agreement: Uint8Array.from(sorted, (a) => (a.flags[0] ? 1 : 0)),
      condition: Int32Array.from(sorted, (a) => a.condition),
      correct: Uint8Array.from(sorted, (a) => (a.flags[1] ? 1 : 0)),
      confidence: Float64Array.from(sorted, (a) => a.numbers[0]),
      wallMs: Float64Array.from(sorted, (a) => a.numbers[1]),
      activeMs: Float64Array.from(sorted, (a) => a.numbers[2]),
      createdAt: Float64Array.from(sorted, (a) => a.numbers[3]),
      score: sorted.map((a) => freeze(a.score)),
      answer: sorted.map((a) => freeze(a.answer)),
    },
  };
}

function expectColumnsSame(actual: StudySnapshot, expected: StudySnapshot) {
  for (const name of ["item", "agreement", "condition", "correct", "confidence", "wallMs", "activeMs", "createdAt"] as const) {
    const a = actual.responses[name];
    const b = expected.responses[name];
    expect(a.constructor, name).toBe(b.constructor);
    expect(a.length, name).toBe(b.length);
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) expect({ name, i, value: a[i] }).toEqual({ name, i, value: b[i] });
  }
  expect(actual.conditions).toEqual(expected.conditions);
  expect(actual.responses.score).toEqual(expected.responses.score);
  expect(actual.responses.answer).toEqual(expected.responses.answer);
  expect(actual.items.keys).toEqual(expected.items.keys);
  const { index, ...items } = actual.items;
  const { index: expectedIndex, ...expectedItems } = expected.items;
  expect(items).toEqual(expectedItems);
  expect([...index]).toEqual([...expectedIndex]);
}

const keyKindsOf = (kinds: string[]) => kinds.filter((k) => k === "a-kind").sort();
const decode = (bytes: Uint8Array, names: Map<string, string>, version = "3:1700000000000") =>
  decodeSnapshot(bytes, { studyId: "s", version, keyKindsOf }, async () => names);

describe("the stored snapshot", () => {
  it("gives back the snapshot it was made from", async () => {
    await fc.assert(
      fc.asyncProperty(drawn, async (data) => {
        const names = new Map(data.users.map((id, i) => [id, `name ${i % 3}`]));
        // the snapshot as read: annotators sorted by name, its column in that order
        const read = snapshotOf(data, names);
        const bytes = encodeSnapshot(read, keyKindsOf([...new Set(read.items.kinds)]));
        if (!bytes) {
          // refused only for a JSON value that would not come back the same
          const all = [...read.responses.score, ...read.responses.answer, ...read.items.keys, ...read.items.tags];
          expect(all.some((v) => v !== undefined && JSON.stringify(JSON.parse(JSON.stringify(v))) !== JSON.stringify(v))).toBe(true);
          return;
        }
        const back = (await decode(bytes, names))!;
        expectColumnsSame(back, read);
        // annotators: sorted by name now, and each answer's annotator the same person
        expect(back.annotators.map((a) => a.name)).toEqual([...back.annotators.map((a) => a.name)].sort((a, b) => a.localeCompare(b)));
        expect(Array.from(back.responses.annotator, (a) => back.annotators[a].id)).toEqual(Array.from(read.responses.annotator, (a) => read.annotators[a].id));
        for (const value of back.responses.answer) if (value && typeof value === "object") expect(Object.isFrozen(value)).toBe(true);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it("keeps a column of more distinct doubles than a dictionary holds", async () => {
    const count = 70_000;
    const data: Drawn = {
      // 300 items: indices past one byte, steps of one (the item column kept as steps)
      items: Array.from({ length: 300 }, (_, n) => ({ id: `i${n}`, externalId: "e", kind: "b-kind", tags: {}, key: undefined })),
      users: ["u1"],
      answers: Array.from({ length: count }, (_, n) => ({
        item: Math.floor((n * 300) / count),
        annotator: 0,
        condition: (n % 4) - 1,
        flags: [n % 2 === 0, n % 3 === 0],
        numbers: [n / 7, -n, n * 2 ** 20, n === 5 ? -0 : n + 0.25],
        score: {},
        answer: {},
      })),
    };
    const read = snapshotOf(data, new Map());
    const back = (await decode(encodeSnapshot(read, [])!, new Map()))!;
    expectColumnsSame(back, read);
    expect(Object.is(back.responses.createdAt[5], -0)).toBe(true);
  });

  it("takes the annotators' names as they are now, and the deleted as deleted", async () => {
    const data: Drawn = {
      items: [{ id: "i1", externalId: "e", kind: "a-kind", tags: {}, key: { k: 1 } }],
      users: ["u1", "u2", "u3"],
      answers: [0, 1, 2].map((annotator) => ({
        item: 0,
        annotator,
        condition: -1,
        flags: [false, true],
        numbers: [annotator, 1, 2, 3],
        score: {},
        answer: { n: annotator },
      })),
    };
    const read = snapshotOf(
      data,
      new Map([
        ["u1", "Ann"],
        ["u2", "Bob"],
        ["u3", "Cy"],
      ]),
    );
    const back = (await decode(
      encodeSnapshot(read, ["a-kind"])!,
      new Map([
        ["u1", "Zed"],
        ["u2", "Bob"],
      ]),
    ))!;
    expect(back.annotators).toEqual([
      { id: "u3", name: "(deleted user)" },
      { id: "u2", name: "Bob" },
      { id: "u1", name: "Zed" },
    ]);
    expect(Array.from(back.responses.annotator, (a) => back.annotators[a].id)).toEqual(["u1", "u2", "u3"]);
    expect(back.responses.answer).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
  });

  it("is not read at another version, nor with other key kinds; refuses a value JSON cannot keep", async () => {
    const data: Drawn = {
      items: [{ id: "i1", externalId: "e", kind: "a-kind", tags: {}, key: undefined }],
      users: ["u1"],
      answers: [{ item: 0, annotator: 0, condition: 0, flags: [false, false], numbers: [1, 1, 1, 1], score: {}, answer: {} }],
    };
    const read = snapshotOf(data, new Map());
    const bytes = encodeSnapshot(read, ["a-kind"])!;
    expect(await decode(bytes, new Map())).not.toBeNull();
    expect(decode(bytes, new Map(), "4:1700000000000")).toBeNull();
    expect(decodeSnapshot(bytes, { studyId: "other", version: "3:1700000000000", keyKindsOf }, async () => new Map())).toBeNull();
    expect(decodeSnapshot(bytes, { studyId: "s", version: "3:1700000000000", keyKindsOf: () => [] }, async () => new Map())).toBeNull();
    // jsonb holds 1e400; JavaScript reads it as Infinity, which JSON writes as null
    const infinite = snapshotOf({ ...data, answers: [{ ...data.answers[0], answer: { x: Infinity } }] }, new Map());
    expect(encodeSnapshot(infinite, ["a-kind"])).toBeNull();
  });
});
