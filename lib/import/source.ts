import { promises as fs, constants as fsConstants } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import JSZip from "jszip";
import { AppError, type AppErrorCode } from "@/lib/errors";
import { detectReleaseLineFormat, findReleaseFolderFiles, singleFileFolderFormat } from "@/lib/tasks";
import { LineTooLongError, readLines } from "@/lib/import/lines";
import { checkBatchPath, checkZipEntryName } from "@/lib/import/paths";
import { formatIssue, type BatchSource, type ImportErrorDetails, type ImportIssue, type ItemsFile } from "@/lib/import/types";
import { readZipEntryNames, type RawZipEntry } from "@/lib/import/zip-names";

/** Largest items file read (a full ENACT release is about 30 MB). */
export const DEFAULT_MAX_ITEMS_FILE_BYTES = 256 * 1024 * 1024;

export const NATIVE_ITEMS_FILE = "items.jsonl";

/**
 * Bytes inflated from one zip in all (every read counts: an image is read to check it and again to
 * store it). A batch's images barely compress, so a real batch inflates to about twice the zip;
 * a zip bomb stops here.
 */
export const DEFAULT_MAX_INFLATED_BYTES = 2 * 1024 * 1024 * 1024;
/** No real batch file compresses this well (images about 1:1, JSON lines about 5-30:1); zeros reach about 1000:1. */
export const MAX_COMPRESSION_RATIO = 200;
/** ... but a small file may (a few KB of repeated text): the ratio is checked past this size */
const RATIO_CHECKED_FROM_BYTES = 1024 * 1024;

export type BatchInput = { folder: string } | { file: string } | { zip: Buffer; fileName: string };

export type BatchFileProblem = "missing" | "too-large" | "unsafe-path" | "outside" | "not-a-file" | "corrupt" | "zip-bomb";

const codeByProblem: Record<BatchFileProblem, AppErrorCode> = {
  missing: "NOT_FOUND",
  "too-large": "TOO_LARGE",
  "unsafe-path": "INVALID",
  outside: "INVALID",
  "not-a-file": "INVALID",
  corrupt: "INVALID",
  "zip-bomb": "INVALID",
};

/** A file of a batch that cannot be read; `predicate` completes a sentence about the path: `"img/a.png" <predicate>`. */
export class BatchFileError extends AppError {
  constructor(
    readonly problem: BatchFileProblem,
    readonly relPath: string,
    readonly predicate: string,
  ) {
    super(codeByProblem[problem], `${JSON.stringify(relPath)} ${predicate}`);
    this.name = "BatchFileError";
  }
}

