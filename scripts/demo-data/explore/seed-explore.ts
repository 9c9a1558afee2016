import path from "node:path";
import { db } from "@/lib/db";
import { DATA_DIR } from "@/lib/db/database-url";
import { importBatchFromPath } from "@/lib/import";
import { importModelRun } from "@/lib/models/runs";
import { generateExploreDemoBatch } from "@/scripts/demo-data/explore/generate-explore-batch";

export const EXPLORE_STUDY = "explore-demo";

export const exploreInstructions = `# EXPLORE-Bench: predict the final scene

Each item shows a kitchen **before** a person ("C") did a list of things, and that list of atomic
actions, in order. Imagine the scene **after the last action** and describe it:

- Add each object you expect to see (its category, e.g. *bowl*), with what it looks like (colour,
  material, state: *white ceramic, full*).
- Add relations between objects (*bowl* **on** *counter*). Two objects of one kind are told apart
  as *bottle.0* and *bottle.1*.
- Some lists are long: read them to the end. Some scenes end in a mishap; say what you expect to see.

Give your confidence and submit.`;

/** The EXPLORE-Bench demo study: three drawn scenes (one with 240 actions, one abnormal) for the demo annotators (k = 3), and a SYNTHETIC model run. */
export async function seedExploreStudy(users: Record<string, string>, admin: string, annotatorIds: readonly string[]): Promise<number> {
  const batchDir = path.join(DATA_DIR, "demo", "explore-batch");
  const generated = await generateExploreDemoBatch({ outDir: batchDir });
  const study = await db.study.create({
    data: {
      slug: EXPLORE_STUDY,
      title: "EXPLORE-Bench demo: predict the final scene",
      instructions: exploreInstructions,
      overlap: 3,
      confidenceScale: "LIKERT_5",
      createdById: users["researcher@yardstick.local"],
    },
    select: { id: true },
  });
  await importBatchFromPath(batchDir, { studySlug: EXPLORE_STUDY, importedById: admin });
  await db.studyMember.createMany({ data: annotatorIds.map((userId) => ({ studyId: study.id, userId })) });
  await importModelRun({
    studySlug: EXPLORE_STUDY,
    name: generated.run.name,
    answersJsonl: generated.run.jsonl,
    fileName: generated.run.file,
    importedById: admin,
  });
  return generated.items.length;
}
