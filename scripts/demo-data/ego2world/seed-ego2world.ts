import path from "node:path";
import { db } from "@/lib/db";
import { DATA_DIR } from "@/lib/db/database-url";
import { importBatchFromPath } from "@/lib/import";
import { importModelRun } from "@/lib/models/runs";
import { generateEgo2worldDemoBatch } from "@/scripts/demo-data/ego2world/generate-ego2world-batch";

export const EGO2WORLD_STUDY = "ego2world-demo";

const instructions = `# Ego2World: play a symbolic kitchen

You are in a kitchen you cannot see all at once. Each episode has a few **tasks in a row** (make
coffee, slice bread, cook pasta...); the kitchen is never reset between them.

- The big picture shows the area you are in **as it was at the start**. What changed since is
  listed beside it ("cup_01 was brought here", "pot_01: amount went up").
- Move with the **Go to** buttons. Act with the **Actions**: pick one (or press 1-9), choose what
  it acts on (only what is here, in your hand, or an area), then **Do it**.
- After each action a line says whether it worked, or what was missing.
- Keep **My notes** up to date: where each object is, its state as you believe it, how sure you
  are, and why (seen, feedback, guess). Rows for what you see fill in by themselves.
- When you think a task is done, press **Done with this task**. You will not be told whether you
  succeeded; then the next task starts from the kitchen as you left it.

Give your confidence at the end and submit.`;

/** The Ego2World demo study: three kitchen episodes for the demo annotators (k = 3) and two SYNTHETIC agent runs. */
export async function seedEgo2worldStudy(users: Record<string, string>, admin: string, annotatorIds: readonly string[]): Promise<number> {
  const batchDir = path.join(DATA_DIR, "demo", "ego2world-batch");
  const generated = await generateEgo2worldDemoBatch({ outDir: batchDir, seed: 1 });
  const study = await db.study.create({
    data: {
      slug: EGO2WORLD_STUDY,
      title: "Ego2World demo: play symbolic kitchens",
      instructions,
      overlap: 3,
      confidenceScale: "LIKERT_5",
      createdById: users["researcher@yardstick.local"],
    },
    select: { id: true },
  });
  await importBatchFromPath(batchDir, { studySlug: EGO2WORLD_STUDY, importedById: admin });
  await db.studyMember.createMany({ data: annotatorIds.map((userId) => ({ studyId: study.id, userId })) });
  for (const run of generated.runs) {
    await importModelRun({ studySlug: EGO2WORLD_STUDY, name: run.name, answersJsonl: run.jsonl, fileName: run.file, importedById: admin });
  }
  return generated.items.length;
}
