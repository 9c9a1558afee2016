// Builds the command line once to JavaScript: cli/yardstick.ts and the lib/ code it calls, bundled
// by esbuild into dist/cli/ (yardstick.mjs plus one chunk per lazily imported command), so that
// `npx yardstick` starts node on plain JavaScript instead of transpiling TypeScript with tsx at
// every call. Packages stay in node_modules. Run by postinstall, `npm run build:cli`, npm test
// and the demo; `--if-stale` skips the build when dist/cli is newer than every source file.
import { build } from "esbuild";
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist", "cli");
const entry = path.join(root, "dist", "cli", "yardstick.mjs");

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (/\.(ts|tsx|mjs|js|json|prisma)$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function upToDate() {
  let built;
  try {
    built = statSync(entry).mtimeMs;
  } catch {
    return false;
  }
  return ["cli", "lib", "scripts/build-cli.mjs", "package.json", "tsconfig.json"].every((p) => {
    const full = path.join(root, p);
    return (statSync(full).isDirectory() ? newestSource(full) : statSync(full).mtimeMs) <= built;
  });
}

if (process.argv.includes("--if-stale") && upToDate()) process.exit(0);

const started = performance.now();
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { yardstick: "cli/yardstick.ts" },
  outdir,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  tsconfig: path.join(root, "tsconfig.json"),
  logLevel: "warning",
  plugins: [
    {
      // "server-only" guards lib/ code from client bundles; the CLI is server code (the Next.js
      // server resolves it with the react-server condition to an empty module: the same here)
      name: "server-only",
      setup(b) {
        b.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
        b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
      },
    },
    {
      // import.meta.dirname names the source file's folder (lib/db/schema-engine.ts finds
      // prisma/migrations from it), not the chunk's in dist/cli/chunks
      name: "source-dirname",
      setup(b) {
        b.onLoad({ filter: /[/\\](lib|cli)[/\\].*\.ts$/ }, (args) => {
          const source = readFileSync(args.path, "utf8");
          if (!source.includes("import.meta.dirname")) return undefined;
          const dir = path.relative(root, path.dirname(args.path)).split(path.sep).join("/");
          return { contents: source.replaceAll("import.meta.dirname", `(globalThis.__yardstickRoot + ${JSON.stringify(`/${dir}`)})`), loader: "ts" };
        });
      },
    },
  ],
});
// the entry only (not its chunks): paths on the command line are the user's; lib/ finds
// .yardstick/, prisma/ and node_modules from the project root
const header = [
  "#!/usr/bin/env node",
  'import { fileURLToPath as __yardstickPath } from "node:url";',
  'globalThis.__yardstickRoot = __yardstickPath(new URL("../..", import.meta.url)).replace(/[/\\\\]$/, "");',
  "process.env.YARDSTICK_CWD ||= process.cwd();",
  "process.chdir(globalThis.__yardstickRoot);",
].join("\n");
writeFileSync(entry, `${header}\n${readFileSync(entry, "utf8")}`);
chmodSync(entry, 0o755);
console.log(`built dist/cli/yardstick.mjs in ${Math.round(performance.now() - started)} ms`);
