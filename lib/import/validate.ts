import { fieldPath, findUnstorableText } from "@/lib/validations/storable-text";
import { z } from "zod";
import { assetUrl } from "@/lib/assets";
import { createHash } from "node:crypto";
import { AppError, isAppError } from "@/lib/errors";
import { canonicalJson, sha256Hex } from "@/lib/import/canonical";
import { checkBatchPath } from "@/lib/import/paths";
import { acceptedImageTypes, describeNonImage, sniffImageMime, type ImageMime } from "@/lib/import/sniff";
import { imageContentProblem } from "@/lib/import/image-check";
import { acceptedVideoTypes, describeNonVideo, maxVideoBytes, probeVideo, sniffVideoMime, type VideoMime } from "@/lib/import/video-check";
import { DEFAULT_MAX_LINE_BYTES, LineTooLongError, readLines } from "@/lib/import/lines";
import { BatchFileError, DEFAULT_MAX_ITEMS_FILE_BYTES, formatBytes } from "@/lib/import/source";
import type { BatchSource, ImportIssue, ImportProgressListener, ItemLine, ItemsFile } from "@/lib/import/types";
import { getTaskModule, releaseFolderFormat, releaseLineFormat } from "@/lib/tasks";
import type { AnyTaskModule, Json, ReleaseImportOptions } from "@/lib/tasks/types";

export const DEFAULT_MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The largest image accepted in a batch: `YARDSTICK_MAX_IMAGE_BYTES` (bytes), 10 MiB when unset. */
export function maxImageBytes(env: string | undefined = process.env.YARDSTICK_MAX_IMAGE_BYTES): number {
  if (env === undefined || env.trim() === "") return DEFAULT_MAX_IMAGE_BYTES;
  const bytes = Number(env.trim());
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new Error(`YARDSTICK_MAX_IMAGE_BYTES must be a whole number of bytes of at least 1; got ${JSON.stringify(env)}`);
  return bytes;
}
export const DEFAULT_MAX_ERRORS = 50;
/** images read at once: enough to hide disk latency, few enough to bound memory (10 MiB each) */
const IMAGE_READ_CONCURRENCY = 8;

export interface ValidateOptions {
  /** largest image accepted, in bytes (default 10 MiB) */
  maxImageBytes?: number;
  /** largest video accepted, in bytes (default: lib/import/video-check.ts maxVideoBytes) */
  maxVideoBytes?: number;
  /** errors collected before giving up (default 50) */
  maxErrors?: number;
  maxItemsFileBytes?: number;
  /** longest line of an items file (default 8 MiB) */
  maxLineBytes?: number;
  /** told how far the check is (lines, then images) */
  onProgress?: ImportProgressListener;
  /**
   * Entries that give no item (a malformed line, a bad entry of a release file) are skipped, and
   * listed in `skipped`, instead of refusing the batch; problems of items that parse (a missing
   * image, a duplicate id) still refuse it. Default: all or nothing.
   */
  skipInvalid?: boolean;
  /** the release formats import their questions without the media the batch lacks (ReleaseImportOptions) */
  textOnly?: boolean;
}

/** Lines checked between two yields to the event loop: other requests of the process are served in between. */
const LINES_PER_YIELD = 200;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type TagValue = string | number | boolean;

/** The envelope of a native line; `public` and `key` are checked by the kind's schemas. */
export const itemLineSchema = z.strictObject({
  id: z
    .string({ error: "an item id must be a string" })
    .min(1, "an item id cannot be empty")
    .max(256, "an item id has at most 256 characters")
    .refine((id) => !/[\u0000-\u001f\u007f]/.test(id), "an item id cannot contain control characters"),
  kind: z.string({ error: "kind must be a task kind name" }).min(1, "kind cannot be empty"),
  public: z.unknown(),
  key: z.unknown(),
  tags: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()], { error: "a tag value must be a string, number or boolean" })).default({}),
  practice: z.boolean().default(false),
  gold: z.boolean().default(false),
});

/** A checked image or video of the batch (videos carry what their container says). */
export interface ValidatedImage {
  /** the normalised path inside the batch */
  path: string;
  hash: string;
  mime: ImageMime | VideoMime;
  size: number;
  durationS?: number;
  width?: number;
  height?: number;
}

/** An item ready to store: image references replaced by /api/assets/<sha256> URLs. */
export interface ValidatedItem {
  externalId: string;
  kind: string;
  public: Json;
  key: Json;
  tags: Record<string, TagValue>;
  practice: boolean;
  gold: boolean;
  contentHash: string;
  file: string;
  line: number;
}

/** What is kept of a checked item between the passes (its payload is read again when written). */
export type ItemSummary = Pick<ValidatedItem, "externalId" | "kind" | "contentHash" | "file" | "line">;

