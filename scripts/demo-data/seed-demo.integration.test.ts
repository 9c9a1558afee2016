import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { taskKinds } from "@/lib/tasks";
import { resetDatabase } from "@/tests/db-helpers";

/**
 * `npm run demo` seeds a study of every kind the README lists:
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

  it("gives simulated participants consistent states: joined before their first activity, complete when every item is answered", async () => {
    const { listParticipants } = await import("@/lib/participants/participants");
    const studies = await db.study.findMany({ select: { id: true, slug: true } });
    let checked = 0;
    for (const study of studies) {
      const nonPractice = await db.item.count({ where: { studyId: study.id, practice: false } });
      const { rows } = await listParticipants(study.slug);
      for (const row of rows) {
        const label = `${study.slug}: ${row.name}`;
        if (row.lastActivity) expect(row.joinedAt <= row.lastActivity, `${label} joined ${row.joinedAt}, last active ${row.lastActivity}`).toBe(true);
        if (row.startedAt) expect(row.joinedAt <= row.startedAt, `${label} joined after starting`).toBe(true);
        if (row.consentedAt) expect(row.joinedAt <= row.consentedAt, `${label} joined after consenting`).toBe(true);
        if (row.mainSubmitted >= nonPractice && nonPractice > 0 && row.open === 0) {
          expect(row.status, `${label} answered ${row.mainSubmitted}/${nonPractice}`).toBe("COMPLETE");
          expect(row.statusAt !== null && row.lastActivity !== null && row.statusAt >= row.lastActivity, `${label} completed before the last answer`).toBe(
            true,
          );
          checked += 1;
        }
      }
      // whoever answered in a study is one of its participants (listed, with a status)
      const answerers = await db.assignment.findMany({
        where: { studyId: study.id, response: { isNot: null } },
        distinct: ["userId"],
        select: { userId: true },
      });
      const members = new Set(rows.map((row) => row.userId));
      const agents = new Set((await db.user.findMany({ where: { isAgent: true }, select: { id: true } })).map((u) => u.id));
      expect(
        answerers.map((a) => a.userId).filter((id) => !members.has(id) && !agents.has(id)),
        `${study.slug}: answerers who are not participants`,
      ).toEqual([]);
    }
    expect(checked).toBeGreaterThan(0);
    // an answer is stored when its assignment was submitted, after the assignment started
    const late = await db.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM "Response" r JOIN "Assignment" a ON a.id = r."assignmentId"
      WHERE a."submittedAt" IS NOT NULL AND (r."createdAt" < a."createdAt" OR a."startedAt" IS NULL OR a."startedAt" > a."submittedAt" OR abs(extract(epoch FROM r."createdAt" - a."submittedAt")) > 60)`;
    expect(Number(late[0].n)).toBe(0);
  }, 600_000);

  it("keeps every demo study's dashboard exactly as the page computed it when stored for later views", async () => {
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
