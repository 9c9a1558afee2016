import { describe, expect, it } from "vitest";
import { LineTooLongError, readLines, type RawLine } from "@/lib/import/lines";

async function collect(chunks: Buffer[], maxLineBytes?: number): Promise<RawLine[]> {
  async function* stream() {
    for (const chunk of chunks) yield chunk;
  }
  const lines: RawLine[] = [];
  for await (const line of readLines(stream(), { maxLineBytes })) lines.push(line);
  return lines;
}

/** Every split of `bytes` into chunks of `size` bytes. */
function chunked(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
}

describe("readLines", () => {
  it("yields each line as soon as its chunk arrives, long before the stream ends", async () => {
    const CHUNKS = 10_000;
    let produced = 0;
    // an endless-looking stream: each chunk holds one full line and the start of the next
    async function* stream() {
      for (produced = 0; produced < CHUNKS;) {
        produced += 1;
        yield Buffer.from(`${produced === 1 ? "" : "tail"}\n{"line":${produced}} head`);
      }
      yield Buffer.from("tail\n");
    }
    const seenAt: number[] = [];
    let count = 0;
    for await (const line of readLines(stream())) {
      count += 1;
      // when line n arrives, at most one chunk past it has been read
      seenAt.push(produced - line.number);
      if (line.number === 3) expect(line.text).toBe('{"line":2} headtail');
    }
    expect(count).toBe(CHUNKS + 1);
    expect(Math.max(...seenAt)).toBeLessThanOrEqual(1);
    expect(produced).toBe(CHUNKS);
  });

  it("holds at most one chunk plus the line being read: a line over the cap fails before the rest is read", async () => {
    let produced = 0;
    async function* stream() {
      // line 2 never ends: 1,000 chunks of 1 KiB without a newline
      yield Buffer.from("first\n");
      for (produced = 0; produced < 1000; produced++) yield Buffer.alloc(1024, 0x61);
    }
    const lines: RawLine[] = [];
    const reading = (async () => {
      for await (const line of readLines(stream(), { maxLineBytes: 10 * 1024 })) lines.push(line);
    })();
    await expect(reading).rejects.toBeInstanceOf(LineTooLongError);
    await expect(reading).rejects.toMatchObject({ line: 2, maxBytes: 10 * 1024 });
    expect(lines).toEqual([{ number: 1, text: "first" }]);
    // it stopped after the 11th KiB, not at the end of the stream
    expect(produced).toBe(10);
  });

  it("gives the same lines whatever the chunk sizes: multi-byte characters split across chunks, CRLF, a BOM, no final newline", async () => {
    const text = '\uFEFF{"a":"é日本🎉"}\r\n\n  \n{"b":"Ω"}\r\nlast without newline';
    const bytes = Buffer.from(text, "utf8");
    const expected = [
      { number: 1, text: '{"a":"é日本🎉"}' },
      { number: 2, text: "" },
      { number: 3, text: "  " },
      { number: 4, text: '{"b":"Ω"}' },
      { number: 5, text: "last without newline" },
    ];
    for (const size of [1, 2, 3, 5, 7, 64, bytes.length]) {
      expect(await collect(chunked(bytes, size))).toEqual(expected);
    }
  });

  it("reports a line that is not UTF-8 as null text, and counts empty lines", async () => {
    const lines = await collect([Buffer.from("ok\n\n"), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from("after\n")]);
    expect(lines).toEqual([
      { number: 1, text: "ok" },
      { number: 2, text: "" },
      { number: 3, text: null },
      { number: 4, text: "after" },
    ]);
  });

  it("accepts a line of exactly the cap and refuses one byte more, naming the line", async () => {
    expect(await collect([Buffer.from("12345\n")], 5)).toEqual([{ number: 1, text: "12345" }]);
    await expect(collect([Buffer.from("1\n12"), Buffer.from("3456\n")], 5)).rejects.toMatchObject({ line: 2 });
    await expect(collect([Buffer.from("1\n"), Buffer.from("123456")], 5)).rejects.toMatchObject({ line: 2 });
    expect(await collect([])).toEqual([]);
  });
});