/** 10485760 -> "10 MiB", 1536 -> "1.5 KiB" */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : Number(value.toFixed(1))} ${units[unit]}`;
}

function tooLarge(relPath: string, maxBytes: number, size?: number): BatchFileError {
  let actual = size === undefined ? "is" : `is ${formatBytes(size)},`;
  let limit = formatBytes(maxBytes);
  if (size !== undefined && formatBytes(size) === limit) {
    // rounding hides the difference: give bytes
    actual = `is ${size} bytes,`;
    limit = `${limit} (${maxBytes} bytes)`;
  }
  return new BatchFileError("too-large", relPath, `${actual} over the ${limit} limit`);
}

/** Throws one AppError("INVALID") listing every issue (the same shape as importBatch's). */
export function throwInvalid(summary: string, errors: ImportIssue[], truncated = false): never {
  const details: ImportErrorDetails = { errors, truncated };
  const listed = errors.map((issue) => `  ${formatIssue(issue)}`).join("\n");
  throw new AppError("INVALID", `${summary}\n${listed}${truncated ? "\n  ... (checking stopped at this many errors)" : ""}`, details);
}

/** Longest first line read to tell a release file's format (a longer one is in no release format) */
const FIRST_LINE_MAX_BYTES = 4 * 1024 * 1024;

function parsedOrNull(line: string | null): unknown {
  if (line === null) return null;
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

/**
 * The converted format of a non-native items file from its first non-empty line (an ENACT release
 * line, or a GridWM-Judge exam line: `exam_id`, no `kind`), or null when it is in neither.
 */
function releaseFormat(firstLine: string | null): string | null {
  return detectReleaseLineFormat(parsedOrNull(firstLine))?.id ?? null;
}

/**
 * The items files among a batch's files: items.jsonl at the root, or else every .jsonl at the
 * root or in QA/ whose first line is an ENACT release line (the release keeps its QA file in QA/
 * and its image paths start with "QA/", relative to the folder containing QA/) or a GridWM-Judge
 * exam line (task_a/b/c_exam.jsonl beside images/, the paths they use); else the files of the first folder
 * release format found (lib/tasks findReleaseFolderFiles: e.g. one per image + annotation JSON pair).
 */
async function findItemsFiles(
  files: string[],
  read: (relPath: string) => Promise<Buffer>,
  stream: (relPath: string) => AsyncIterable<Buffer>,
  describe: string,
): Promise<ItemsFile[]> {
  if (files.includes(NATIVE_ITEMS_FILE)) return [{ path: NATIVE_ITEMS_FILE, format: "native" }];
  const candidates = files
    .filter((file) => file.toLowerCase().endsWith(".jsonl"))
    .filter((file) => !file.includes("/") || /^QA\/[^/]+$/.test(file))
    .sort();
  const found: ItemsFile[] = [];
  for (const candidate of candidates) {
    const format = releaseFormat(await firstLineOf(stream(candidate)));
    if (format !== null) found.push({ path: candidate, format });
  }
  if (found.length > 0) return found;
  const folderFormatFiles = await findReleaseFolderFiles(files, read);
  if (folderFormatFiles.length > 0) return folderFormatFiles;
  const seen = candidates.length > 0 ? ` (found ${candidates.join(", ")}, but not in ENACT's release format)` : "";
  throwInvalid(`No items in ${describe}`, [{ file: describe, message: `no ${NATIVE_ITEMS_FILE} at the top level and no ENACT release .jsonl${seen}` }]);
}

// ---------------------------------------------------------------------------------------------
// Folders (and single .jsonl files, read through their folder)

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Opens a file of a folder batch after the path checks (safe, inside the folder, a regular file, within `maxBytes`). */
async function openInFolder(realRoot: string, relPath: string, maxBytes: number | undefined) {
  const checked = checkBatchPath(relPath);
  if (!checked.ok) throw new BatchFileError("unsafe-path", relPath, checked.reason);
  let real: string;
  try {
    real = await fs.realpath(path.join(realRoot, ...checked.path.split("/")));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new BatchFileError("missing", relPath, "not found in the batch");
    if (code === "ELOOP") throw new BatchFileError("not-a-file", relPath, "is a symbolic link loop");
    throw error;
  }
  if (!isInside(realRoot, real)) {
    throw new BatchFileError("outside", relPath, "is a symbolic link to a file outside the batch folder");
  }
  const handle = await fs.open(real, fsConstants.O_RDONLY);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      throw new BatchFileError("not-a-file", relPath, stat.isDirectory() ? "is a folder, not a file" : "is not a regular file");
    }
    if (maxBytes !== undefined && stat.size > maxBytes) throw tooLarge(relPath, maxBytes, stat.size);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Chunks of a stream, failing once more than `maxBytes` came (a file that grows while read). */
async function* capped(chunks: AsyncIterable<Buffer>, relPath: string, maxBytes: number | undefined): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (maxBytes !== undefined && size > maxBytes) throw tooLarge(relPath, maxBytes, size);
    yield chunk;
  }
}

/** Chunk size of streamed reads (items files) */
const STREAM_CHUNK_BYTES = 64 * 1024;

function folderReader(realRoot: string) {
  return {
    async readFile(relPath: string, options: { maxBytes?: number } = {}): Promise<Buffer> {
      const handle = await openInFolder(realRoot, relPath, options.maxBytes);
      try {
        const bytes = await handle.readFile();
        if (options.maxBytes !== undefined && bytes.length > options.maxBytes) throw tooLarge(relPath, options.maxBytes, bytes.length);
        return bytes;
      } finally {
        await handle.close();
      }
    },
    async *streamFile(relPath: string, options: { maxBytes?: number } = {}): AsyncGenerator<Buffer> {
      const handle = await openInFolder(realRoot, relPath, options.maxBytes);
      // the stream closes the handle when it ends or is destroyed (a consumer stopping early)
      const stream = handle.createReadStream({ highWaterMark: STREAM_CHUNK_BYTES });
      try {
        yield* capped(stream as AsyncIterable<Buffer>, relPath, options.maxBytes);
      } finally {
        stream.destroy();
      }
    },
  };
}

