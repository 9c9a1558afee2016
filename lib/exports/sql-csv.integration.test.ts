import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { csvField } from "@/lib/exports/csv";

/**
 * The yardstick_csv_* functions (migration 20261127144500_csv_functions) against csvField over the
 * value Prisma returns for the same column: random texts, doubles and JSON, and the awkward cases
 * by name. The streamed exports build their CSV lines with these functions.
 */

afterAll(async () => {
  await disconnectDb();
});

/** seeded, so that CI is the same run every time (FUZZ_SEED runs another); each property takes SEED + its index */
const SEED = Number(process.env.FUZZ_SEED ?? 20261127);

/** texts that reach the guard and the quoting: formula starts, separators, white space, unicode */
const awkwardText = fc
  .oneof(
    fc.string({
      unit: fc.constantFrom(
        "=",
        "+",
        "-",
        "@",
        "\t",
        "\r",
        "\n",
        " ",
        ",",
        '"',
        "'",
        "1",
        "2",
        ".",
        "e",
        "E",
        "a",
        "\u00a0",
        "\u2028",
        "\ufeff",
        "é",
        "😀",
        "\\",
        ":",
      ),
    }),
    fc.string({ unit: "grapheme" }),
    fc.constantFrom("-1", "+2.5e3", "-2+3", "=1+1", ".5", "-.5e-3", "1.", "-", "+", "@", " x", "x ", "\u3000x", "x\u00a0"),
  )
  .filter((s) => !s.includes("\u0000"));

const awkwardNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    0,
    -0,
    1e-7,
    1.5e-7,
    1e-6,
    1.25e-6,
    0.0001,
    1e-5,
    1e15,
    1.5e15,
    1e20,
    1e21,
    1.5e21,
    123456789012345680000,
    0.1 + 0.2,
    -1e-7,
    5e-324,
    1.7976931348623157e308,
    2 ** 53 + 2,
  ),
);

const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, awkwardText, awkwardNumber, fc.boolean(), fc.constant(null), tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(awkwardText, fc.constantFrom("0", "1", "10", "2", "a", "b", "01", "4294967294", "4294967295", "-1")), tie("value"), {
    maxKeys: 5,
  }),
})).value;

describe("CSV fields written in the database", () => {
  it("texts: the CSV-injection guard and the quoting as csvField", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(awkwardText, { minLength: 1, maxLength: 40 }), async (texts) => {
        const rows = await db.$queryRaw<Array<{ t: string; csv: string }>>`SELECT t, yardstick_csv_text(t) AS csv FROM unnest(${texts}::text[]) AS t`;
        for (const row of rows) expect(row.csv, JSON.stringify(row.t)).toBe(csvField(row.t));
      }),
      { numRuns: 30, seed: SEED },
    );
  });

  it("doubles: JavaScript's String(x)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(awkwardNumber, { minLength: 1, maxLength: 40 }), async (numbers) => {
        const rows = await db.$queryRaw<Array<{ x: number; csv: string }>>`SELECT x, yardstick_js_number(x) AS csv FROM unnest(${numbers}::float8[]) AS x`;
        for (const row of rows) expect(row.csv, String(row.x)).toBe(csvField(row.x));
      }),
      { numRuns: 30, seed: SEED + 1 },
    );
    const [special] = await db.$queryRaw<
      Array<{ nan: string; inf: string }>
    >`SELECT yardstick_js_number('NaN') AS nan, yardstick_js_number('-Infinity') AS inf`;
    expect(special).toEqual({ nan: csvField(Number.NaN), inf: csvField(-Infinity) });
  });

  it("JSON: the value Prisma parses a jsonb to, as csvField writes it (JSON.stringify for objects and arrays)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(json, { minLength: 1, maxLength: 20 }), async (values) => {
        const texts = values.map((v) => JSON.stringify(v));
        const rows = await db.$queryRaw<Array<{ v: unknown; csv: string }>>`SELECT v, yardstick_csv_jsonb(v) AS csv FROM unnest(${texts}::jsonb[]) AS v`;
        for (const row of rows) expect(row.csv, JSON.stringify(row.v)).toBe(csvField(row.v));
      }),
      { numRuns: 40, seed: SEED + 2 },
    );
  });

  it("JSON by name: spaces inside strings, integer-like keys, small and large numbers", async () => {
    const values = [
      { a: "x, y: z", "b c": [1, 2, { "d, e": 'f" : g' }] },
      { a: 1, 10: 2, 2: 3, b: { 1: "x", z: 1e-7 } },
      { order: [2, 0, 1] },
      [1e21, 1.5e-7, 0.1, -0, 1e15, 123.456],
      '=HYPERLINK("x")',
      " padded ",
      "-1",
      {},
      [],
      null,
      true,
      1e-7,
      "tab\there\\",
      { "\u2028": "\u00e9\ud83d\ude00\u0007" },
    ];
    const texts = values.map((v) => JSON.stringify(v));
    const rows = await db.$queryRaw<
      Array<{ v: unknown; csv: string }>
    >`SELECT v, yardstick_csv_jsonb(v) AS csv FROM unnest(${texts}::jsonb[]) WITH ORDINALITY AS t(v, n) ORDER BY n`;
    expect(rows.map((r) => r.csv)).toEqual(rows.map((r) => csvField(r.v)));
    expect(rows).toHaveLength(values.length);
  });

  it("timestamps: Date.toISOString", async () => {
    const dates = [new Date("2026-01-02T03:04:05.006Z"), new Date("1999-12-31T23:59:59.999Z"), new Date(0)];
    const rows = await db.$queryRaw<Array<{ t: Date; csv: string }>>`SELECT t, yardstick_csv_time(t) AS csv FROM unnest(${dates}::timestamp(3)[]) AS t`;
    for (const row of rows) expect(row.csv).toBe(csvField(row.t));
    const [none] = await db.$queryRaw<Array<{ csv: string }>>`SELECT yardstick_csv_time(NULL) AS csv`;
    expect(none.csv).toBe(csvField(null));
  });
});
