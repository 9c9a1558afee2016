import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { jsonDepth, MAX_JSON_DEPTH, readFormBody, readJsonBody } from "@/lib/http/body";

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/api/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

function chunked(bytes: Uint8Array, chunk = 1000): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
}

/** seeded, so that CI is the same run every time (FUZZ_SEED runs another) */
const SEED = Number(process.env.FUZZ_SEED ?? 20261204);

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("readJsonBody", () => {
  it("parses JSON whatever the content type (sendBeacon sends text/plain)", async () => {
    expect(await readJsonBody(post('{"a":[1,2]}', { "content-type": "text/plain;charset=UTF-8" }))).toEqual({ a: [1, 2] });
    expect(await readJsonBody(post("", {}), { whenEmpty: {} })).toEqual({});
  });

  it("refuses bodies over the limit, by Content-Length and while streaming a chunked body", async () => {
    expect((await failure(readJsonBody(post("x".repeat(2000)), { maxBytes: 1000 }))).code).toBe("TOO_LARGE");
    const big = new TextEncoder().encode(JSON.stringify({ s: "y".repeat(5000) }));
    const error = await failure(readJsonBody(post(chunked(big)), { maxBytes: 1000 }));
    expect(error.code).toBe("TOO_LARGE");
    expect(error.message).toContain("larger than 1 KiB");
  });

  it("says what is wrong with text that is not JSON, bytes that are not UTF-8, an empty body and deep nesting", async () => {
    expect((await failure(readJsonBody(post("{'a': 1}")))).message).toMatch(/^The request body is not JSON: /);
    expect((await failure(readJsonBody(post(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))))).message).toBe("The request body is not UTF-8 text");
    expect((await failure(readJsonBody(post("  ")))).message).toContain("empty");
    const deep = "[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1);
    expect((await failure(readJsonBody(post(deep)))).message).toContain(`more than ${MAX_JSON_DEPTH} levels`);
    expect(await readJsonBody(post("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH)))).toBeDefined();
    // far deeper than any stack would take recursively
    const abyss = "[".repeat(200_000) + "]".repeat(200_000);
    expect((await failure(readJsonBody(post(abyss), { maxBytes: 1_000_000 }))).code).toBe("INVALID");
  });

  it("refuses text PostgreSQL cannot store (NUL, unpaired surrogates), naming the field", async () => {
    expect((await failure(readJsonBody(post('{"events":[{"payload":{"note":"\\udfff"}}]}')))).message).toBe(
      "The request body's events[0].payload.note contains an unpaired UTF-16 surrogate (not valid Unicode text)",
    );
    expect((await failure(readJsonBody(post('{"name":"a\\u0000b"}')))).message).toMatch(/^The request body's name contains the NUL character/);
    expect(await readJsonBody(post('{"name":"\\ud83d\\ude42"}'))).toEqual({ name: "🙂" });
  });

  it("only ever returns a value or throws an AppError, for any bytes (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.string({ unit: "binary", maxLength: 300 }).map((s) => new TextEncoder().encode(s)),
        ),
        async (bytes) => {
          const outcome = await readJsonBody(post(bytes), { maxBytes: 200 }).then(
            () => "ok",
            (error: unknown) => (error instanceof AppError ? error.code : `unexpected ${String(error)}`),
          );
          expect(["ok", "INVALID", "TOO_LARGE"]).toContain(outcome);
        },
      ),
      { numRuns: 150, seed: SEED },
    );
  });
});

describe("jsonDepth", () => {
  it("counts arrays and objects, not scalars", () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [{ b: [] }] })).toBe(4);
  });
});

describe("readFormBody", () => {
  it("reads a multipart form and refuses other bodies with a 422", async () => {
    const form = new FormData();
    form.set("study", "s");
    expect((await readFormBody(new Request("http://localhost/x", { method: "POST", body: form }), 10_000)).get("study")).toBe("s");
    const error = await failure(readFormBody(post("{}", { "content-type": "application/json" }), 10_000));
    expect(error.message).toContain("multipart/form-data");
    const broken = await failure(readFormBody(post("not a form", { "content-type": "multipart/form-data; boundary=xyz" }), 10_000));
    expect(broken.code).toBe("INVALID");
  });

  it("refuses a form over the limit, declared or streamed", async () => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(50_000)]), "x.zip");
    expect((await failure(readFormBody(new Request("http://localhost/x", { method: "POST", body: form }), 10_000))).code).toBe("TOO_LARGE");
    const bytes = new Uint8Array(await new Response(form).arrayBuffer());
    const type = new Response(form).headers.get("content-type")!;
    const streamed = new Request("http://localhost/x", {
      method: "POST",
      body: chunked(bytes),
      headers: { "content-type": type },
      duplex: "half",
    } as RequestInit);
    expect((await failure(readFormBody(streamed, 10_000))).code).toBe("TOO_LARGE");
  });
});
