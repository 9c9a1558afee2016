#!/usr/bin/env node
// `npx yardstick <command>`: runs cli/yardstick.ts with tsx, resolving "server-only" the way the
// Next.js server does (the react-server condition), so the CLI calls the same lib/ code as the app.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const tsx = path.join(path.dirname(require.resolve("tsx/package.json")), "dist", "loader.mjs");
const result = spawnSync(process.execPath, ["--conditions=react-server", "--import", tsx, path.join(root, "cli", "yardstick.ts"), ...process.argv.slice(2)], {
  stdio: "inherit",
  cwd: root,
  env: { ...process.env, YARDSTICK_CWD: process.cwd(), TSX_TSCONFIG_PATH: path.join(root, "tsconfig.json") },
});
process.exit(result.status ?? 1);
