import type { ExploreSection } from "@/lib/tasks/shared/explore/dashboard";
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db, disconnectDb } from "@/lib/db";
import { clearDashboardCaches } from "@/lib/dashboard/snapshot";
import { getStudyDashboard } from "@/lib/dashboard/study-dashboard";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { importModelRun } from "@/lib/models/runs";
import { createStudy, resetDatabase } from "@/tests/db-helpers";

/** the Prisma client behind lib/db's proxy (made on first use) */
const prismaClient = () => (globalThis as unknown as { yardstickPrisma: PrismaClient }).yardstickPrisma;

async function exploreStudyWithModelRun() {
  const study = await createStudy();
  const batch = await db.batch.create({ data: { studyId: study.id, fileName: "explore.jsonl", checksum: randomUUID(), itemCount: 1 } });
  await db.item.create({
    data: {
      studyId: study.id,
      batchId: batch.id,
      externalId: "x1",
      kind: "explore-scene",
      public: { initialImage: "/img/x1.jpg", actions: ["C picks up the cup"] },
      key: { objects: [{ category: "cup", description: "red cup", relation: [] }] },
      tags: { subset: "Short", actions: 1 },
      contentHash: randomUUID(),
    },
  });
  await importModelRun({ studySlug: study.slug, name: "Model X", fileName: "answers.jsonl", answersJsonl: JSON.stringify({ id: "x1", answer: "A red cup." }) });
  return study;
}

describe("the study dashboard and model predictions", () => {
  beforeEach(async () => {
    await resetDatabase();
    clearDashboardCaches();
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(disconnectDb);

  it("loads the study's model predictions once for every section that shows them", async () => {
    const study = await exploreStudyWithModelRun();
    const client = prismaClient();
    const queryRaw = vi.spyOn(client, "$queryRaw");
    const findMany = vi.spyOn(client.modelPrediction, "findMany");
    const dashboard = await getStudyDashboard(study.slug, {});
    const predictionLoads =
      queryRaw.mock.calls.filter(([sql]) => JSON.stringify(sql).includes('FROM \\"ModelPrediction\\"')).length + findMany.mock.calls.length;
    expect(predictionLoads).toBe(1);
    expect(dashboard.accuracy.modelRows.map((row) => row.label)).toContain("Model X");
    expect((dashboard.sections.explore as ExploreSection).tables[0].rows.map((row) => row.participant.label)).toContain("Model X");
  });
});
