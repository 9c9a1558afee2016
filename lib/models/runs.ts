import "server-only";
import { z } from "zod";
import { recordAudit } from "@/lib/audit/log";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { getTaskModule, isTaskKind } from "@/lib/tasks";
import type { AnyTaskModule } from "@/lib/tasks/types";
import type { ModelPredictionRow, ModelRunSummary } from "@/lib/models/types";
import {
  countNonPracticeItems,
  deleteRun,
  findItemsToScore,
  findRunOfStudy,
  listPredictionsOfStudy,
  listRunsOfStudy,
  replaceModelRun,
} from "@/lib/repos/models";
import { findStudyRefBySlug } from "@/lib/repos/studies";

export type { ModelPredictionRow, ModelRunSummary };
import { readModelAnswer, readModelRunFile } from "@/lib/models/run-file";

/**
 * Model runs: a model's answers to a study's items, imported from a model-output file and scored by
 * the same scorer as the annotators' answers, for the humans-against-models rows and lines of the
 * dashboard.
 *
 * The file is Yardstick's answers.jsonl, one `{"id": "<item external id>", "answer": ...}` a line
 * (answer: the model's raw text, read by the kind's parseModelAnswer, e.g. ENACT's last "[d, d,
 * ...]" list of 1-based labels, or an answer object in the kind's shape), or a benchmark's own
 * output file as its kind reads it (lib/models/run-file.ts: OpenEQA, EgoSchema, BLINK, Perception
 * Test, VSI-Bench), so a submission file Yardstick exports imports back as a run.
 *
 * An output the benchmark's parser reads no answer from is scored as that parser scores it (wrong)
 * and counted as unparsed (stored with the run, named in the message); it never refuses the run.
 * Every other problem (invalid JSON, an unknown or repeated id) refuses the whole file with errors
 * naming file, place ("line 3", "entry 12 (line 80)") and field. Re-importing a run with the same
 * name REPLACES it (in one transaction): a run is identified by its name within a study, and the
 * usual reason to import again is a fixed parser or a re-run model. Items without an answer in
 * the file are left without a prediction (the message says how many).
 */

export interface ImportModelRunInput {
  studySlug: string;
  name: string;
  answersJsonl: string;
  fileName: string;
  importedById?: string;
}

export interface ImportModelRunResult {
  runId: string;
  /** the file's format: "native" (answers.jsonl) or a benchmark's (lib/models/run-file.ts) */
  format: string;
  scored: number;
  /** outputs the benchmark's parser read no answer from, scored wrong */
  unparsed: number;
  replaced: boolean;
  message: string;
}

export interface ImportLineError {
  file: string;
  /** the line the answer starts on (a document's entry: the line its entry starts on) */
  line?: number;
  /** a document's 1-based entry (OpenEQA's list, EgoSchema's object); absent for JSON lines */
  entry?: number;
  field?: string;
  message: string;
  /** "line 3", "entry 12 (line 80)" */
  place: string;
}

export const modelRunNameSchema = z.string().trim().min(1, "a model run needs a name").max(120, "at most 120 characters");

const MAX_REPORTED_ERRORS = 100;

function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? "n/a" : `${(value * 100).toFixed(2)}%`;
}

function shownAnswer(raw: unknown): string {
  return typeof raw === "string" ? JSON.stringify(raw.length > 80 ? `${raw.slice(0, 77)}...` : raw) : JSON.stringify(raw).slice(0, 80);
}

