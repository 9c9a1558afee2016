import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { taskKinds } from "@/lib/tasks";
import { resetDatabase } from "@/tests/db-helpers";

/**
 * `npm run demo` (issue #16: the demo seeded no EXPLORE study although the README lists the kind):
 * every registered task kind has items in a demo study, and a second run changes nothing.
 */
let dataDir = "";

beforeAll(async () => {
  await resetDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "demo-seed-"));
  vi.stubEnv("YARDSTICK_DATA_DIR", dataDir);
  vi.resetModules();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(dataDir, { recursive: true, force: true });
});

describe("demo seed", () => {
  it("gives every task kind items in a demo study (EXPLORE-Bench included), once", async () => {
    const { seedDemo } = await import("@/scripts/demo-data/seed-demo");
    await seedDemo();
    const kinds = await db.item.groupBy({ by: ["kind"], _count: { _all: true } });
    const seeded = new Set(kinds.map((row) => row.kind));
    expect(taskKinds.filter((kind) => !seeded.has(kind))).toEqual([]);
    expect(await db.study.findUnique({ where: { slug: "explore-demo" }, select: { slug: true } })).toEqual({ slug: "explore-demo" });
    const items = await db.item.count();
    expect(await seedDemo()).toBe("Demo data is loaded already.");
    expect(await db.item.count()).toBe(items);
  }, 600_000);

  it("keeps every demo study's dashboard exactly as the page computed it when stored for later views (issue 21)", async () => {
    const { getStudyDashboard } = await import("@/lib/dashboard/study-dashboard");
    const { decodeStoredView, encodeStoredView } = await import("@/lib/dashboard/stored-json");
    const studies = await db.study.findMany({ select: { slug: true } });
    expect(studies.length).toBeGreaterThan(5);
    for (const { slug } of studies) {
      const dashboard = await getStudyDashboard(slug, {}, { intervals: "inline" });
      expect(decodeStoredView(encodeStoredView(dashboard)), slug).toEqual(dashboard);
    }
  }, 600_000);
});