/** The first non-empty line of a file, read as a stream (null when none in the first 4 MiB). */
async function firstLineOf(chunks: AsyncIterable<Buffer>): Promise<string | null> {
  try {
    for await (const line of readLines(chunks, { maxLineBytes: FIRST_LINE_MAX_BYTES })) {
      if (line.text === null) return null;
      if (line.text.trim() !== "") return line.text;
    }
  } catch (error) {
    if (error instanceof LineTooLongError) return null;
    throw error;
  }
  return null;
}

/** Folders below the top level that are listed too (ESI-Bench's release nests its question files). */
const MAX_LIST_DEPTH = 8;
const MAX_LISTED_FILES = 500_000;

async function listFolder(realRoot: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
    // an unreadable subfolder is left out (the top level must be readable)
    const entries = depth === 0 ? await fs.readdir(dir, { withFileTypes: true }) : await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length >= MAX_LISTED_FILES) return;
      if (entry.isFile() || entry.isSymbolicLink()) files.push(`${prefix}${entry.name}`);
      else if (entry.isDirectory() && depth < MAX_LIST_DEPTH && !entry.name.startsWith(".") && entry.name !== "__MACOSX" && entry.name !== "node_modules") {
        await walk(path.join(dir, entry.name), `${prefix}${entry.name}/`, depth + 1);
      }
    }
  };
  await walk(realRoot, "", 0);
  return files;
}

async function statOrNull(target: string) {
  return fs.stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
    throw error;
  });
}

async function openFolder(folder: string, maxItemsFileBytes: number): Promise<BatchSource> {
  const location = path.resolve(folder);
  const stat = await statOrNull(location);
  if (!stat) throw new AppError("NOT_FOUND", `batch folder ${JSON.stringify(location)} not found`);
  if (!stat.isDirectory()) throw new AppError("INVALID", `${JSON.stringify(location)} is not a folder`);
  const realRoot = await fs.realpath(location);
  const { readFile, streamFile } = folderReader(realRoot);
  const name = path.basename(location);
  const itemsFiles = await findItemsFiles(
    await listFolder(realRoot),
    (relPath) => readFile(relPath, { maxBytes: maxItemsFileBytes }),
    (relPath) => streamFile(relPath, { maxBytes: maxItemsFileBytes }),
    name,
  );
  return { origin: "folder", name, location, itemsFiles, readFile, streamFile };
}

async function openFile(file: string, maxItemsFileBytes: number): Promise<BatchSource> {
  const location = path.resolve(file);
  const stat = await statOrNull(location);
  if (!stat) throw new AppError("NOT_FOUND", `items file ${JSON.stringify(location)} not found`);
  if (!stat.isFile()) throw new AppError("INVALID", `${JSON.stringify(location)} is not a file`);
  if (stat.size > maxItemsFileBytes) {
    throw new AppError("TOO_LARGE", `${JSON.stringify(location)} is ${formatBytes(stat.size)}, over the ${formatBytes(maxItemsFileBytes)} limit`);
  }
  const real = await fs.realpath(location);
  const folder = path.dirname(real);
  const folderFormat = /\.json$/i.test(real) ? singleFileFolderFormat(await fs.readFile(real)) : null;
  if (folderFormat) {
    // one file of a folder release format (e.g. an ESI-Bench question file): its folder is the root, its images are beside it
    const name = path.basename(real);
    return {
      origin: "file",
      name: path.basename(location),
      location,
      itemsFiles: [{ path: name, format: folderFormat.id, files: await listFolder(folder) }],
      ...folderReader(folder),
    };
  }
  const firstLine = await firstLineOf(folderReader(folder).streamFile(path.basename(real), { maxBytes: maxItemsFileBytes }));
  const format = releaseFormat(firstLine) ?? "native";
  // ENACT's image paths start with "QA/": they are relative to the folder that contains QA/
  const root = format === "enact-release" && path.basename(folder) === "QA" ? path.dirname(folder) : folder;
  const relPath = path.relative(root, real).split(path.sep).join("/");
  return {
    origin: "file",
    name: path.basename(location),
    location,
    itemsFiles: [{ path: relPath, format }],
    ...folderReader(root),
  };
}

