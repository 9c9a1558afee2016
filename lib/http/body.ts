import { AppError } from "@/lib/errors";
import { fieldPath, findUnstorableText } from "@/lib/validations/storable-text";

/**
 * Request bodies with limits, for every route handler: a size cap checked against Content-Length
 * and again while streaming (a chunked body has no length), UTF-8, JSON, and a nesting cap, each
 * failure a 4xx that says what was wrong. Route handlers call these instead of request.json(),
 * request.text() or request.formData() (a unit test, tests/request-bodies.test.ts, checks it).
 */

/** Largest JSON body by default: the biggest legitimate one (a review study's batch and reviewer ids) is far below. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/** Deepest nesting of arrays and objects accepted: answers and payloads go a few levels deep. */
export const MAX_JSON_DEPTH = 32;
/**
 * Most keys in one object of a body: the widest legitimate ones (a rating's rubric, a study's
 * task settings) have a few dozen. zod makes an issue (and a message naming it) per unknown key
 * or wrong record value, so 90,000 keys cost 0.3-0.7 s of CPU and a 1 MB reply; refused before zod.
 */
export const MAX_JSON_KEYS = 1_000;

function tooLarge(limit: number): AppError {
  const size = limit >= 1024 * 1024 ? `${(limit / 1024 / 1024).toFixed(limit % (1024 * 1024) === 0 ? 0 : 1)} MiB` : `${Math.round(limit / 1024)} KiB`;
  return new AppError("TOO_LARGE", `The request body is larger than ${size}, the limit of this endpoint`);
}

function declaredLength(request: Request): number | null {
  const header = request.headers.get("content-length");
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header);
}

/** Past a body's limit, read this much more and throw it away before answering 413. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Reads the rest of a refused body (up to DRAIN_LIMIT_BYTES) without keeping it, then cancels.
 * Answering while the client still sends makes the server close the connection under the client,
 * and the client's next request on that kept-alive connection fails (ECONNRESET); a drained body
 * leaves the connection usable.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let drained = 0;
  try {
    while (drained < DRAIN_LIMIT_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      drained += value.byteLength;
    }
  } catch {
    return;
  }
  await reader.cancel().catch(() => undefined);
}

/** The raw body, at most maxBytes (413 beyond). */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = declaredLength(request);
  if (declared !== null && declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await drain(reader);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The path of an object in a parsed JSON value with more than MAX_JSON_KEYS keys, null when there is none. */
export function tooWideObject(value: unknown): Array<string | number> | null {
  // each entry knows its parent, so that the path is built only for the object found
  const stack: Array<{ value: unknown; key: string | number; parent: number }> = [{ value, key: "", parent: -1 }];
  const seen: Array<{ key: string | number; parent: number }> = [];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry.value === null || typeof entry.value !== "object") continue;
    const index = seen.push({ key: entry.key, parent: entry.parent }) - 1;
    if (Array.isArray(entry.value)) {
      entry.value.forEach((child, i) => stack.push({ value: child, key: i, parent: index }));
      continue;
    }
    const keys = Object.keys(entry.value);
    if (keys.length > MAX_JSON_KEYS) {
      const path: Array<string | number> = [];
      for (let at = index; seen[at].parent !== -1; at = seen[at].parent) path.unshift(seen[at].key);
      return path;
    }
    for (const key of keys) stack.push({ value: (entry.value as Record<string, unknown>)[key], key, parent: index });
  }
  return null;
}

/** The deepest nesting of arrays/objects in a parsed JSON value (iterative: no recursion to overflow). */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (level > MAX_JSON_DEPTH) return level;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push({ value: child, depth: level });
  }
  return deepest;
}

export interface JsonBodyOptions {
  maxBytes?: number;
  /** the value of an empty body; without it an empty body is a 422 */
  whenEmpty?: unknown;
}

/**
 * The body parsed as JSON, whatever its Content-Type (navigator.sendBeacon sends text/plain).
 * 413 beyond maxBytes; 422 for bytes that are not UTF-8, text that is not JSON (with the parser's
 * words and position), nesting deeper than MAX_JSON_DEPTH, an object with more than MAX_JSON_KEYS keys, or text PostgreSQL cannot store
 * (NUL, unpaired surrogates: lib/validations/storable-text.ts).
 */
export async function readJsonBody(request: Request, options: JsonBodyOptions = {}): Promise<unknown> {
  const bytes = await readBodyBytes(request, options.maxBytes ?? MAX_JSON_BODY_BYTES);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("INVALID", "The request body is not UTF-8 text");
  }
  if (text.trim() === "") {
    if (options.whenEmpty !== undefined) return options.whenEmpty;
    throw new AppError("INVALID", "The request body is empty; send a JSON object");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError("INVALID", `The request body is not JSON: ${error instanceof Error ? error.message.slice(0, 200) : "parse error"}`);
  }
  if (jsonDepth(value) > MAX_JSON_DEPTH) throw new AppError("INVALID", `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`);
  const wide = tooWideObject(value);
  if (wide) throw new AppError("INVALID", `The request body's ${fieldPath(wide) || "object"} has more than ${MAX_JSON_KEYS.toLocaleString("en")} keys`);
  const unstorable = findUnstorableText(value);
  if (unstorable) throw new AppError("INVALID", `The request body's ${fieldPath(unstorable.path) || "value"} ${unstorable.reason}`);
  return value;
}

/**
 * A multipart (or url-encoded) form, at most maxBytes. 413 beyond; 422 when the body is not a form
 * (another Content-Type, or a multipart body that does not parse).
 */
export async function readFormBody(request: Request, maxBytes: number): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!type.startsWith("multipart/form-data") && !type.startsWith("application/x-www-form-urlencoded")) {
    throw new AppError("INVALID", `Send the files as multipart/form-data (the request's Content-Type is ${JSON.stringify(type || "missing")})`);
  }
  const declared = declaredLength(request);
  if (declared !== null && declared > maxBytes) throw tooLarge(maxBytes);
  let body: ReadableStream<Uint8Array> | null = request.body;
  if (body && declared === null) {
    // no declared length (chunked): count while the form parser reads
    let total = 0;
    body = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          total += chunk.byteLength;
          if (total > maxBytes) controller.error(tooLarge(maxBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
  }
  try {
    return await new Request(request.url, { method: request.method, headers: request.headers, body, duplex: "half" } as RequestInit).formData();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof Error && error.cause instanceof AppError) throw error.cause;
    throw new AppError("INVALID", `The request body is not a readable form: ${error instanceof Error ? error.message.slice(0, 200) : "parse error"}`);
  }
}
