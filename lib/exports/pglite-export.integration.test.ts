import { describe, expect, it } from "vitest";
import { runOnMigratedPglite } from "@/tests/pglite";

/**
 * `npm run demo` runs on the embedded PGlite (lib/db/database-url.ts): the CSV exports built in
 * the database (the yardstick_csv_* functions) must work there, with the same bytes as the CSV
 * written in Node. PGlite answers a statement whole, so the default COPY path (copySupported)
 * takes the keyset pages there instead, bounded in memory.
 */
runOnMigratedPglite();

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("exports on the embedded database (PGlite behind pglite-socket)", () => {
  it("builds responses.csv and events.csv in the database with the same bytes as in Node", async () => {
    const { db } = await import("@/lib/db");
    const { addEvents, answer, createBatch, createOrderItem } = await import("@/lib/dashboard/testing/seed");
    const { createStudy, createUser } = await import("@/tests/db-helpers");
    const { createStudyExport } = await import("@/lib/exports/study-export");
    const { copySupported } = await import("@/lib/db/copy");
    const { readPool } = await import("@/lib/db/read");
    const [version] = await db.$queryRaw<Array<{ version: string }>>`SELECT version()`;
    expect(version.version).toMatch(/PGlite/);
    const user = await createUser("ANNOTATOR", { name: "Ann" });
    const study = await createStudy();
    const batch = await createBatch(study.id);
    const item = await createOrderItem(study.id, batch.id, { externalId: "=x, 1", order: [0, 1, 2], tags: { steps: 3, hand: "@left" } });
    const r = await answer(item, user.id, [1, 0, 2], { confidence: 0.75 });
    await addEvents(r.assignmentId, ["item_shown", "page_hidden", "submitted"]);
    for (const what of ["responses", "events"] as const) {
      expect(await copySupported(readPool())).toBe(false);
      const fromDatabase = await text((await createStudyExport(study.slug, what, "csv")).stream);
      const fromRecords = await text((await createStudyExport(study.slug, what, "csv", {}, { csvFrom: "records" })).stream);
      expect(fromDatabase.split("\r\n").length, what).toBeGreaterThan(2);
      expect(fromDatabase, what).toBe(fromRecords);
    }
  }, 300_000);
});