export async function importModelRun(input: ImportModelRunInput): Promise<ImportModelRunResult> {
  const name = modelRunNameSchema.parse(input.name);
  const file = input.fileName || "answers.jsonl";
  const study = await findStudyRefBySlug(input.studySlug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${input.studySlug}"`);

  const read = readModelRunFile(input.answersJsonl);
  const errors: ImportLineError[] = read.errors.map((error) => ({ file, ...error }));
  const parsed = read.answers;
  if (parsed.length === 0 && errors.length === 0) throw new AppError("INVALID", `${file} holds no answers`);

  const items = new Map<string, { id: string; externalId: string; kind: string; public: unknown; key: unknown; tags: unknown; practice: boolean }>();
  for (const row of await findItemsToScore(
    study.id,
    parsed.map((p) => p.id),
  ))
    items.set(row.externalId, row);

  const modes = { strict: 0, recoverable: 0, unparsed: 0 };
  const predictions: Array<{
    itemId: string;
    answer: Prisma.InputJsonValue;
    score: Prisma.InputJsonValue;
    correct: boolean | null;
    kind: string;
    rawScore: unknown;
    practice: boolean;
  }> = [];
  for (const p of parsed) {
    const at = { file, place: p.place, line: p.line, ...(p.entry !== undefined ? { entry: p.entry } : {}) };
    const item = items.get(p.id);
    if (!item) {
      errors.push({ ...at, field: "id", message: `no item "${p.id}" in study ${study.slug}` });
      continue;
    }
    if (!isTaskKind(item.kind)) {
      errors.push({ ...at, field: "id", message: `item "${p.id}" has the unknown kind "${item.kind}"` });
      continue;
    }
    const taskModule: AnyTaskModule = getTaskModule(item.kind);
    const taskItem = { id: item.externalId, kind: item.kind, public: item.public, key: item.key, tags: (item.tags ?? {}) as Record<string, string> };
    const reading = readModelAnswer(taskModule, p.answer, taskItem);
    if ("refused" in reading) {
      errors.push({
        ...at,
        field: "answer",
        message: `cannot read an answer for ${item.kind} item "${p.id}" from ${shownAnswer(p.answer)} (${reading.refused})`,
      });
      continue;
    }
    modes[reading.mode === "fail" ? "unparsed" : reading.mode]++;
    try {
      const score = taskModule.score(reading.answer, item.key, taskItem);
      predictions.push({
        itemId: item.id,
        answer: reading.answer as Prisma.InputJsonValue,
        score: score as Prisma.InputJsonValue,
        correct: taskModule.correct(score),
        kind: item.kind,
        rawScore: score,
        practice: item.practice,
      });
    } catch (error) {
      errors.push({ ...at, field: "answer", message: `could not score the answer for item "${p.id}": ${(error as Error).message}` });
    }
  }
  if (errors.length > 0) {
    const shown = errors.slice(0, 5).map((e) => `${e.file} ${e.place}${e.field ? ` (${e.field})` : ""}: ${e.message}`);
    throw new AppError(
      "INVALID",
      `${plural(errors.length, "error")} in ${file}; nothing was imported.\n${shown.join("\n")}${errors.length > 5 ? `\n... and ${errors.length - 5} more` : ""}`,
      { errors: errors.slice(0, MAX_REPORTED_ERRORS), total: errors.length },
    );
  }

  const { runId, replacedCount } = await replaceModelRun(study.id, name, input.importedById ?? null, predictions, modes.unparsed);
  await recordAudit(input.importedById ?? null, "model-run.import", `study:${study.id}`, {
    runId,
    name,
    file,
    format: read.format,
    predictions: predictions.length,
    unparsed: modes.unparsed,
    replaced: replacedCount !== null,
  });

  // per-kind headline metrics for the message
  const byKind = new Map<string, unknown[]>();
  for (const p of predictions) {
    const list = byKind.get(p.kind) ?? [];
    list.push(p.rawScore);
    byKind.set(p.kind, list);
  }
  const summaries = [...byKind.entries()].sort().map(([kind, scores]) => {
    const taskModule = getTaskModule(kind);
    const aggregate = taskModule.aggregate(scores);
    return `${kind}: ${taskModule.metrics.map((m) => `${m.id} ${m.scale === "points" ? String(aggregate[m.id] ?? "n/a") : percent(aggregate[m.id])}`).join(", ")} (n=${scores.length})`;
  });
  const total = await countNonPracticeItems(study.id);
  const missing = Math.max(0, total - predictions.filter((p) => !p.practice).length);
  const message = [
    `Imported model run "${name}" into ${study.slug} from ${file}: ${plural(predictions.length, "prediction")} scored.`,
    ...summaries.map((s) => `  ${s}`),
    `Parsing: ${modes.strict} strict, ${modes.recoverable} recovered from surrounding text${modes.unparsed > 0 ? `, ${modes.unparsed} unparsed (scored as the benchmark's parser scores them: wrong)` : ""}.`,
    replacedCount !== null ? `Replaced the previous run of that name (${plural(replacedCount, "prediction")}).` : null,
    missing > 0 ? `${plural(missing, "item")} of the study ${missing === 1 ? "has" : "have"} no prediction in this run.` : null,
  ]
    .filter(Boolean)
    .join("\n");
  return { runId, format: read.format, scored: predictions.length, unparsed: modes.unparsed, replaced: replacedCount !== null, message };
}

export async function listModelRuns(studyId: string): Promise<ModelRunSummary[]> {
  const runs = await listRunsOfStudy(studyId);
  return runs.map((run) => ({
    id: run.id,
    name: run.name,
    createdAt: run.createdAt,
    predictions: run._count.predictions,
    unparsed: run.unparsed,
    importedBy: run.createdBy?.name ?? null,
  }));
}

export async function deleteModelRun(studyId: string, runId: string, actorId: string): Promise<void> {
  const run = await findRunOfStudy(studyId, runId);
  if (!run) throw new AppError("NOT_FOUND", `No model run ${runId} in this study`);
  await deleteRun(run.id);
  await recordAudit(actorId, "model-run.delete", `study:${studyId}`, { runId, name: run.name });
}

/** Predictions of every run of a study on non-practice items: run id, item id, answer, score (one query, needed columns only). */
export async function loadModelPredictions(studyId: string): Promise<ModelPredictionRow[]> {
  return listPredictionsOfStudy(studyId);
}
