import { afterAll, describe, expect, it } from "vitest";
import { readPool } from "@/lib/db/read";

/**
 * readPool's connections read doubles at their shortest round-trip digits (extra_float_digits = 1,
 * what the exports and the snapshot rely on), set when the connection starts: a query sent on a
 * new connection's "connect" event queues ahead of the pool's own first query, which pg deprecates
 * ("Calling client.query() when the client is already executing a query", an error in pg 9).
 */
describe("readPool", () => {
  afterAll(async () => {
    await readPool().end();
  });

  it("sets extra_float_digits on new connections without queueing a query ahead of the caller's", async () => {
    const warnings: string[] = [];
    const listen = (warning: Error) => warnings.push(warning.message);
    process.on("warning", listen);
    try {
      const pool = readPool();
      // several at once: each on a connection of its own, new
      const shown = await Promise.all(Array.from({ length: 4 }, () => pool.query<{ extra_float_digits: string }>("SHOW extra_float_digits")));
      for (const result of shown) expect(result.rows[0].extra_float_digits).toBe("1");
      expect(pool.totalCount).toBeGreaterThan(1);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", listen);
    }
    expect(warnings.filter((message) => message.includes("already executing a query"))).toEqual([]);
  });
});