export interface BatchValidation {
  /** every problem found, sorted by file and line (at most maxErrors) */
  issues: ImportIssue[];
  /** the cap was reached: checking stopped there, so more problems may exist */
  truncated: boolean;
  /** the items that passed every check (all of them when issues is empty), without their payloads */
  items: ItemSummary[];
  /**
   * The checked items with their payloads, read again from the batch (streamed: never all of them
   * in memory), in chunks of at most `chunkSize`, only those `wanted` says.
   *
   * @throws AppError CONFLICT when an items file changed since it was checked
   */
  readItems(wanted: (item: ItemSummary) => boolean, chunkSize: number): AsyncGenerator<ValidatedItem[]>;
  /** the referenced images by hash */
  assets: Map<string, ValidatedImage>;
  /** sha256 over the items files' bytes and the referenced images' hashes; null with issues */
  checksum: string | null;
  /** with skipInvalid: the entries skipped (each gave no item), with their problems; else [] */
  skipped: ImportIssue[];
  /** every problem is of an entry that gave no item, and all were found: skipInvalid would import the rest */
  skippable: boolean;
}

/** Collects issues up to a cap; `full` tells the pipeline to stop early. */
export class IssueCollector {
  readonly issues: ImportIssue[] = [];
  truncated = false;
  constructor(readonly cap: number) {}
  add(issue: ImportIssue): void {
    if (this.issues.length >= this.cap) {
      this.truncated = true;
      return;
    }
    this.issues.push(issue);
  }
  get full(): boolean {
    return this.issues.length >= this.cap;
  }
  sorted(): ImportIssue[] {
    return [...this.issues].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || (a.line ?? 0) - (b.line ?? 0));
  }
}

export { fieldPath };

interface ImageUse {
  ref: string;
  field: string | undefined;
  /** what the kind expects there: a video when it went through mapImages' replace.video */
  as: "image" | "video";
}

interface ParsedItem {
  file: string;
  line: number;
  id: string;
  kind: string;
  module: AnyTaskModule;
  public: unknown;
  key: unknown;
  tags: Record<string, TagValue>;
  practice: boolean;
  gold: boolean;
  images: ImageUse[];
}

/** What the first pass keeps of an item: where it is, its id, its image references (not its payload). */
interface ItemRef {
  file: string;
  line: number;
  id: string;
  kind: string;
  hasImages: boolean;
  /** known once its images are hashed (at once for an item without images) */
  contentHash: string | null;
}

/** The item's content hash: its content with each image reference replaced by the image's sha256. */
function contentHashOf(item: ParsedItem, imageHash: (ref: string) => string): string {
  const hashed = item.module.mapImages({ public: item.public, key: item.key }, imageHash);
  return sha256Hex(canonicalJson({ kind: item.kind, public: hashed.public, key: hashed.key, tags: item.tags, practice: item.practice, gold: item.gold }));
}

const sentinel = /^\u0000image:(\d+)\u0000$/;

/** Calls `visit` on every string in a JSON-like value with its field path. */
function walkStrings(value: unknown, path: string, visit: (text: string, path: string) => void): void {
  if (typeof value === "string") visit(value, path);
  else if (Array.isArray(value)) value.forEach((entry, i) => walkStrings(entry, `${path}[${i}]`, visit));
  else if (value !== null && typeof value === "object") {
    for (const [key, entry] of Object.entries(value)) walkStrings(entry, `${path}.${key}`, visit);
  }
}

/**
 * The image references of an item and the field each sits in. The kind's mapImages only hands
 * over the strings, so each is replaced by a numbered marker and the markers are found again in
 * the result: that gives the exact field ("public.candidates[2]").
 */
function imageUses(module: AnyTaskModule, item: { public: unknown; key: unknown }): ImageUse[] {
  const refs: string[] = [];
  const expected: Array<"image" | "video"> = [];
  const mark = (as: "image" | "video") => (ref: string) => {
    refs.push(ref);
    expected.push(as);
    return `\u0000image:${refs.length - 1}\u0000`;
  };
  const marked = module.mapImages(item, Object.assign(mark("image"), { video: mark("video") }));
  const fields: Array<string | undefined> = refs.map(() => undefined);
  const record = (text: string, path: string) => {
    const match = sentinel.exec(text);
    if (match) fields[Number(match[1])] ??= path;
  };
  walkStrings(marked.public, "public", record);
  walkStrings(marked.key, "key", record);
  return refs.map((ref, i) => {
    if (fields[i] !== undefined) return { ref, field: fields[i], as: expected[i] };
    // the kind embedded the reference in a larger value: find where the raw string is
    let found: string | undefined;
    const look = (text: string, path: string) => {
      if (text === ref) found ??= path;
    };
    walkStrings(item.public, "public", look);
    walkStrings(item.key, "key", look);
    return { ref, field: found, as: expected[i] };
  });
}

/** JSON round trip: drops undefined members so that what is stored is what is hashed. */
function plainJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value ?? null)) as Json;
}

