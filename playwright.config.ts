import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3310);
const baseURL = `http://127.0.0.1:${port}`;
// scripts/e2e-scoped.sh: parallel runs in one checkout keep their results apart
const runSuffix = process.env.E2E_RUN_NAME ? `-${process.env.E2E_RUN_NAME}` : "";

/**
 * End-to-end tests drive Debian's Chromium (its own browser download does not work here) against
 * the production build (`next build`), served by `next start` on a database of the run's own
 * (DATABASE_URL, set by scripts/test.sh).
 */
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.e2e.ts",
  outputDir: `test-results${runSuffix}`,
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["html", { open: "never", outputFolder: `playwright-report${runSuffix}` }]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL,
    viewport: { width: 1280, height: 720 },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    { name: "chromium", dependencies: ["setup"] },
  ],
  webServer: {
    command: `node scripts/serve.mjs -p ${port} -H 127.0.0.1`,
    url: `${baseURL}/signin`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      NEXTAUTH_SECRET: "e2e-secret-not-for-production-0123456789",
      NEXTAUTH_URL: baseURL,
      // the key of stored Prolific tokens (lib/security/secret-box.ts), which a production build requires
      YARDSTICK_SECRET_KEY: Buffer.from("e2e-secret-key-not-for-production").toString("hex").slice(0, 64).padEnd(64, "0"),
      // the EXPLORE scorer LLM: e2e/explore.e2e.ts serves an OpenAI-compatible stand-in on this port while it runs
      SCORER_LLM_URL: `http://127.0.0.1:${port + 1000}/v1/chat/completions`,
      SCORER_LLM_MODEL: "e2e-stand-in",
      // Prolific's API: e2e/prolific.e2e.ts serves the stand-in (tests/stand-ins/prolific-server.ts) on this port while it runs
      PROLIFIC_API_URL: `http://127.0.0.1:${port + 1001}/api/v1/`,
    },
  },
});