// ---------------------------------------------------------------------------------------------
// Zips

function isUnixSymlink(file: JSZip.JSZipObject): boolean {
  return typeof file.unixPermissions === "number" && (file.unixPermissions & 0o170000) === 0o120000;
}

/** What a zip entry's reads are held to: its declared CRC and compressed size, and the zip's budget of inflated bytes. */
interface EntryBounds {
  zipName: string;
  crc32: number | null;
  compressedSize: number | null;
  budget: { used: number; max: number };
}

function budgetExceeded(bounds: EntryBounds): AppError {
  return new AppError(
    "TOO_LARGE",
    `${bounds.zipName} inflates to more than ${formatBytes(bounds.budget.max)} in all (a zip bomb, or a batch to import in parts): nothing was imported`,
  );
}

/**
 * The inflated chunks of a zip entry, streamed so that a zip bomb stops at a limit (this file's,
 * the compression ratio, the zip's total) instead of filling memory, and checked against the
 * entry's CRC as it goes (the zip is loaded without JSZip's CRC check, which inflates every entry,
 * referenced or not). A damaged entry throws after its last chunk.
 */
async function* entryChunks(file: JSZip.JSZipObject, relPath: string, maxBytes: number | undefined, bounds: EntryBounds): AsyncGenerator<Buffer> {
  const inflating = file.nodeStream("nodebuffer") as NodeJS.ReadableStream & { destroy?: () => void };
  // JSZip's stream predates async iteration: a node Readable wraps it (with backpressure)
  const stream = new Readable({ highWaterMark: 64 * 1024 }).wrap(inflating);
  let size = 0;
  let crc = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      bounds.budget.used += chunk.length;
      if (maxBytes !== undefined && size > maxBytes) throw tooLarge(relPath, maxBytes);
      if (bounds.budget.used > bounds.budget.max) throw budgetExceeded(bounds);
      if (bounds.compressedSize !== null && size > RATIO_CHECKED_FROM_BYTES && size > bounds.compressedSize * MAX_COMPRESSION_RATIO) {
        throw new BatchFileError(
          "zip-bomb",
          relPath,
          `is compressed more than ${MAX_COMPRESSION_RATIO}:1 in ${bounds.zipName} (${formatBytes(bounds.compressedSize)} inflating past ${formatBytes(size)}): no real batch file is; a zip bomb?`,
        );
      }
      crc = crc32(chunk, crc);
      yield chunk;
    }
  } finally {
    stream.destroy();
    inflating.destroy?.();
  }
  if (bounds.crc32 !== null && crc >>> 0 !== bounds.crc32 >>> 0) {
    throw new BatchFileError("corrupt", relPath, `is damaged in ${bounds.zipName}: its content does not match its CRC-32`);
  }
}

async function readEntry(file: JSZip.JSZipObject, relPath: string, maxBytes: number | undefined, bounds: EntryBounds): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of entryChunks(file, relPath, maxBytes, bounds)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Entries that macOS and Windows add to archives and that are never part of a batch. */
function isSystemEntry(name: string): boolean {
  return name.startsWith("__MACOSX/") || name.split("/").pop() === ".DS_Store";
}

/** Entries whose compressed data overlap (a zip bomb reusing one stream for many names): each pair once. */
function overlappingEntries(entries: RawZipEntry[]): Array<[RawZipEntry, RawZipEntry]> {
  const files = entries.filter((entry) => !entry.name.endsWith("/")).sort((a, b) => a.localOffset - b.localOffset);
  const pairs: Array<[RawZipEntry, RawZipEntry]> = [];
  let furthest: RawZipEntry | null = null;
  for (const entry of files) {
    if (furthest && entry.localOffset < furthest.dataEnd) pairs.push([furthest, entry]);
    if (!furthest || entry.dataEnd > furthest.dataEnd) furthest = entry;
  }
  return pairs;
}