/** The message of an error thrown by a release converter (ENACT, GridWM exams), without its "file line n: field: " prefix. */
function converterIssue(error: unknown, file: string, line: number): ImportIssue {
  if (isAppError(error)) {
    const details = (error.details ?? {}) as { field?: unknown };
    const field = typeof details.field === "string" && details.field !== "(line)" ? details.field : undefined;
    const prefix = `${file} line ${line}: ${typeof details.field === "string" ? `${details.field}: ` : ""}`;
    const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return { file, line, field, message };
  }
  return { file, line, message: error instanceof Error ? error.message : String(error) };
}

function changedWhileImported(file: string): AppError {
  return new AppError("CONFLICT", `items file ${JSON.stringify(file)} changed while the batch was being imported; nothing was imported, import it again`);
}

interface ReadContext {
  source: BatchSource;
  collector: IssueCollector;
  maxItemsFileBytes: number;
  maxLineBytes: number;
  /** first pass only: the hashes of the items files (and the companion files a folder format reads), in reading order */
  hashes?: Array<{ path: string; hash: string }>;
  /** called on every non-empty line (or item of a JSON file) */
  onLine?: () => Promise<void>;
  textOnly?: boolean;
}

/**
 * The items of one items file, parsed and schema-checked, one at a time; problems go to the
 * collector. A line-based file (native, a release line format) is streamed line by line; a file of
 * a folder release format (one JSON document, capped at maxItemsFileBytes) is read whole and
 * converted by its format (lib/tasks/<kind>/import.ts), which may read companion files beside it.
 * Returns the sha256 of the file's bytes (null when it could not be read to the end).
 */
async function* itemsOf(file: ItemsFile, context: ReadContext): AsyncGenerator<ParsedItem, string | null> {
  const { source, collector } = context;
  const folderFormat = releaseFolderFormat(file.format);
  if (folderFormat) {
    let bytes: Buffer;
    try {
      bytes = await source.readFile(file.path, { maxBytes: context.maxItemsFileBytes });
    } catch (error) {
      if (!(error instanceof BatchFileError)) throw error;
      collector.add({ file: file.path, message: `items file ${error.predicate}` });
      return null;
    }
    const hash = sha256Hex(bytes);
    context.hashes?.push({ path: file.path, hash });
    const text = decodeUtf8(bytes);
    if (text === null) {
      collector.add({ file: file.path, message: "is not valid UTF-8 text" });
      return hash;
    }
    const readText = async (relPath: string, what: string): Promise<string | null> => {
      let companion: Buffer;
      try {
        companion = await source.readFile(relPath, { maxBytes: context.maxItemsFileBytes });
      } catch (error) {
        if (!(error instanceof BatchFileError)) throw error;
        collector.add({ file: relPath, message: `${what} ${error.predicate}` });
        return null;
      }
      context.hashes?.push({ path: relPath, hash: sha256Hex(companion) });
      const decoded = decodeUtf8(companion);
      if (decoded === null) collector.add({ file: relPath, message: "is not valid UTF-8 text" });
      return decoded;
    };
    const converted = await folderFormat.convert(text, file, readText, { textOnly: context.textOnly === true });
    for (const issue of converted.issues) collector.add(issue);
    for (const { line, item: candidate } of converted.items) {
      await context.onLine?.();
      const item = checkItem(candidate, file, line, collector);
      if (item) yield item;
    }
    return hash;
  }
  const digest = createHash("sha256");
  async function* hashed(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      digest.update(chunk);
      yield chunk;
    }
  }
  try {
    for await (const { number, text } of readLines(hashed(source.streamFile(file.path, { maxBytes: context.maxItemsFileBytes })), {
      maxLineBytes: context.maxLineBytes,
    })) {
      if (text === null) {
        collector.add({ file: file.path, message: "is not valid UTF-8 text" });
        return null;
      }
      if (text.trim() === "") continue;
      await context.onLine?.();
      const item = parseLine(text, file, number, collector, { textOnly: context.textOnly === true });
      if (item) yield item;
    }
  } catch (error) {
    if (error instanceof BatchFileError) {
      collector.add({ file: file.path, message: `items file ${error.predicate}` });
      return null;
    }
    if (error instanceof LineTooLongError) {
      collector.add({ file: file.path, line: error.line, message: `is longer than the ${formatBytes(error.maxBytes)} limit for one line` });
      return null;
    }
    throw error;
  }
  const hash = digest.digest("hex");
  context.hashes?.push({ path: file.path, hash });
  return hash;
}

/** Runs a generator to its end, handing each value to `each`; returns what it returns. */
async function drain<T, R>(generator: AsyncGenerator<T, R>, each: (value: T) => boolean | void): Promise<R | undefined> {
  for (;;) {
    const next = await generator.next();
    if (next.done) return next.value;
    if (each(next.value) === false) {
      await generator.return(undefined as R);
      return undefined;
    }
  }
}

function decodeUtf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    return null;
  }
}

