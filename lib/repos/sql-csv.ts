import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * SQL expressions that write one CSV field exactly as csvField (lib/exports/csv.ts) writes the
 * value Prisma returns for the column, through the yardstick_csv_* functions of the migration
 * 20261127144500_csv_functions. The streamed exports build whole CSV lines with them in the
 * database, so that Node only forwards text; lib/exports/sql-csv.integration.test.ts
 * checks them against csvField on random values.
 */

/** a text (or enum) column: the CSV-injection guard and RFC 4180 quoting */
export const csvText = (sql: Prisma.Sql) => Prisma.sql`yardstick_csv_text((${sql})::text)`;
/** a jsonb column, as the JavaScript value Prisma parses it to */
export const csvJson = (sql: Prisma.Sql) => Prisma.sql`yardstick_csv_jsonb(${sql})`;
/** a double precision column: JavaScript's String(x) */
export const csvNumber = (sql: Prisma.Sql) => Prisma.sql`coalesce(yardstick_js_number(${sql}), '')`;
/** an integer column (int4/int8): its decimal digits */
export const csvInteger = (sql: Prisma.Sql) => Prisma.sql`coalesce((${sql})::text, '')`;
/** a boolean column: true / false */
export const csvBoolean = (sql: Prisma.Sql) => Prisma.sql`coalesce((${sql})::text, '')`;
/** a timestamp(3) column read as UTC: Date.toISOString */
export const csvTime = (sql: Prisma.Sql) => Prisma.sql`yardstick_csv_time(${sql})`;
/** a field of a jsonb object, as `record[key] ?? null` (null when the value is not an object) */
export const csvJsonField = (sql: Prisma.Sql, key: string) => Prisma.sql`yardstick_csv_jsonb((${sql}) -> ${key}::text)`;

/** One CSV record (fields joined by commas, CRLF): the fields' expressions must never be NULL. */
export function csvLine(fields: Prisma.Sql[]): Prisma.Sql {
  return Prisma.sql`(${Prisma.join(fields, " || ',' || ")} || E'\\r\\n')`;
}

/** pseudonymousId (lib/exports/study-export.ts) in SQL: "ann_" + 12 hex digits of sha256(studyId:userId) */
export function pseudonymousIdSql(studyId: string, userIdSql: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`('ann_' || left(encode(sha256(convert_to(${studyId}::text || ':' || ${userIdSql}, 'UTF8')), 'hex'), 12))`;
}
