import { readFileSync } from "node:fs";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { FlagError, parseFlags } from "@/lib/cli/flags";
import { aggregateScoredAnswers, detectReleaseLineFormat, getTaskModule, isTaskKind, taskKinds, type TaskKind } from "@/lib/tasks";
import { formatIssues } from "@/lib/tasks/format-issues";
import { readModelAnswer, readModelRunFile } from "@/lib/models/run-file";
import type { AnyTaskModule, TaskItem } from "@/lib/tasks/types";

/**
 * `yardstick score --items <items.jsonl> --answers <answers.jsonl>`: scores answers offline with
 * the same task modules as the server (through the registry, so every registered kind works).
 * `--run <file>` instead of `--answers` scores a model run in a benchmark's own output format
 * (runScoreRunCommand).
 *
 * - items: native item lines (`{id, kind, public, key, tags, practice, gold}`) or lines of a
 *   registered release format (ENACT's release, GridWM-Judge's exams; converted first, line by line);
 * - answers: one `{"id": "...", "annotator": "...", "answer": ...}` a line (`annotator` optional:
 *   a string or a number); each answer goes through the kind's `parseModelAnswer`, so both
 *   Yardstick's own answer shapes (each kind's) and raw model outputs (ENACT:
 *   text with a `[d, d, ...]` list, 1-based labels; GridWM: as the authors parse them) are
 *   accepted. Several annotators may answer one item; one annotator (or the anonymous one) answers
 *   an item at most once. Every answered item is scored (practice and gold items too: the answers
 *   file decides what is scored); items without an answer are left out.
 *
 * Output, one JSON object: `{"items": [{"id", "annotator"?, ...the kind's score fields}],
 * "aggregate": {...}}`, one row per answer line in answers-file order, `annotator` echoed when the
 * line has one. When all scored items are of one kind, `aggregate` is that kind's aggregate (ENACT:
 * `{"TA", "PA"}`); when kinds are mixed, rows also carry `kind` and `aggregate` is keyed by kind
 * (`{"<kind>": {"TA", "PA"}, "<other kind>": {...}}`), since the kinds' metrics need not be
 * comparable. Aggregates see each answer's item tags and annotator (`aggregateScoredAnswers`), so
 * GridWM-Judge's probe-family metrics are computed per annotator (lines without one are one
 * anonymous judge).
 */

export interface ScoreFileNames {
  /** shown in errors; default "items.jsonl" */
  items?: string;
  /** shown in errors; default "answers.jsonl" */
  answers?: string;
}

export interface LoadedItem extends TaskItem {
  kind: TaskKind;
  module: AnyTaskModule;
  line: number;
  practice: boolean;
}

/** One scored answer line of an answers file. */
export interface ScoredLine {
  item: LoadedItem;
  annotator: string | number | undefined;
  answer: unknown;
  score: unknown;
  line: number;
}

const nativeLineSchema = z.object({
  id: z.string().min(1, "expected a non-empty item id"),
  kind: z.string(),
  public: z.unknown(),
  key: z.unknown(),
  tags: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  practice: z.boolean().optional(),
  gold: z.boolean().optional(),
});

const answerLineSchema = z.object({
  id: z.string().min(1, "expected a non-empty item id"),
  annotator: z.union([z.string().min(1, "expected a non-empty annotator"), z.number()], { error: "an annotator is a string or a number" }).optional(),
  answer: z.unknown().refine((answer) => answer !== undefined, "expected an answer"),
});

export function invalid(where: string, message: string): never {
  throw new AppError("INVALID", `${where}: ${message}`);
}

