import { defineConfig } from "vitest/config";
import path from "node:path";

const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "tests/server-only-stub.ts"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "components/**/*.test.ts", "tests/**/*.test.ts", "cli/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts", "**/*.faults.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["**/*.integration.test.ts"],
          exclude: ["node_modules/**"],
          environment: "node",
          globalSetup: ["tests/integration-setup.ts"],
          setupFiles: ["tests/integration-env.ts"],
          // one database per run; files share it, so they run one after another
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // fault injection and bad input against the production build (SECURITY.md):
          // each file starts `next start` on a port of its own, with a database or a throwaway
          // PostgreSQL cluster of its own, so it runs after `next build` (scripts/test.sh)
          name: "faults",
          include: ["tests/faults/**/*.faults.test.ts"],
          exclude: ["node_modules/**"],
          environment: "node",
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
