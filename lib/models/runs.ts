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
import { fieldPath, findUnstorableText } from "@/lib/validations/storable-text";

/**
 * Model runs: a model's answers to a study's items, imported from answers.jsonl and scored by the
 * same scorer as the annotators' answers, for the humans-against-models rows and lines of the
 * dashboard.
 *
 * answers.jsonl holds one `{"id": "<item external id>", "answer": ...}` a line, where answer is
 * the model's raw text (the kind's parseModelAnswer reads it; ENACT: the last "[d, d, ...]" list,
 * 1-based labels) or an answer object in the kind's shape (ENACT: {"order": [...]}, 0-based).
 * Answers of another length are scored (pairwise accuracy by alignment) and never accepted.
 *
 * All or nothing: every line is checked first; any error (invalid JSON, unknown or repeated id,
 * an answer that cannot be read) rejects the whole file with errors naming file, line and field.
 * Re-importing a run with the same name REPLACES it (its predictions are deleted and the new
 * ones stored, in one transaction): a run is identified by its name within a study, and the
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
  scored: number;
  replaced: boolean;
  message: string;
}

export interface ImportLineError {
  file: string;
  line: number;
  field?: string;
  message: string;
}

export const modelRunNameSchema = z.string().trim().min(1, "a model run needs a name").max(120, "at most 120 characters");

const lineSchema = z.object({
  id: z.union([z.string().min(1, "expected a non-empty item id"), z.number()]).transform(String),
  answer: z.unknown().refine((answer) => answer !== undefined && answer !== null, "expected an answer (raw model text or an answer object)"),
});

const MAX_REPORTED_ERRORS = 100;

function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? "n/a" : `${(value * 100).toFixed(2)}%`;
}

interface ParsedLine {
  line: number;
  externalId: string;
  raw: unknown;
}

export async function importModelRun(input: ImportModelRunInput): Promise<ImportModelRunResult> {
  const name = modelRunNameSchema.parse(input.name);
  const file = input.fileName || "answers.jsonl";
  const study = await findStudyRefBySlug(input.studySlug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${input.studySlug}"`);

  const errors: ImportLineError[] = [];
  const parsed: ParsedLine[] = [];
  const firstLine = new Map<string, number>();
  const lines = input.answersJsonl.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i].trim();
    if (text === "") continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      errors.push({ file, line, message: `invalid JSON (${(error as Error).message})` });
      continue;
    }
    const unstorable = findUnstorableText(value);
    if (unstorable) {
      errors.push({ file, line, field: fieldPath(unstorable.path) || undefined, message: unstorable.reason });
      continue;
    }
    const checked = lineSchema.safeParse(value);
    if (!checked.success) {
      for (const issue of checked.error.issues) errors.push({ file, line, field: issue.path.join(".") || undefined, message: issue.message });
      continue;
    }
    const previous = firstLine.get(checked.data.id);
    if (previous !== undefined) {
      errors.push({ file, line, field: "id", message: `item "${checked.data.id}" has an answer on line ${previous} already` });
      continue;
    }
    firstLine.set(checked.data.id, line);
    parsed.push({ line, externalId: checked.data.id, raw: checked.data.answer });
  }
  if (parsed.length === 0 && errors.length === 0) throw new AppError("INVALID", `${file} holds no answers`);

  const items = new Map<string, { id: string; externalId: string; kind: string; public: unknown; key: unknown; tags: unknown; practice: boolean }>();
  for (const row of await findItemsToScore(
    study.id,
    parsed.map((p) => p.externalId),
  ))
    items.set(row.externalId, row);

  // "fail" with an answer: a kind that scores unreadable outputs as its benchmark does (numeric: 0, counted invalid)
  const modes = { strict: 0, recoverable: 0, unreadable: 0 };
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
    const item = items.get(p.externalId);
    if (!item) {
      errors.push({ file, line: p.line, field: "id", message: `no item "${p.externalId}" in study ${study.slug}` });
      continue;
    }
    if (!isTaskKind(item.kind)) {
      errors.push({ file, line: p.line, field: "id", message: `item "${p.externalId}" has the unknown kind "${item.kind}"` });
      continue;
    }
    const taskModule: AnyTaskModule = getTaskModule(item.kind);
    // the authors' parse modes where the kind reports them (strict, recoverable, fail)
    const taskItem = { id: item.externalId, kind: item.kind, public: item.public, key: item.key, tags: (item.tags ?? {}) as Record<string, string> };
    const parsed = taskModule.parseModelAnswerWithMode ? taskModule.parseModelAnswerWithMode(p.raw, taskItem) : null;
    const answer = parsed ? parsed.answer : taskModule.parseModelAnswer(p.raw, taskItem);
    if (parsed && answer !== null) modes[parsed.mode === "fail" ? "unreadable" : parsed.mode]++;
    if (answer === null) {
      const shown = typeof p.raw === "string" ? JSON.stringify(p.raw.length > 80 ? `${p.raw.slice(0, 77)}...` : p.raw) : JSON.stringify(p.raw).slice(0, 80);
      errors.push({
        file,
        line: p.line,
        field: "answer",
        message: `cannot read an answer for ${item.kind} item "${p.externalId}" from ${shown}${parsed?.reason ? ` (${parsed.reason})` : ""}`,
      });
      continue;
    }
    try {
      const score = taskModule.score(answer, item.key, taskItem);
      predictions.push({
        itemId: item.id,
        answer: answer as Prisma.InputJsonValue,
        score: score as Prisma.InputJsonValue,
        correct: taskModule.correct(score),
        kind: item.kind,
        rawScore: score,
        practice: item.practice,
      });
    } catch (error) {
      errors.push({ file, line: p.line, field: "answer", message: `could not score the answer for item "${p.externalId}": ${(error as Error).message}` });
    }
  }
  if (errors.length > 0) {
    const shown = errors.slice(0, 5).map((e) => `${e.file} line ${e.line}${e.field ? ` (${e.field})` : ""}: ${e.message}`);
    throw new AppError(
      "INVALID",
      `${plural(errors.length, "error")} in ${file}; nothing was imported.\n${shown.join("\n")}${errors.length > 5 ? `\n... and ${errors.length - 5} more` : ""}`,
      { errors: errors.slice(0, MAX_REPORTED_ERRORS), total: errors.length },
    );
  }

  const { runId, replacedCount } = await replaceModelRun(study.id, name, input.importedById ?? null, predictions);
  await recordAudit(input.importedById ?? null, "model-run.import", `study:${study.id}`, {
    runId,
    name,
    file,
    predictions: predictions.length,
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
    modes.strict + modes.recoverable + modes.unreadable > 0
      ? `Parsing: ${modes.strict} strict, ${modes.recoverable} recovered from surrounding text${modes.unreadable > 0 ? `, ${modes.unreadable} unreadable (scored as the benchmark scores them)` : ""}.`
      : null,
    replacedCount !== null ? `Replaced the previous run of that name (${plural(replacedCount, "prediction")}).` : null,
    missing > 0 ? `${plural(missing, "item")} of the study ${missing === 1 ? "has" : "have"} no prediction in this run.` : null,
  ]
    .filter(Boolean)
    .join("\n");
  return { runId, scored: predictions.length, replaced: replacedCount !== null, message };
}

export async function listModelRuns(studyId: string): Promise<ModelRunSummary[]> {
  const runs = await listRunsOfStudy(studyId);
  return runs.map((run) => ({
    id: run.id,
    name: run.name,
    createdAt: run.createdAt,
    predictions: run._count.predictions,
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
