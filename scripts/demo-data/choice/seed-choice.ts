import path from "node:path";
import { db } from "@/lib/db";
import { DATA_DIR } from "@/lib/db/database-url";
import { importBatchFromPath } from "@/lib/import";
import { importModelRun } from "@/lib/models/runs";
import { generateGenericDemoBatch } from "@/scripts/demo-data/choice/generate-choice-batch";

export const GENERIC_STUDY = "generic-demo";

export const genericInstructions = `# A flat from above and a ball on a table: choose and estimate

Each item shows a drawn plan of one room (the door at the bottom, the window at the top), or a
short video of a ball on a table, and asks either to **choose** one option or to **give a number**.

- Videos: press **Play** (or Space or K with the player focused); ← / → go 5 s back or on. The
  clock beside the controls shows the time.
- Options: click or tap one, or press its place: **1-9** or **A-I**. The options come in a
  different order for each person.
- Numbers: type the number (a point for decimals); the unit is shown beside the box.

Give your confidence and submit. One question has no known answer: answer it as well as you can.`;

/** The generic kinds' demo study (choice and numeric items about a drawn room and the demo clip) for the demo annotators (k = 3), and a SYNTHETIC model run. */
export async function seedChoiceStudy(users: Record<string, string>, admin: string, annotatorIds: readonly string[]): Promise<number> {
  const batchDir = path.join(DATA_DIR, "demo", "generic-batch");
  const generated = await generateGenericDemoBatch({ outDir: batchDir });
  const study = await db.study.create({
    data: {
      slug: GENERIC_STUDY,
      title: "Choose and estimate: a room from above and a ball on a table (choice and numeric demo)",
      instructions: genericInstructions,
      overlap: 3,
      confidenceScale: "LIKERT_5",
      createdById: users["researcher@yardstick.local"],
    },
    select: { id: true },
  });
  await importBatchFromPath(batchDir, { studySlug: GENERIC_STUDY, importedById: admin });
  await db.studyMember.createMany({ data: annotatorIds.map((userId) => ({ studyId: study.id, userId })) });
  await importModelRun({
    studySlug: GENERIC_STUDY,
    name: generated.run.name,
    answersJsonl: generated.run.jsonl,
    fileName: generated.run.file,
    importedById: admin,
  });
  return generated.items.length;
}
