import path from "node:path";
import { db } from "@/lib/db";
import { DATA_DIR } from "@/lib/db/database-url";
import { importBatchFromPath } from "@/lib/import";
import { importModelRun } from "@/lib/models/runs";
import { generateRatingDemoBatch } from "@/scripts/demo-data/rating/generate-rating-batch";

export const RATING_STUDY = "rating-demo";

const instructions = `# Rate generated videos

Each item is a short video made from the prompt shown above it (by a video generator, or the
reference video). Play it (as often as you like), then rate it on the rubric: how well it follows the prompt (0-3), and yes / no
checks on physics and picture quality. Keys: ↑ ↓ choose a row, digits rate, Y / N answer a check;
Space plays and pauses the focused player.`;

/** The rating demo study: four drawn clips and the real demo clip for the demo annotators (k = 3), and a SYNTHETIC judge run. */
export async function seedRatingStudy(users: Record<string, string>, admin: string, annotatorIds: readonly string[]): Promise<number> {
  const batchDir = path.join(DATA_DIR, "demo", "rating-batch");
  const generated = await generateRatingDemoBatch({ outDir: batchDir });
  const study = await db.study.create({
    data: {
      slug: RATING_STUDY,
      title: "Rubric rating demo: generated videos",
      instructions,
      overlap: 3,
      confidenceScale: "LIKERT_5",
      createdById: users["researcher@yardstick.local"],
    },
    select: { id: true },
  });
  await importBatchFromPath(batchDir, { studySlug: RATING_STUDY, importedById: admin });
  await db.studyMember.createMany({ data: annotatorIds.map((userId) => ({ studyId: study.id, userId })) });
  await importModelRun({
    studySlug: RATING_STUDY,
    name: generated.run.name,
    answersJsonl: generated.run.jsonl,
    fileName: generated.run.file,
    importedById: admin,
  });
  return generated.items;
}