/** One line of an items file to a parsed, schema-checked item; issues go to `collector`. */
function parseLine(text: string, file: ItemsFile, line: number, collector: IssueCollector, options: ReleaseImportOptions): ParsedItem | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    collector.add({ file: file.path, line, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
    return null;
  }
  let candidate: unknown = json;
  const lineFormat = releaseLineFormat(file.format);
  if (lineFormat) {
    try {
      candidate = lineFormat.convert(json, { file: file.path, line }, options) satisfies ItemLine;
    } catch (error) {
      collector.add(converterIssue(error, file.path, line));
      return null;
    }
  } else if (json === null || typeof json !== "object" || Array.isArray(json)) {
    collector.add({ file: file.path, line, message: "expected a JSON object (one item per line)" });
    return null;
  }
  return checkItem(candidate, file, line, collector);
}

/** A native item line (as written, or converted from a foreign format) to a parsed, schema-checked item. */
function checkItem(candidate: unknown, file: ItemsFile, line: number, collector: IssueCollector): ParsedItem | null {
  const unstorable = findUnstorableText(candidate);
  if (unstorable) {
    collector.add({ file: file.path, line, field: fieldPath(unstorable.path) || undefined, message: unstorable.reason });
    return null;
  }
  const envelope = itemLineSchema.safeParse(candidate);
  if (!envelope.success) {
    for (const issue of envelope.error.issues) {
      collector.add({ file: file.path, line, field: fieldPath(issue.path) || undefined, message: issue.message });
    }
    return null;
  }
  const item = envelope.data;
  let taskModule: AnyTaskModule;
  try {
    taskModule = getTaskModule(item.kind);
  } catch (error) {
    collector.add({ file: file.path, line, field: "kind", message: error instanceof Error ? error.message : String(error) });
    return null;
  }

  let parsed: { public: unknown; key: unknown };
  if (taskModule.itemSchema) {
    const result = taskModule.itemSchema.safeParse({ public: item.public, key: item.key });
    if (!result.success) {
      for (const issue of result.error.issues) {
        collector.add({ file: file.path, line, field: fieldPath(issue.path) || undefined, message: issue.message });
      }
      return null;
    }
    parsed = result.data;
  } else {
    const publicResult = taskModule.publicSchema.safeParse(item.public);
    const keyResult = taskModule.keySchema.safeParse(item.key);
    for (const [prefix, result] of [
      ["public", publicResult],
      ["key", keyResult],
    ] as const) {
      if (result.success) continue;
      for (const issue of result.error.issues) {
        collector.add({ file: file.path, line, field: fieldPath([prefix, ...issue.path]), message: issue.message });
      }
    }
    if (!publicResult.success || !keyResult.success) return null;
    parsed = { public: publicResult.data, key: keyResult.data };
  }

  let images: ImageUse[];
  try {
    images = imageUses(taskModule, parsed);
  } catch (error) {
    collector.add({ file: file.path, line, message: `cannot list the item's images (${error instanceof Error ? error.message : String(error)})` });
    return null;
  }
  return {
    file: file.path,
    line,
    id: item.id,
    kind: item.kind,
    module: taskModule,
    public: parsed.public,
    key: parsed.key,
    tags: item.tags,
    practice: item.practice,
    gold: item.gold,
    images,
  };
}

/** " (also used on line 9, line 12 and 3 more)" for an image referenced by several items. */
function alsoUsed(uses: Array<{ file: string; line: number }>, count: number = uses.length): string {
  if (count <= 1) return "";
  const first = uses[0];
  const others = uses.slice(1, 4).map((use) => (use.file === first.file ? `line ${use.line}` : `${use.file} line ${use.line}`));
  const shown = others.join(", ");
  return ` (also used on ${shown}${count - 1 > 3 ? ` and ${count - 1 - 3} more` : ""})`;
}

async function mapLimited<T>(values: T[], limit: number, work: (value: T) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < values.length && !stop()) {
      const value = values[next++];
      await work(value);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, values.length) }, worker));
}

/** Where each image is used: the first few places (for messages) and how many (an image shared by 100,000 items is not listed 100,000 times). */
type ImageUses = Map<
  string,
  {
    shown: Array<{ file: string; line: number; field: string | undefined }>;
    count: number;
    asVideo: boolean;
    /** some item using it comes from a release whose questions can be answered without their media (its format's `offersTextOnly`) */
    textOnlyOffered: boolean;
  }
>;

/** One check of a batch: its source, its limits and the issues found so far. */
interface BatchCheck {
  source: BatchSource;
  options: ValidateOptions;
  collector: IssueCollector;
  /** the items files in path order */
  itemsFiles: ItemsFile[];
  maxItemsFileBytes: number;
  maxLineBytes: number;
  maxBytesPerImage: number;
  maxBytesPerVideo: number;
}

