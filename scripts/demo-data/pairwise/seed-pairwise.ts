import path from "node:path";
import { db } from "@/lib/db";
import { DATA_DIR } from "@/lib/db/database-url";
import { importBatchFromPath } from "@/lib/import";
import { generatePairwiseDemoBatch } from "@/scripts/demo-data/pairwise/generate-pairwise-batch";

export const PAIRWISE_STUDY = "pairwise-demo";

const instructions = `# Which generated video is better?

Each item shows two videos made from the same prompt (by video generators, or the reference
video), played together. For each question say
which is better, or that they are equally good (tie). Keys: ↑ ↓ choose a question, 1 / 2 prefer
video 1 / 2, T a tie; Space plays and pauses the focused player.`;

/** The pairwise demo study: six pairs of drawn clips and one of the real demo clip against a drawn one, for the demo annotators (k = 3). */
export async function seedPairwiseStudy(users: Record<string, string>, admin: string, annotatorIds: readonly string[]): Promise<number> {
  const batchDir = path.join(DATA_DIR, "demo", "pairwise-batch");
  const generated = await generatePairwiseDemoBatch({ outDir: batchDir });
  const study = await db.study.create({
    data: {
      slug: PAIRWISE_STUDY,
      title: "Pairwise preference demo: generated videos",
      instructions,
      overlap: 3,
      confidenceScale: "LIKERT_5",
      createdById: users["researcher@yardstick.local"],
    },
    select: { id: true },
  });
  await importBatchFromPath(batchDir, { studySlug: PAIRWISE_STUDY, importedById: admin });
  await db.studyMember.createMany({ data: annotatorIds.map((userId) => ({ studyId: study.id, userId })) });
  return generated.items;
}
