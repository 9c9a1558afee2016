import { detectModelRunFormat, modelRunBenchmarks } from "@/lib/tasks";
import { entryPlace, jsonEntryLines, lineAt } from "@/lib/import/json-positions";
import { fieldPath, findUnstorableText } from "@/lib/validations/storable-text";
import type { AnyTaskModule, ModelAnswerParse, TaskItem } from "@/lib/tasks/types";

/**
 * A model-output file read as a model run's answers, before any item is looked at: Yardstick's
 * answers.jsonl (one `{"id", "answer"}` a line) or a benchmark's own output file, as the kinds
 * register them (lib/tasks/<kind>/run-formats.ts: OpenEQA's results list, EgoSchema's {q_uid: 0-4},
 * BLINK's {idx: "(D)"} and per-task outputs, Perception Test's per-video lists, VSI-Bench's rows
 * with their prediction). A file that is one JSON value is a document: its places are "entry N
 * (line L)", L the line the entry starts on; JSON lines are "line L". Pure: used by the server's
 * import (lib/models/runs.ts) and `yardstick score --run`.
 */

export interface RunFileAnswer {
  /** "line 3", "entry 12 (line 80)" */
  place: string;
  /** the line the answer starts on */
  line: number;
  /** 1-based entry of a document (the top-level one); absent for JSON lines */
  entry?: number;
  id: string;
  answer: unknown;
}

export interface RunFileError {
  place: string;
  line?: number;
  entry?: number;
  field?: string;
  message: string;
}

export interface RunFile {
  /** "native" or the benchmark format's id */
  format: string;
  answers: RunFileAnswer[];
  errors: RunFileError[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

function nativeLine(value: unknown): { id: string; answer: unknown } | { field: string; message: string } {
  if (!isPlainObject(value)) return { field: "(line)", message: 'expected an object {"id", "answer"}' };
  const id = value.id;
  if (!(typeof id === "string" && id !== "") && typeof id !== "number") return { field: "id", message: "expected a non-empty item id" };
  if (value.answer === undefined || value.answer === null) return { field: "answer", message: "expected an answer (raw model text or an answer object)" };
  return { id: String(id), answer: value.answer };
}

function parseWhole(text: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
}

/** Reads the file's answers; every problem is collected (none thrown), each naming its place. */
export function readModelRunFile(content: string): RunFile {
  const text = content.replace(/^\uFEFF/, "");
  const whole = parseWhole(text);
  // a one-line answers.jsonl (or VSI row) also parses whole: read it as lines
  if (whole && (Array.isArray(whole.value) || isPlainObject(whole.value)) && !nativeOrLineFormat(whole.value)) {
    const format = detectModelRunFormat("document", whole.value);
    if (!format)
      return {
        format: "unknown",
        answers: [],
        errors: [
          {
            place: "the file",
            message: `not a model-run file: expected {"id", "answer"} lines, or the model-output file of ${modelRunBenchmarks().join(", ")}`,
          },
        ],
      };
    const positions = jsonEntryLines(text, 2);
    const placeOf = (at: number[]) => ({ place: entryPlace(positions, at), line: lineAt(positions, at), entry: at[0] + 1 });
    const read = format.read(whole.value);
    const errors: RunFileError[] = read.issues.map((issue) => ({
      ...placeOf(issue.at),
      ...(issue.field ? { field: issue.field } : {}),
      message: issue.message,
    }));
    const answers: RunFileAnswer[] = [];
    const seen = new Map<string, string>();
    for (const entry of read.entries) {
      const where = placeOf(entry.at);
      const unstorable = findUnstorableText(entry.answer);
      if (unstorable) {
        errors.push({ ...where, field: fieldPath(unstorable.path) || "answer", message: unstorable.reason });
        continue;
      }
      const first = seen.get(entry.id);
      if (first !== undefined) {
        errors.push({ ...where, message: `item "${entry.id}" has an answer at ${first} already` });
        continue;
      }
      seen.set(entry.id, where.place);
      answers.push({ place: where.place, line: where.line ?? 1, entry: where.entry, id: entry.id, answer: entry.answer });
    }
    return { format: format.id, answers, errors };
  }
  return readLines(text);
}

function nativeOrLineFormat(value: unknown): boolean {
  return (isPlainObject(value) && "id" in value && "answer" in value) || detectModelRunFormat("lines", value) !== null;
}

function readLines(text: string): RunFile {
  const answers: RunFileAnswer[] = [];
  const errors: RunFileError[] = [];
  const firstLine = new Map<string, number>();
  let read: ((value: unknown) => ReturnType<typeof nativeLine>) | null = null;
  let format = "native";
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    const line = i + 1;
    const place = `line ${line}`;
    let value: unknown;
    try {
      value = JSON.parse(lines[i]);
    } catch (error) {
      errors.push({ place, line, message: `invalid JSON (${(error as Error).message})` });
      continue;
    }
    if (read === null) {
      const benchmark = detectModelRunFormat("lines", value);
      format = benchmark?.id ?? "native";
      read = benchmark ? (row) => benchmark.readLine(row) : nativeLine;
    }
    const unstorable = findUnstorableText(value);
    if (unstorable) {
      errors.push({ place, line, field: fieldPath(unstorable.path) || undefined, message: unstorable.reason });
      continue;
    }
    const result = read(value);
    if ("message" in result) {
      errors.push({ place, line, field: result.field, message: result.message });
      continue;
    }
    const previous = firstLine.get(result.id);
    if (previous !== undefined) {
      errors.push({ place, line, field: "id", message: `item "${result.id}" has an answer on line ${previous} already` });
      continue;
    }
    firstLine.set(result.id, line);
    answers.push({ place, line, id: result.id, answer: result.answer });
  }
  return { format, answers, errors };
}

/** A model's raw answer read for one item: the answer to score, and whether nothing could be read from the output. */
export type ReadModelAnswer = { answer: unknown; mode: ModelAnswerParse["mode"] | "unparsed"; reason?: string } | { answer: null; refused: string };

/**
 * The kind's reading of a raw model answer, as its benchmark's released parser reads it. An output
 * the parser reads no answer from (mode "fail", or no answer) is "unparsed": scored as the parser
 * leaves it (VSI-Bench's split(' ')[0] token, scored 0) or, where it leaves nothing, as the kind's
 * unparsedAnswer (wrong against every key). Only a kind without such a rule refuses it.
 */
export function readModelAnswer(taskModule: AnyTaskModule, raw: unknown, item: TaskItem): ReadModelAnswer {
  const parsed: ModelAnswerParse = taskModule.parseModelAnswerWithMode
    ? taskModule.parseModelAnswerWithMode(raw, item)
    : ((answer) => (answer === null ? { answer, mode: "fail" as const } : { answer, mode: "strict" as const }))(taskModule.parseModelAnswer(raw, item));
  if (parsed.mode !== "fail" && parsed.answer !== null) return { answer: parsed.answer, mode: parsed.mode };
  if (parsed.answer !== null) return { answer: parsed.answer, mode: "unparsed", ...(parsed.reason ? { reason: parsed.reason } : {}) };
  if (taskModule.unparsedAnswer) return { answer: taskModule.unparsedAnswer(item), mode: "unparsed", ...(parsed.reason ? { reason: parsed.reason } : {}) };
  return { answer: null, refused: parsed.reason ?? `not a readable ${taskModule.kind} answer` };
}