/** What the first pass learns: the items without their payloads, the items files' hashes and where each image is used. */
interface FirstPass {
  /** what is kept of each item between the passes: no payload (a 100,000-line file is read again instead) */
  parsed: ItemRef[];
  itemsFileHashes: Array<{ path: string; hash: string }>;
  uses: ImageUses;
  /** the error cap stopped the first pass: later passes stop where it did */
  stoppedEarly: boolean;
}

function startCheck(source: BatchSource, options: ValidateOptions): BatchCheck {
  return {
    maxBytesPerImage: options.maxImageBytes ?? maxImageBytes(),
    maxBytesPerVideo: options.maxVideoBytes ?? maxVideoBytes(),
    source,
    options,
    collector: new IssueCollector(options.maxErrors ?? DEFAULT_MAX_ERRORS),
    itemsFiles: [...source.itemsFiles].sort((a, b) => (a.path < b.path ? -1 : 1)),
    maxItemsFileBytes: options.maxItemsFileBytes ?? DEFAULT_MAX_ITEMS_FILE_BYTES,
    maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
  };
}

/** Whether the items of this file come from a release format whose questions can be answered without their media. */
function offersTextOnly(file: ItemsFile): boolean {
  return (releaseLineFormat(file.format) ?? releaseFolderFormat(file.format))?.offersTextOnly === true;
}

function recordImageUses(uses: ImageUses, item: ParsedItem, textOnlyOffered: boolean): void {
  for (const use of item.images) {
    const entry = uses.get(use.ref) ?? { shown: [], count: 0, asVideo: false, textOnlyOffered: false };
    entry.asVideo ||= use.as === "video";
    entry.textOnlyOffered ||= textOnlyOffered;
    if (entry.shown.length < 4) entry.shown.push({ file: item.file, line: item.line, field: use.field });
    entry.count += 1;
    uses.set(use.ref, entry);
  }
}

/** First pass: every line parsed and checked, streamed; an empty batch is an issue. */
async function readFirstPass(check: BatchCheck): Promise<FirstPass> {
  const { source, options, collector, maxItemsFileBytes, maxLineBytes } = check;
  const pass: FirstPass = { parsed: [], itemsFileHashes: [], uses: new Map(), stoppedEarly: false };
  let lineCount = 0;
  const onLine = async () => {
    lineCount += 1;
    if (lineCount % LINES_PER_YIELD === 0) {
      // a long items file must not hold the process (annotators' requests wait behind it)
      await yieldToEventLoop();
      await options.onProgress?.({ phase: "checking lines", done: lineCount, total: 0 });
    }
  };
  for (const file of check.itemsFiles) {
    if (collector.full) break;
    const textOnlyOffered = offersTextOnly(file);
    await drain(
      itemsOf(file, { source, collector, maxItemsFileBytes, maxLineBytes, hashes: pass.itemsFileHashes, onLine, textOnly: options.textOnly }),
      (item) => {
        recordImageUses(pass.uses, item, textOnlyOffered);
        pass.parsed.push({
          file: item.file,
          line: item.line,
          id: item.id,
          kind: item.kind,
          hasImages: item.images.length > 0,
          // without images the content hash is known now; with images, once they are read
          contentHash: item.images.length === 0 ? contentHashOf(item, () => "") : null,
        });
        return !collector.full;
      },
    );
  }
  pass.stoppedEarly = collector.full;
  if (lineCount === 0 && collector.issues.length === 0) {
    collector.add({ file: source.itemsFiles[0]?.path ?? source.name, message: "holds no items" });
  }
  return pass;
}

/** Each image reference's normalised path (an unsafe path is an issue), and the references of each path. */
function imagePathsOf(uses: ImageUses, collector: IssueCollector): { pathByRef: Map<string, string>; refsByPath: Map<string, string[]> } {
  const pathByRef = new Map<string, string>();
  const refsByPath = new Map<string, string[]>();
  for (const [ref, { shown, count }] of uses) {
    const checked = checkBatchPath(ref);
    if (!checked.ok) {
      const first = shown[0];
      collector.add({
        ...first,
        message: `${uses.get(ref)?.asVideo ? "video" : "image"} path ${JSON.stringify(ref)} ${checked.reason}${alsoUsed(shown, count)}`,
      });
      continue;
    }
    pathByRef.set(ref, checked.path);
    refsByPath.set(checked.path, [...(refsByPath.get(checked.path) ?? []), ref]);
  }
  return { pathByRef, refsByPath };
}

/** What a media check reports: the message, and whether the file is missing from the batch. */
type MediaFailure = (message: string, missing?: boolean) => void;

/** A media file's bytes (up to maxBytes); undefined when it cannot be read, `fail` told why ("<label> is too large<tooLarge>"). */
async function readMediaFile(
  source: BatchSource,
  filePath: string,
  label: string,
  tooLarge: string,
  maxBytes: number,
  fail: MediaFailure,
): Promise<Buffer | undefined> {
  try {
    return await source.readFile(filePath, { maxBytes });
  } catch (error) {
    if (!(error instanceof BatchFileError)) throw error;
    fail(`${label} ${error.predicate}${error.problem === "too-large" ? tooLarge : ""}`, error.problem === "missing");
    return undefined;
  }
}

