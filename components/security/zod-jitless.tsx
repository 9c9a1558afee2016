"use client";

import { z } from "zod";

// zod 4 probes `new Function("")` once to decide whether to compile its parsers; under the
// Content-Security-Policy (no 'unsafe-eval', proxy.ts) the probe is refused and the browser
// reports a violation, although zod catches it. Jitless mode skips the probe (browser only).
if (typeof window !== "undefined") z.config({ jitless: true });

/** Rendered once by the root layout so that the setting above runs before any page parses. */
export function ZodJitless() {
  return null;
}
