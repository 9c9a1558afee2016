import { describe, expect, it } from "vitest";
import { isDbSaturation } from "@/lib/db/transient";
import { toResponse } from "@/lib/errors";

/** Shaped like what Prisma 7 throws (PrismaClientKnownRequestError: name, code, message, meta). */
function prismaError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: "PrismaClientKnownRequestError", code, meta: {}, clientVersion: "7.10.1" });
}

describe("database saturation", () => {
  it("recognises a transaction that could not start in time, a pool timeout, a write conflict", () => {
    expect(isDbSaturation(prismaError("P2028", "Transaction API error: Unable to start a transaction in the given time."))).toBe(true);
    expect(isDbSaturation(prismaError("P2024", "Timed out fetching a new connection from the connection pool."))).toBe(true);
    expect(isDbSaturation(prismaError("P2034", "Transaction failed due to a write conflict or a deadlock. Please retry your transaction"))).toBe(true);
    expect(isDbSaturation(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDbSaturation(Object.assign(new Error("wrapped"), { cause: new Error("timeout exceeded when trying to connect") }))).toBe(true);
  });

  it("leaves other errors alone", () => {
    expect(isDbSaturation(prismaError("P2002", "Unique constraint failed on the fields: (`clientId`)"))).toBe(false);
    expect(isDbSaturation(new TypeError("x is undefined"))).toBe(false);
    expect(isDbSaturation(null)).toBe(false);
    expect(isDbSaturation("P2028")).toBe(false);
  });

  it("answers 503 with Retry-After and no stack trace", async () => {
    const error = prismaError("P2028", "Transaction API error: Unable to start a transaction in the given time.");
    const originalError = console.error;
    console.error = () => undefined;
    try {
      const response = toResponse(error);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      const body = (await response.json()) as { error: string; code: string };
      expect(body.code).toBe("UNAVAILABLE");
      expect(JSON.stringify(body)).not.toMatch(/at .*\.ts|Transaction API|P2028/);
    } finally {
      console.error = originalError;
    }
  });
});