/** A video of the batch read whole (up to maxBytes), sniffed and probed; `fail` is told what is wrong with it. */
async function checkVideo(source: BatchSource, imagePath: string, name: string, maxBytes: number, fail: MediaFailure): Promise<ValidatedImage | undefined> {
  const bytes = await readMediaFile(source, imagePath, `video ${name}`, " per video (YARDSTICK_MAX_VIDEO_BYTES)", maxBytes, fail);
  if (!bytes) return undefined;
  const mime = sniffVideoMime(bytes);
  if (!mime) {
    const image = sniffImageMime(bytes);
    fail(
      `video ${name} is not an ${acceptedVideoTypes} video: ${image ? `it is a ${image.slice(6).toUpperCase()} image` : (describeNonVideo(bytes) ?? describeNonImage(bytes))}`,
    );
    return undefined;
  }
  const probe = await probeVideo(bytes, mime);
  if ("problem" in probe) {
    fail(`video ${name} is not a usable ${mime === "video/mp4" ? "MP4" : "WebM"} video: ${probe.problem}`);
    return undefined;
  }
  return { path: imagePath, hash: sha256Hex(bytes), mime, size: bytes.length, ...probe.info };
}

/** An image of the batch read (up to maxBytes), sniffed and decoded; `fail` is told what is wrong with it. */
async function checkStillImage(
  source: BatchSource,
  imagePath: string,
  name: string,
  maxBytes: number,
  fail: MediaFailure,
): Promise<ValidatedImage | undefined> {
  const bytes = await readMediaFile(source, imagePath, `image ${name}`, " per image", maxBytes, fail);
  if (!bytes) return undefined;
  const mime = sniffImageMime(bytes);
  if (!mime) {
    const video = sniffVideoMime(bytes);
    fail(
      video
        ? `image ${name} is a video (${video}) where the item expects an image`
        : `image ${name} is not a ${acceptedImageTypes} image: ${describeNonImage(bytes)}`,
    );
    return undefined;
  }
  const problem = await imageContentProblem(bytes, mime);
  if (problem) {
    fail(`image ${name} is not a usable ${mime.slice(6).toUpperCase()} image: ${problem}`);
    return undefined;
  }
  return { path: imagePath, hash: sha256Hex(bytes), mime, size: bytes.length };
}

/**
 * Images: each distinct path read once (hashed, then its bytes dropped: the write re-reads them),
 * in parallel, videos one at a time; issues reported in path order so that the report is the same
 * on every run.
 */
async function checkImages(check: BatchCheck, uses: ImageUses, refsByPath: Map<string, string[]>): Promise<Map<string, ValidatedImage>> {
  const { source, options, collector, maxBytesPerImage, maxBytesPerVideo } = check;
  const imageByPath = new Map<string, ValidatedImage>();
  const imagePaths = [...refsByPath.keys()];
  const imageIssues: Array<ImportIssue | undefined> = [];
  /** the places (path indexes) of missing media that "text only" would leave out */
  const missingTextOnly: number[] = [];
  let imageIssueCount = 0;
  let imagesChecked = 0;
  await options.onProgress?.({ phase: "checking images", done: 0, total: imagePaths.length });
  let videoQueue: Promise<void> = Promise.resolve();
  const videoTurn = (work: () => Promise<void>): Promise<void> => {
    const turn = videoQueue.then(work);
    videoQueue = turn.catch(() => undefined);
    return turn;
  };
  const checkOne = async ({ imagePath, index }: { imagePath: string; index: number }) => {
    imagesChecked += 1;
    if (imagesChecked % 20 === 0) await options.onProgress?.({ phase: "checking images", done: imagesChecked, total: imagePaths.length });
    const refs = refsByPath.get(imagePath) ?? [];
    const list = refs.flatMap((ref) => uses.get(ref)?.shown ?? []);
    const count = refs.reduce((sum, ref) => sum + (uses.get(ref)?.count ?? 0), 0);
    const where = { file: list[0].file, line: list[0].line, field: list[0].field };
    const name = JSON.stringify(refs[0]);
    const fail: MediaFailure = (message, missing) => {
      imageIssues[index] = { ...where, message: `${message}${alsoUsed(list, count)}` };
      imageIssueCount += 1;
      if (missing && !options.textOnly && refs.some((ref) => uses.get(ref)?.textOnlyOffered)) missingTextOnly.push(index);
    };
    // a video where the kind uses it as one (mapMedia's replace(ref, "video")); then its bytes must be one
    if (refs.some((ref) => uses.get(ref)?.asVideo)) {
      // one video at a time: each is read whole (up to maxBytesPerVideo) to be hashed and probed
      await videoTurn(async () => {
        const video = await checkVideo(source, imagePath, name, maxBytesPerVideo, fail);
        if (video) imageByPath.set(imagePath, video);
      });
      return;
    }
    const image = await checkStillImage(source, imagePath, name, maxBytesPerImage, fail);
    if (image) imageByPath.set(imagePath, image);
  };
  await mapLimited(
    imagePaths.map((imagePath, index) => ({ imagePath, index })),
    IMAGE_READ_CONCURRENCY,
    checkOne,
    () => collector.issues.length + imageIssueCount >= collector.cap,
  );
  // the way out, said once, on the first missing file: the benchmark's questions can be answered from their text
  if (missingTextOnly.length > 0) {
    const first = imageIssues[Math.min(...missingTextOnly)]!;
    const others = missingTextOnly.length - 1;
    first.message += `; add the missing media${others > 0 ? ` (this and ${others} more file${others === 1 ? "" : "s"})` : ""}, or choose "text only" to import the questions without them`;
  }
  for (const issue of imageIssues) if (issue) collector.add(issue);
  return imageByPath;
}

