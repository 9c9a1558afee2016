/**
 * Shapes shared by the batch import pipeline (lib/import), the CLI and the admin upload handler.
 */

/** One problem found in a batch: which file, which line (1-based) and which field, and what is wrong. */
export interface ImportIssue {
  /** path of the file inside the batch ("items.jsonl", "QA/enact.jsonl"), or the zip's name */
  file: string;
  /** the line the problem is on; for a file that is one JSON value, the line its entry starts on */
  line?: number;
  /** a file that is one JSON value (OpenEQA's list, EgoSchema's questions): the 1-based entry of the problem */
  entry?: number;
  /** dotted path inside the line, arrays in brackets: "public.candidates[2]" */
  field?: string;
  message: string;
}

/** What `AppError("INVALID")` from an import carries in `details`. */
export interface ImportErrorDetails {
  errors: ImportIssue[];
  /** true when more errors exist than were collected (the cap) */
  truncated: boolean;
}

/** "items.jsonl line 7, field public.candidates[2]: image "img/c9.png" not found in the batch"; a JSON file's "questions.json entry 3 (line 12), field ..." */
export function formatIssue(issue: ImportIssue): string {
  let where = issue.file;
  if (issue.entry !== undefined) where += ` entry ${issue.entry}${issue.line !== undefined ? ` (line ${issue.line})` : ""}`;
  else if (issue.line !== undefined) where += ` line ${issue.line}`;
  if (issue.field !== undefined && issue.field !== "") where += `${issue.line !== undefined || issue.entry !== undefined ? "," : ""} field ${issue.field}`;
  return `${where}: ${issue.message}`;
}

/** A native line of items.jsonl, as written by people and by converters (ENACT's release). */
export interface ItemLine {
  id: string;
  kind: string;
  public: unknown;
  key: unknown;
  tags?: Record<string, string | number | boolean>;
  practice?: boolean;
  gold?: boolean;
}

/** "native", or the id of a release line or folder format (lib/tasks releaseLineFormat, releaseFolderFormat) */
export type ItemsFileFormat = "native" | (string & {});

export interface ItemsFile {
  /** path relative to the batch root, "/"-separated */
  path: string;
  format: ItemsFileFormat;
  /** explore-layout only: the same-named image ("0001.jpg") of the annotation JSON in `path` */
  image?: string;
  /** explore-layout only: the actions file beside it ("0001.actions.txt"), when there is one */
  actionsFile?: string;
  /** esi-release only: the batch's files in the question file's folder and below (where its images are looked for) */
  files?: string[];
}

/**
 * A batch opened for reading: a folder, a zip, or a single .jsonl file with its folder. Paths are
 * relative to the batch root, the folder image references are relative to.
 */
export interface BatchSource {
  origin: "folder" | "zip" | "file";
  /** stored as Batch.fileName: the folder's name, the zip's file name or the .jsonl's file name */
  name: string;
  /** where it came from, for messages (an absolute path, or the zip's file name) */
  location: string;
  /** the items files, sorted by path: items.jsonl, or ENACT release .jsonl files */
  itemsFiles: ItemsFile[];
  /**
   * The bytes of a file in the batch. Throws BatchFileError: "missing" (NOT_FOUND),
   * "too-large" (TOO_LARGE, over `maxBytes`), "unsafe-path", "outside" (a symlink leaving the
   * folder), "not-a-file" (INVALID).
   */
  readFile(relPath: string, options?: { maxBytes?: number }): Promise<Buffer>;
  /**
   * The same bytes as readFile, as a stream of chunks (items files: never held whole). Throws the
   * same errors, when iterated; a zip entry's CRC is checked after its last chunk.
   */
  streamFile(relPath: string, options?: { maxBytes?: number }): AsyncIterable<Buffer>;
}

/** Where an import is: checking lines, checking images, writing images and items (`total` 0 while unknown). */
export interface ImportProgress {
  phase: "checking lines" | "checking images" | "uploading" | "writing";
  done: number;
  total: number;
}

export type ImportProgressListener = (progress: ImportProgress) => void | Promise<void>;

export interface ImportResult {
  status: "imported" | "unchanged";
  batchId: string;
  /** items in the batch's files */
  itemCount: number;
  /** items created by this import (0 when unchanged) */
  newItems: number;
  /** items whose id already existed in the study with the same content ("already present") */
  skippedExisting: number;
  /** images newly stored as assets (images already stored by hash are linked, not stored again) */
  assetsStored: number;
  /** imported with skipInvalid: the entries skipped, each with its problem (absent otherwise) */
  skipped?: ImportIssue[];
  message: string;
}
