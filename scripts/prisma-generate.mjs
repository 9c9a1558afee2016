// Runs `prisma generate` offline. Prisma's CLI wants a native schema engine binary even to print
// its version and would download one; generation itself does not use it, so point it at a stub
// that fails loudly if anything does try to use it (see ../shared/STACK-NOTES.md).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync, chmodSync, existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const stubDir = path.join(root, "node_modules", ".yardstick");
const stub = path.join(stubDir, "schema-engine-stub");
if (!existsSync(stub)) {
  mkdirSync(stubDir, { recursive: true });
  writeFileSync(stub, "#!/bin/sh\necho 'yardstick: the native Prisma schema engine is not used; run npm run db:migrate' >&2\nexit 1\n");
  chmodSync(stub, 0o755);
}
const result = spawnSync(process.execPath, [path.join(root, "node_modules", "prisma", "build", "index.js"), "generate"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: stub, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
});
process.exit(result.status ?? 1);
