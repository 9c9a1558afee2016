import { afterAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { disconnectDb } from "@/lib/db";
import { MAX_AUTH_BODY_BYTES } from "@/lib/auth/auth-body";
import { POST } from "@/app/api/auth/[...nextauth]/route";

/**
 * next-auth parses a sign-in or sign-out body whole (request.text(), then URLSearchParams) for a
 * signed-out client: 50 MiB cost about a second of CPU and 100 MiB of memory per request. The
 * auth route caps the body before next-auth sees it (tests/faults/security.faults.test.ts over HTTP).
 */

const MiB = 1024 * 1024;
const context = (action: string[]) => ({ params: Promise.resolve({ nextauth: action }) });

/** a body of `size` bytes handed out 64 KiB at a time; `pulled()` says how much was read */
function lazyBody(size: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= size) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => sent };
}

describe("next-auth's routes take bounded bodies", () => {
  afterAll(disconnectDb);

  it("answers 413 to a declared body over the cap without reading it", async () => {
    const { stream, pulled } = lazyBody(50 * MiB);
    const request = new NextRequest("http://localhost:3000/api/auth/callback/credentials", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(50 * MiB) },
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    const reply = await POST(request, context(["callback", "credentials"]));
    expect(reply.status).toBe(413);
    expect((await reply.json()).error).toContain("larger than");
    expect(pulled()).toBeLessThanOrEqual(MAX_AUTH_BODY_BYTES + 64 * 1024);
  });

  it("answers 413 to a chunked body once it passes the cap, having read no more than the cap and the drain", async () => {
    for (const action of [["callback", "study-link"], ["signout"]]) {
      const { stream, pulled } = lazyBody(50 * MiB);
      const request = new NextRequest(`http://localhost:3000/api/auth/${action.join("/")}`, {
        method: "POST",
        body: stream,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        duplex: "half",
      } as ConstructorParameters<typeof NextRequest>[1]);
      const reply = await POST(request, context(action));
      expect(reply.status, action.join("/")).toBe(413);
      expect(pulled()).toBeLessThan(20 * MiB);
    }
  });
});
