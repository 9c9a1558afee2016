import { describe, expect, it } from "vitest";
import { databaseFailureOf, isForeignKeyViolation, isUniqueViolation, isUnstorableTextError } from "@/lib/db/errors";
import { toResponse } from "@/lib/errors";

/** Errors as Prisma 7 + @prisma/adapter-pg threw them here against a stopped or full PostgreSQL (shapes copied from the real objects). */
function prismaError(code: string, cause?: Record<string, unknown>) {
  return Object.assign(new Error(`Invalid \`db.user.count()\` invocation in\n/srv/yardstick/lib/x.ts:11:34\n\n→ 11 ...\nDatabase error`), {
    name: "PrismaClientKnownRequestError",
    code,
    clientVersion: "7.10.0",
    meta: cause ? { modelName: "User", driverAdapterError: { name: "DriverAdapterError", cause } } : {},
  });
}

const stopped = prismaError("P1001", { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 43599 });
const shutDown = prismaError("P2039", {
  originalCode: "57P01",
  originalMessage: "terminating connection due to administrator command",
  kind: "postgres",
  code: "57P01",
  severity: "FATAL",
});
const diskFull = prismaError("P2039", {
  originalCode: "53100",
  originalMessage: "could not extend file: No space left on device",
  kind: "postgres",
  code: "53100",
  severity: "ERROR",
});
const readOnly = prismaError("P2039", {
  originalCode: "25006",
  originalMessage: "cannot execute INSERT in a read-only transaction",
  kind: "postgres",
  code: "25006",
  severity: "ERROR",
});

describe("databaseFailureOf", () => {
  it("recognises a stopped, restarting, full or read-only database", () => {
    expect(databaseFailureOf(stopped)).toBe("unavailable");
    expect(databaseFailureOf(shutDown)).toBe("unavailable");
    expect(databaseFailureOf(prismaError("P2039", { kind: "ConnectionClosed" }))).toBe("unavailable");
    expect(databaseFailureOf(Object.assign(new Error("Connection terminated unexpectedly"), { name: "PrismaClientUnknownRequestError" }))).toBe("unavailable");
    expect(databaseFailureOf(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe("unavailable");
    expect(databaseFailureOf(diskFull)).toBe("disk-full");
    expect(databaseFailureOf(readOnly)).toBe("read-only");
    expect(databaseFailureOf(prismaError("P2034", { kind: "TransactionWriteConflict" }))).toBe("conflict");
    expect(databaseFailureOf(new Error("wrapped", { cause: diskFull }))).toBe("disk-full");
  });

  it("leaves everything else alone", () => {
    expect(databaseFailureOf(prismaError("P2002", { kind: "UniqueConstraintViolation", constraint: { fields: ["email"] } }))).toBeNull();
    expect(databaseFailureOf(prismaError("P2010", { originalCode: "22P02", kind: "InvalidInputValue" }))).toBeNull();
    expect(databaseFailureOf(new TypeError("x is undefined"))).toBeNull();
    expect(databaseFailureOf("P1001")).toBeNull();
    expect(databaseFailureOf(null)).toBeNull();
  });
});

describe("toResponse for database failures", () => {
  it("answers 503 with a Retry-After hint and no stack trace", async () => {
    for (const error of [stopped, shutDown]) {
      const response = toResponse(error);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      const body = await response.json();
      expect(body).toEqual({ error: expect.stringContaining("try again"), code: "UNAVAILABLE" });
      expect(JSON.stringify(body)).not.toMatch(/Invalid `|\/work\/|at .*\(|prisma/i);
    }
    expect(toResponse(readOnly).status).toBe(503);
  });

  it("answers 507 for a full disk, saying nothing was written", async () => {
    const response = toResponse(diskFull);
    expect(response.status).toBe(507);
    expect(await response.json()).toEqual({ error: expect.stringContaining("out of disk space; nothing was written"), code: "STORAGE_FULL" });
  });
});

describe("isUnstorableTextError", () => {
  // as Prisma 7 threw it here for a NUL in a findUnique's where (a fuzzed path parameter)
  const nul = prismaError("P2039", {
    originalCode: "22021",
    originalMessage: 'invalid byte sequence for encoding "UTF8": 0x00',
    kind: "postgres",
    code: "22021",
    severity: "ERROR",
  });

  it("recognises text PostgreSQL cannot store, and toResponse answers 422 without internals", async () => {
    expect(isUnstorableTextError(nul)).toBe(true);
    expect(isUnstorableTextError(new Error("wrapped", { cause: nul }))).toBe(true);
    expect(isUnstorableTextError(prismaError("P2010", { originalCode: "22P05", kind: "postgres", code: "22P05" }))).toBe(true);
    expect(isUnstorableTextError(diskFull)).toBe(false);
    expect(isUnstorableTextError(prismaError("P2010", { originalCode: "22P02", kind: "InvalidInputValue" }))).toBe(false);
    expect(isUnstorableTextError(null)).toBe(false);
    const response = toResponse(nul);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: string };
    expect(body.error).toMatch(/cannot be stored/);
    expect(JSON.stringify(body)).not.toMatch(/Invalid `db|\/work\/|22021/);
  });
});

describe("isForeignKeyViolation", () => {
  it("recognises a row referring to one that is gone, from Prisma or a raw statement, and nothing else", () => {
    expect(isForeignKeyViolation(prismaError("P2010", { kind: "ForeignKeyConstraintViolation", constraint: { index: "Event_assignmentId_fkey" } }))).toBe(true);
    expect(isForeignKeyViolation(prismaError("P2003"))).toBe(true);
    expect(isForeignKeyViolation(new Error("wrapped", { cause: prismaError("P2010", { originalCode: "23503", kind: "postgres", code: "23503" }) }))).toBe(true);
    expect(isForeignKeyViolation(prismaError("P2010", { kind: "UniqueConstraintViolation" }))).toBe(false);
    expect(isForeignKeyViolation(diskFull)).toBe(false);
    expect(isForeignKeyViolation(new Error("anything"))).toBe(false);
  });
});

describe("isUniqueViolation", () => {
  it("recognises a key already taken, from Prisma, a raw statement or pg, wrapped or not, and nothing else", () => {
    expect(isUniqueViolation(prismaError("P2002"))).toBe(true);
    expect(isUniqueViolation(prismaError("P2010", { kind: "UniqueConstraintViolation", constraint: { fields: ["contentHash"] } }))).toBe(true);
    expect(isUniqueViolation(prismaError("P2010", { originalCode: "23505", kind: "postgres", code: "23505" }))).toBe(true);
    expect(isUniqueViolation(new Error("wrapped", { cause: prismaError("P2002") }))).toBe(true);
    expect(isUniqueViolation(Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505" }))).toBe(true);
    expect(isUniqueViolation(prismaError("P2003"))).toBe(false);
    expect(isUniqueViolation(prismaError("P2010", { kind: "ForeignKeyConstraintViolation" }))).toBe(false);
    expect(isUniqueViolation(diskFull)).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });

  it("is not fooled by a cycle of causes", () => {
    const looped: Error & { cause?: unknown } = new Error("a");
    looped.cause = looped;
    expect(isUniqueViolation(looped)).toBe(false);
    expect(isForeignKeyViolation(looped)).toBe(false);
    expect(isUnstorableTextError(looped)).toBe(false);
  });
});