/** The CRC and compressed size JSZip read for an entry (from its headers; used when the central directory could not be read by hand, e.g. ZIP64). */
function jszipDeclared(file: JSZip.JSZipObject): { crc32: number | null; compressedSize: number | null } {
  const data = (file as unknown as { _data?: { crc32?: unknown; compressedSize?: unknown } })._data;
  return {
    crc32: typeof data?.crc32 === "number" ? data.crc32 : null,
    compressedSize: typeof data?.compressedSize === "number" ? data.compressedSize : null,
  };
}

async function openZip(zip: Buffer, fileName: string, maxItemsFileBytes: number, maxInflatedBytes: number): Promise<BatchSource> {
  let archive: JSZip;
  try {
    // no CRC check here: it would inflate every entry, referenced or not (readEntry checks each entry it reads)
    archive = await JSZip.loadAsync(zip, { checkCRC32: false });
  } catch (error) {
    throwInvalid(`Cannot read ${fileName}`, [
      { file: fileName, message: `not a readable zip archive (${error instanceof Error ? error.message : String(error)})` },
    ]);
  }

  // Every raw name, from the central directory and from JSZip (which may take a name from a
  // Unicode-path extra field): any unsafe one rejects the archive.
  const issues: ImportIssue[] = [];
  const reported = new Set<string>();
  const report = (rawName: string, message: string) => {
    const text = `entry ${JSON.stringify(rawName)} ${message}`;
    if (reported.has(text)) return;
    reported.add(text);
    issues.push({ file: fileName, message: text });
  };
  const rawEntries = readZipEntryNames(zip) ?? [];
  const jszipFiles = Object.values(archive.files);
  const rawNames = [
    ...rawEntries.map((entry) => ({ name: entry.name, symlink: entry.symlink })),
    ...jszipFiles.map((file) => ({ name: file.unsafeOriginalName ?? file.name, symlink: isUnixSymlink(file) })),
  ];
  const seenFiles = new Set<string>();
  for (const entry of rawNames) {
    const checked = checkZipEntryName(entry.name);
    if (!checked.ok) report(entry.name, checked.reason);
    else if (entry.symlink) report(entry.name, "is a symbolic link; a zip batch must hold plain files");
  }
  for (const entry of rawEntries) {
    if (entry.name.endsWith("/")) continue;
    const checked = checkZipEntryName(entry.name);
    if (!checked.ok) continue;
    if (seenFiles.has(checked.path)) report(entry.name, "appears more than once in the archive");
    seenFiles.add(checked.path);
  }
  for (const [first, second] of overlappingEntries(rawEntries)) {
    report(second.name, `shares its compressed data with entry ${JSON.stringify(first.name)} (overlapping entries: a zip bomb)`);
  }
  if (issues.length > 0) throwInvalid(`Unsafe zip ${fileName}: nothing was imported`, issues);

  const files = new Map<string, JSZip.JSZipObject>();
  for (const file of jszipFiles) {
    if (!file.dir) files.set(file.name, file);
  }
  const rawByName = new Map(rawEntries.map((entry) => [entry.name, entry]));
  const budget = { used: 0, max: maxInflatedBytes };
  const boundsOf = (file: JSZip.JSZipObject): EntryBounds => {
    const raw = rawByName.get(file.unsafeOriginalName ?? file.name);
    // 0xffffffff: the size is in a ZIP64 extra field; JSZip read it
    const declared = raw && raw.compressedSize !== 0xffffffff ? { crc32: raw.crc32, compressedSize: raw.compressedSize } : jszipDeclared(file);
    return { zipName: fileName, ...declared, budget };
  };
  const entryOf = (prefix: string, relPath: string): JSZip.JSZipObject => {
    const checked = checkBatchPath(relPath);
    if (!checked.ok) throw new BatchFileError("unsafe-path", relPath, checked.reason);
    const file = files.get(prefix + checked.path);
    if (!file) {
      const isFolder = [...files.keys()].some((name) => name.startsWith(`${prefix}${checked.path}/`));
      if (isFolder) throw new BatchFileError("not-a-file", relPath, "is a folder, not a file");
      throw new BatchFileError("missing", relPath, "not found in the batch");
    }
    return file;
  };

  // A zip of a folder often holds the folder itself ("batch/items.jsonl"): then that folder is the root.
  const names = [...files.keys()].filter((name) => !isSystemEntry(name));
  let prefix = "";
  const hasItemsAtRoot = names.some((name) => name === NATIVE_ITEMS_FILE || /^(QA\/)?[^/]+\.jsonl$/i.test(name));
  const tops = new Set(names.map((name) => (name.includes("/") ? name.slice(0, name.indexOf("/") + 1) : "")));
  if (!hasItemsAtRoot && tops.size === 1 && !tops.has("")) prefix = [...tops][0];

  // set below for a zip of ENACT's QA/ folder's contents: the batch's paths are then under it
  let virtualDir = "";
  const inZip = (relPath: string): string => {
    if (virtualDir === "") return relPath;
    if (!relPath.startsWith(virtualDir)) throw new BatchFileError("missing", relPath, "not found in the batch");
    return relPath.slice(virtualDir.length);
  };
  const readFile = async (relPath: string, options: { maxBytes?: number } = {}): Promise<Buffer> => {
    const file = entryOf(prefix, inZip(relPath));
    return readEntry(file, relPath, options.maxBytes, boundsOf(file));
  };
  const streamFile = async function* (relPath: string, options: { maxBytes?: number } = {}): AsyncGenerator<Buffer> {
    const file = entryOf(prefix, inZip(relPath));
    yield* entryChunks(file, relPath, options.maxBytes, boundsOf(file));
  };
  const relative = names.filter((name) => name.startsWith(prefix)).map((name) => name.slice(prefix.length));
  let itemsFiles = await findItemsFiles(
    relative,
    (relPath) => readFile(relPath, { maxBytes: maxItemsFileBytes }),
    (relPath) => streamFile(relPath, { maxBytes: maxItemsFileBytes }),
    fileName,
  );
  // ENACT's image paths start with "QA/" (relative to the folder holding QA/, as for a .jsonl given
  // alone): a zip made inside QA/ holds its contents at the top, so the batch reads it as QA/
  if (itemsFiles.some((file) => file.format === "enact-release") && !relative.some((name) => name.startsWith("QA/"))) {
    virtualDir = "QA/";
    itemsFiles = itemsFiles.map((file) => ({
      ...file,
      path: virtualDir + file.path,
      ...(file.files ? { files: file.files.map((other) => virtualDir + other) } : {}),
    }));
  }
  return { origin: "zip", name: fileName, location: fileName, itemsFiles, readFile, streamFile };
}

