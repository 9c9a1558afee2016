import { z } from "zod";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import { countItemsBySource, listItemsWithAnswers } from "@/lib/repos/exports";
import { findStudyIdBySlug } from "@/lib/repos/studies";
import { taskKinds, taskModules } from "@/lib/tasks";
import type { KindSubmissionFormat, SubmissionItem } from "@/lib/tasks/types";

/**
 * People's answers as a benchmark's submission file: the formats
 * come from the kinds (TaskModule.submissions); the items are the study's non-practice items of
 * that kind whose tag `source` is the format's, with every submitted answer and who gave it.
 */

export const submissionParamsSchema = z.object({
  format: z
    .string()
    .min(1)
    .max(60)
    .regex(/^[a-z0-9-]+$/u, "a submission format id"),
});
export const submissionQuerySchema = z.object({
  who: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/u, '"majority" or an annotator\'s id')
    .default("majority"),
});

async function findFormat(id: string): Promise<{ kind: string; format: KindSubmissionFormat }> {
  const known: string[] = [];
  for (const kind of taskKinds) {
    const formats = (await taskModules[kind].submissions?.()) ?? [];
    const format = formats.find((f) => f.id === id);
    if (format) return { kind, format };
    known.push(...formats.map((f) => f.id));
  }
  throw new AppError("NOT_FOUND", `No submission format "${id}"; known: ${known.join(", ") || "none"}`);
}

export interface StudySubmissionFile {
  id: string;
  benchmark: string;
  fileName: string;
  /** the study's items (practice aside) the file would hold */
  items: number;
}

/** The submission files this study's items make: each format of its kinds whose `source` tag some item carries. */
export async function studySubmissionFiles(studyId: string): Promise<StudySubmissionFile[]> {
  const rows = await countItemsBySource(studyId);
  const out: StudySubmissionFile[] = [];
  for (const kind of taskKinds) {
    for (const format of (await taskModules[kind].submissions?.()) ?? []) {
      const row = rows.find((r) => r.kind === kind && r.source === format.source);
      if (row) out.push({ id: format.id, benchmark: format.benchmark, fileName: format.fileName, items: Number(row.n) });
    }
  }
  return out;
}

export async function createSubmission(
  slug: string,
  formatId: string,
  who: string,
  actorId: string,
): Promise<{ stream: ReadableStream<Uint8Array>; fileName: string; contentType: string }> {
  const study = await findStudyIdBySlug(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const { kind, format } = await findFormat(formatId);
  const rows = await listItemsWithAnswers(study.id, kind, format.source);
  const items = new Map<string, SubmissionItem>();
  for (const row of rows) {
    let item = items.get(row.externalId);
    if (!item) items.set(row.externalId, (item = { externalId: row.externalId, public: row.public, tags: row.tags ?? {}, answers: [] }));
    if (row.userId && row.answer !== null && row.answer !== undefined) item.answers.push({ annotator: row.userId, answer: row.answer });
  }
  if (items.size === 0) throw new AppError("NOT_FOUND", `The study "${slug}" has no ${format.benchmark} items (tag source "${format.source}")`);
  const text = format.build([...items.values()], who);
  await recordAudit(actorId, "study.submission-export", `study:${study.id}`, { format: format.id, who, items: items.size });
  return { stream: new Blob([text]).stream(), fileName: format.fileName, contentType: "application/json" };
}