/** Non-blank lines with their 1-based numbers, each parsed as JSON. */
export function* jsonLines(text: string, file: string): Generator<{ line: number; value: unknown }> {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    const where = `${file} line ${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(lines[i]);
    } catch (error) {
      invalid(where, `invalid JSON (${(error as Error).message})`);
    }
    yield { line: i + 1, value };
  }
}

export function loadItems(text: string, file: string): Map<string, LoadedItem> {
  const items = new Map<string, LoadedItem>();
  for (const { line, value } of jsonLines(text, file)) {
    const where = `${file} line ${line}`;
    const raw = detectReleaseLineFormat(value)?.convert(value, { file, line }) ?? value;
    const parsed = nativeLineSchema.safeParse(raw);
    if (!parsed.success) throw new AppError("INVALID", formatIssues(parsed.error, `${where}: `));
    const { id, kind } = parsed.data;
    if (!isTaskKind(kind)) invalid(where, `unknown task kind ${JSON.stringify(kind)}; known kinds: ${taskKinds.join(", ")}`);
    const taskModule = getTaskModule(kind);
    const itemSchema = taskModule.itemSchema ?? z.object({ public: taskModule.publicSchema, key: taskModule.keySchema });
    const checked = itemSchema.safeParse({ public: parsed.data.public, key: parsed.data.key });
    if (!checked.success) throw new AppError("INVALID", formatIssues(checked.error, `${where}: item ${JSON.stringify(id)}: `));
    const previous = items.get(id);
    if (previous) invalid(where, `duplicate item id ${JSON.stringify(id)} (first on line ${previous.line})`);
    items.set(id, {
      id,
      kind,
      module: taskModule,
      line,
      public: checked.data.public,
      key: checked.data.key,
      tags: parsed.data.tags ?? {},
      practice: parsed.data.practice ?? false,
    });
  }
  if (items.size === 0) throw new AppError("INVALID", `${file}: no items`);
  return items;
}

/**
 * Scores the answers in `answersJsonl` against the items in `itemsJsonl` and returns the JSON
 * text to print. Throws AppError("INVALID") naming the file and line of the first problem, e.g.
 * `answers.jsonl line 3: unknown item id "x"`.
 */
export function runScoreCommand(itemsJsonl: string, answersJsonl: string, names: ScoreFileNames = {}): string {
  const itemsFile = names.items ?? "items.jsonl";
  const answersFile = names.answers ?? "answers.jsonl";
  const items = loadItems(itemsJsonl, itemsFile);
  return scoredJson(items, scoreAnswerLines(items, answersJsonl, answersFile));
}

/**
 * `--run`: scores a model-output file (Yardstick's answers.jsonl or a benchmark's own output file,
 * lib/models/run-file.ts) as a model run is scored on the server: an output the benchmark's parser
 * reads no answer from is scored wrong and counted in `"unparsed"` (printed only when there are
 * such), never refused. The rest of the JSON is what `--answers` prints for the same answers.
 * @throws {AppError} INVALID naming the file and place of the first problem
 */
export function runScoreRunCommand(itemsJsonl: string, runText: string, names: { items?: string; run?: string } = {}): string {
  const itemsFile = names.items ?? "items.jsonl";
  const runFile = names.run ?? "run.json";
  const items = loadItems(itemsJsonl, itemsFile);
  const read = readModelRunFile(runText);
  const first = read.errors[0];
  if (first) invalid(`${runFile} ${first.place}${first.field ? ` (${first.field})` : ""}`, first.message);
  if (read.answers.length === 0) invalid(runFile, "holds no answers");
  const scored: ScoredLine[] = [];
  let unparsed = 0;
  for (const entry of read.answers) {
    const where = `${runFile} ${entry.place}`;
    const item = items.get(entry.id);
    if (!item) invalid(where, `unknown item id ${JSON.stringify(entry.id)}`);
    const reading = readModelAnswer(item.module, entry.answer, item);
    if ("refused" in reading) invalid(where, `answer for item ${JSON.stringify(entry.id)} is not a readable ${item.kind} answer (${reading.refused})`);
    if (reading.mode === "unparsed") unparsed++;
    scored.push({ item, annotator: undefined, answer: reading.answer, score: item.module.score(reading.answer, item.key, item), line: entry.line });
  }
  return scoredJson(items, scored, unparsed > 0 ? { unparsed } : {});
}

function scoredJson(items: Map<string, LoadedItem>, scored: ScoredLine[], extra: Record<string, unknown> = {}): string {
  const kindsScored = [...new Set(scored.map(({ item }) => item.kind))];
  const kinds = kindsScored.length > 0 ? kindsScored : [...new Set([...items.values()].map((item) => item.kind))];
  const mixed = kinds.length > 1;
  const aggregateOf = (kind: TaskKind) =>
    aggregateScoredAnswers(
      getTaskModule(kind),
      scored
        .filter(({ item }) => item.kind === kind)
        .map(({ item, annotator, answer, score }) => ({
          itemId: item.id,
          tags: item.tags,
          answer,
          score,
          annotator: annotator === undefined ? null : String(annotator),
        })),
    );

  const output = {
    items: scored.map(({ item, annotator, score }) => ({
      id: item.id,
      ...(annotator !== undefined ? { annotator } : {}),
      ...(mixed ? { kind: item.kind } : {}),
      ...(item.module.scoreRow ? item.module.scoreRow(score) : (score as Record<string, unknown>)),
    })),
    aggregate: mixed ? Object.fromEntries(kinds.map((kind) => [kind, aggregateOf(kind)])) : aggregateOf(kinds[0]),
    ...extra,
  };
  return JSON.stringify(output, null, 2);
}

/**
 * The answer lines of an answers file scored against the items: one `{id, annotator?, answer}` a
 * line, read with the kind's parseModelAnswer; an annotator answers an item at most once.
 * @throws {AppError} INVALID naming the file and line of the first problem
 */
export function scoreAnswerLines(items: Map<string, LoadedItem>, answersJsonl: string, answersFile: string): ScoredLine[] {
  const scored: ScoredLine[] = [];
  const answeredOn = new Map<string, number>();
  for (const { line, value } of jsonLines(answersJsonl, answersFile)) {
    const where = `${answersFile} line ${line}`;
    const parsed = answerLineSchema.safeParse(value);
    if (!parsed.success) throw new AppError("INVALID", formatIssues(parsed.error, `${where}: `));
    const { id, annotator, answer } = parsed.data;
    const item = items.get(id);
    if (!item) invalid(where, `unknown item id ${JSON.stringify(id)}`);
    // 1 and "1" are the same annotator (the aggregate groups by the text)
    const answerKey = JSON.stringify([id, annotator === undefined ? null : String(annotator)]);
    const firstLine = answeredOn.get(answerKey);
    if (firstLine !== undefined) {
      const by = annotator === undefined ? "" : ` by annotator ${JSON.stringify(annotator)}`;
      invalid(where, `second answer for item ${JSON.stringify(id)}${by} (first on line ${firstLine})`);
    }
    answeredOn.set(answerKey, line);
    const readable = item.module.parseModelAnswer(answer, item);
    if (readable === null) invalid(where, `answer for item ${JSON.stringify(id)} is not a readable ${item.kind} answer`);
    scored.push({ item, annotator, answer: readable, score: item.module.score(readable, item.key, item), line });
  }
  return scored;
}

export function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new AppError("INVALID", `${path}: cannot read the file (${(error as Error).message})`);
  }
}

/** The file-reading wrapper: errors name the paths as given. */
export function scoreFiles(itemsPath: string, answersPath: string): string {
  return runScoreCommand(readText(itemsPath), readText(answersPath), { items: itemsPath, answers: answersPath });
}

/** `--run`'s file-reading wrapper: errors name the paths as given. */
export function scoreRunFiles(itemsPath: string, runPath: string): string {
  return runScoreRunCommand(readText(itemsPath), readText(runPath), { items: itemsPath, run: runPath });
}

export const scoreUsage = "usage: yardstick score --items <items.jsonl> (--answers <answers.jsonl> | --run <a model-output file>)";

/** `yardstick score` arguments (after "score"): `--items <path>` and one of `--answers <path>` and `--run <path>`, or `--items=<path>`. */
export function runScoreCli(argv: readonly string[]): string {
  let options: Record<string, string>;
  try {
    options = parseFlags([...argv], ["items", "answers", "run"], scoreUsage, "strict").flags;
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    const problem =
      error.reason === "unknown"
        ? `unknown argument ${JSON.stringify(error.arg)}`
        : error.reason === "missing"
          ? `--${error.flag} needs a path`
          : `--${error.flag} is given twice`;
    throw new AppError("INVALID", `${problem}\n${scoreUsage}`);
  }
  if (!options.items || (options.answers === undefined) === (options.run === undefined)) throw new AppError("INVALID", scoreUsage);
  return options.run !== undefined ? scoreRunFiles(options.items, options.run) : scoreFiles(options.items, options.answers);
}