/**
 * Opens a batch: a folder, a single .jsonl file (its folder is the root; for an ENACT release file
 * inside QA/, the folder containing QA/), or a zip held in memory (the admin upload). Finds the
 * items files (items.jsonl, else ENACT release .jsonl files) and rejects unsafe zips (entries
 * named with "..", absolute paths, backslashes, NUL, symbolic links, entries sharing compressed
 * data) with every offending entry. A zip's entries are inflated only when read (only entries the
 * batch references are), each checked against its CRC, within a compression ratio
 * (MAX_COMPRESSION_RATIO) and a total of inflated bytes for the zip (`maxInflatedBytes`).
 *
 * @throws AppError INVALID (unsafe zip, no items file), NOT_FOUND (no such folder or file), TOO_LARGE
 */
export async function readBatchSource(input: BatchInput, options: { maxItemsFileBytes?: number; maxInflatedBytes?: number } = {}): Promise<BatchSource> {
  const maxItemsFileBytes = options.maxItemsFileBytes ?? DEFAULT_MAX_ITEMS_FILE_BYTES;
  if ("folder" in input) return openFolder(input.folder, maxItemsFileBytes);
  if ("file" in input) return openFile(input.file, maxItemsFileBytes);
  return openZip(input.zip, input.fileName, maxItemsFileBytes, options.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES);
}
