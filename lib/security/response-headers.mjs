/**
 * Headers of every response (next.config.js applies them to everything Next.js answers;
 * scripts/request-guard.mjs to what it answers before Next.js sees the request). Pages get their
 * Content-Security-Policy (with a nonce) from proxy.ts (lib/security/headers.ts). API responses
 * are never pages: nothing in them may run or be framed. SECURITY.md; checked by
 * tests/faults/security.faults.test.ts and tests/faults/fuzz.faults.test.ts.
 */
export const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];

export const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; sandbox";