/**
 * The files read again, their items matched with the first pass's (same places, same file
 * hashes: a file changed in between is a CONFLICT), each handed on with its ref.
 */
async function* readAgain(check: BatchCheck, pass: FirstPass): AsyncGenerator<{ item: ParsedItem; ref: ItemRef }> {
  const { source, itemsFiles, maxItemsFileBytes, maxLineBytes, options } = check;
  const { parsed, stoppedEarly } = pass;
  const fileHashOf = new Map(pass.itemsFileHashes.map((entry) => [entry.path, entry.hash]));
  let index = 0;
  // the lines that failed fail again: their issues are known already
  const again = new IssueCollector(0);
  for (const file of itemsFiles) {
    // the first pass stopped at the error cap: so does this one
    if (stoppedEarly && index >= parsed.length) return;
    const generator = itemsOf(file, { source, collector: again, maxItemsFileBytes, maxLineBytes, textOnly: options.textOnly });
    let lines = 0;
    for (;;) {
      const next = await generator.next();
      if (next.done) {
        if (fileHashOf.has(file.path) && next.value !== fileHashOf.get(file.path)) throw changedWhileImported(file.path);
        break;
      }
      const item = next.value;
      const ref = parsed[index];
      if (ref === undefined && stoppedEarly) {
        await generator.return(null);
        return;
      }
      index += 1;
      if (!ref || ref.file !== item.file || ref.line !== item.line || ref.id !== item.id) throw changedWhileImported(file.path);
      yield { item, ref };
      if (++lines % LINES_PER_YIELD === 0) await yieldToEventLoop();
    }
  }
  if (index !== parsed.length) throw changedWhileImported(itemsFiles[itemsFiles.length - 1]?.path ?? source.name);
}

/** Second pass, for items with images: their content hashes (over the images' hashes). */
async function hashItemsWithImages(check: BatchCheck, pass: FirstPass, imageOf: (ref: string) => ValidatedImage | undefined): Promise<void> {
  if (!pass.parsed.some((ref) => ref.hasImages)) return;
  for await (const { item, ref } of readAgain(check, pass)) {
    if (ref.contentHash === null && item.images.every((use) => imageOf(use.ref) !== undefined)) {
      ref.contentHash = contentHashOf(item, (imageRef) => imageOf(imageRef)!.hash);
    }
  }
}

/** The items that passed, ids unique within the batch (a repeated id is an issue on its later line). */
async function uniqueItems(parsed: ItemRef[], collector: IssueCollector): Promise<ItemSummary[]> {
  const items: ItemSummary[] = [];
  const firstById = new Map<string, { file: string; line: number; contentHash: string | null }>();
  let checked = 0;
  for (const item of parsed) {
    if (++checked % (LINES_PER_YIELD * 10) === 0) await yieldToEventLoop();
    const contentHash = item.contentHash;
    const first = firstById.get(item.id);
    if (first) {
      const where = first.file === item.file ? `line ${first.line}` : `${first.file} line ${first.line}`;
      const same =
        first.contentHash !== null && contentHash !== null ? (first.contentHash === contentHash ? " with the same content" : " with other content") : "";
      collector.add({
        file: item.file,
        line: item.line,
        field: "id",
        message: `duplicate id ${JSON.stringify(item.id)}: already on ${where}${same}; ids must be unique in a batch`,
      });
      continue;
    }
    firstById.set(item.id, { file: item.file, line: item.line, contentHash });
    if (contentHash === null) continue;
    items.push({ externalId: item.id, kind: item.kind, contentHash, file: item.file, line: item.line });
  }
  return items;
}

