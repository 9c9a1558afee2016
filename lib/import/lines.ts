/**
 * Lines of an items file read as a stream of chunks (a file on disk, a zip entry being inflated):
 * at most one chunk plus the line being assembled is held, never the whole file.
 */

/** Longest line accepted in an items file (an ENACT or GridWM line is a few KB; a native line with long texts, far less than this). */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/** A line over the cap: the file cannot be read further. */
export class LineTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly maxBytes: number,
  ) {
    super(`line ${line} is longer than the ${maxBytes} byte limit for one line`);
    this.name = "LineTooLongError";
  }
}

export interface RawLine {
  /** 1-based, counting every line (empty ones too), as an editor does */
  number: number;
  /** the line's text without "\r\n" / "\n" (and a leading byte order mark on line 1); null when not valid UTF-8 */
  text: string | null;
}

const NEWLINE = 0x0a;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Splits a stream of byte chunks into lines. Lines are cut at the byte 0x0A, which never occurs
 * inside a multi-byte UTF-8 sequence, so a character split across two chunks is decoded whole.
 *
 * @throws LineTooLongError when a line exceeds `maxLineBytes` (detected before the line is complete)
 */
export async function* readLines(chunks: AsyncIterable<Buffer>, options: { maxLineBytes?: number } = {}): AsyncGenerator<RawLine> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  const finish = (tail: Buffer): RawLine => {
    number += 1;
    let bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    if (number === 1 && bytes.subarray(0, 3).equals(BOM)) bytes = bytes.subarray(3);
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    let text: string | null;
    try {
      text = decoder.decode(bytes);
    } catch {
      text = null;
    }
    return { number, text };
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) break;
      if (pendingBytes + (end - start) > maxLineBytes) throw new LineTooLongError(number + 1, maxLineBytes);
      yield finish(chunk.subarray(start, end));
      start = end + 1;
    }
    if (start < chunk.length) {
      // copied: the caller's chunk may be reused once handed back
      const rest = Buffer.from(chunk.subarray(start));
      pendingBytes += rest.length;
      if (pendingBytes > maxLineBytes) throw new LineTooLongError(number + 1, maxLineBytes);
      pending.push(rest);
    }
  }
  if (pendingBytes > 0) yield finish(Buffer.alloc(0));
}