/** BatchValidation's readItems: the checked items read a last time, image references rewritten to asset URLs. */
function itemReader(
  check: BatchCheck,
  pass: FirstPass,
  items: ItemSummary[],
  imageOf: (ref: string) => ValidatedImage | undefined,
): BatchValidation["readItems"] {
  const summaryAt = new Map(items.map((item) => [`${item.line}\u0000${item.file}`, item]));
  return async function* readItems(wanted, chunkSize) {
    let chunk: ValidatedItem[] = [];
    for await (const { item } of readAgain(check, pass)) {
      const summary = summaryAt.get(`${item.line}\u0000${item.file}`);
      if (!summary || !wanted(summary)) continue;
      if (contentHashOf(item, (ref) => imageOf(ref)!.hash) !== summary.contentHash) throw changedWhileImported(item.file);
      const stored = item.module.mapImages({ public: item.public, key: item.key }, (ref: string) => assetUrl(imageOf(ref)!.hash));
      chunk.push({
        externalId: item.id,
        kind: item.kind,
        public: plainJson(stored.public),
        key: plainJson(stored.key),
        tags: item.tags,
        practice: item.practice,
        gold: item.gold,
        contentHash: summary.contentHash,
        file: item.file,
        line: item.line,
      });
      if (chunk.length >= chunkSize) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
  };
}

/** The batch's checksum over its items files' bytes, its images' hashes and the entries skipped (a batch with entries skipped is another batch than the same files imported whole). */
function batchChecksum(
  itemsFileHashes: FirstPass["itemsFileHashes"],
  pathByRef: Map<string, string>,
  imageByPath: Map<string, ValidatedImage>,
  skipped: readonly ImportIssue[],
): string {
  // paths of items files are left out: the same content from a folder or a zip (or a .jsonl path) is the same batch
  const lines = ["yardstick-batch/1", ...itemsFileHashes.map((file) => `items ${file.hash}`)];
  for (const [ref, imagePath] of [...pathByRef].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(`image ${JSON.stringify(ref)} ${imageByPath.get(imagePath)!.hash}`);
  }
  for (const issue of skipped) lines.push(`skipped ${issue.file} ${issue.entry ?? ""} ${issue.line ?? ""}`);
  return sha256Hex(lines.join("\n"));
}

/** skipInvalid: the problems of entries that gave no item are set aside, when they are all there is and all were found. */
function skippedEntries(check: BatchCheck, pass: FirstPass): { skipped: ImportIssue[]; skippable: boolean; truncated: boolean } {
  const { collector, options } = check;
  const itemAt = new Set(pass.parsed.map((ref) => `${ref.line}\u0000${ref.file}`));
  const isSkippable = (issue: ImportIssue) => issue.line !== undefined && !itemAt.has(`${issue.line}\u0000${issue.file}`);
  const truncated = collector.truncated || collector.full;
  const skippable = !truncated && collector.issues.length > 0 && collector.issues.every(isSkippable);
  return { skipped: options.skipInvalid && skippable ? collector.sorted() : [], skippable, truncated };
}

/**
 * Checks a whole batch without touching the database: every line (JSON, envelope, the kind's zod
 * schemas through the registry), every referenced image (safe path, present, PNG/JPEG/WebP by its
 * magic bytes, under the size limit), duplicate ids. Returns the items ready to store, with image
 * references rewritten to asset URLs and content hashes computed, and every issue found (up to
 * maxErrors), each naming file, line and field.
 */
export async function validateBatch(source: BatchSource, options: ValidateOptions = {}): Promise<BatchValidation> {
  const check = startCheck(source, options);
  const { collector } = check;
  const pass = await readFirstPass(check);
  const { pathByRef, refsByPath } = imagePathsOf(pass.uses, collector);
  const imageByPath = await checkImages(check, pass.uses, refsByPath);
  const imageOf = (ref: string): ValidatedImage | undefined => {
    const imagePath = pathByRef.get(ref);
    return imagePath === undefined ? undefined : imageByPath.get(imagePath);
  };
  await hashItemsWithImages(check, pass, imageOf);
  const items = await uniqueItems(pass.parsed, collector);
  const assets = new Map<string, ValidatedImage>();
  for (const image of imageByPath.values()) assets.set(image.hash, image);
  const { skipped, skippable, truncated } = skippedEntries(check, pass);
  const issues = skipped.length > 0 ? [] : collector.sorted();
  const checksum = issues.length === 0 ? batchChecksum(pass.itemsFileHashes, pathByRef, imageByPath, skipped) : null;
  // reaching the cap stops the checks early: there may be more errors than those reported
  return { issues, truncated, items, readItems: itemReader(check, pass, items, imageOf), assets, checksum, skipped, skippable };
}

/** Every checked item with its payload, in one array: for small batches (tests, tools); an import streams them (readItems). */
export async function collectItems(validation: BatchValidation): Promise<ValidatedItem[]> {
  const all: ValidatedItem[] = [];
  for await (const chunk of validation.readItems(() => true, 1000)) all.push(...chunk);
  return all;
}
