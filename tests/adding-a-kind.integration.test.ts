import { execFile } from "node:child_process";
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/**
 * docs/adding-a-kind.md is followed, not just read: in a temporary copy of the tree, the toy kind
 * (tests/fixtures/toy-kind/) is added by exactly the changes the page's table lists, with the code
 * the page shows where it shows it, and then the commands of its "4. Check" section run there. A
 * file that must change but is missing from the table fails the typecheck or a test in the copy; a
 * table row this walk cannot carry out fails here, by name.
 */

const root = path.resolve(import.meta.dirname, "..");
const docPath = path.join(root, "docs/adding-a-kind.md");
const doc = readFileSync(docPath, "utf8");
const fixture = (relPath: string) => readFileSync(path.join(root, "tests/fixtures/toy-kind", relPath), "utf8");
const run = promisify(execFile);

/** The paths in the first column of the page's "The changes, at a glance" table. */
function tableFiles(): string[] {
  const section = doc.split(/^## /m).find((part) => part.startsWith("The changes, at a glance"));
  if (!section) throw new Error(`${docPath}: no "## The changes, at a glance" section`);
  return [...section.matchAll(/^\| `([^`]+)` +\|/gm)].map((match) => match[1]);
}

/** The page's ```ts block that starts with `opening`. */
function docSnippet(opening: string): string {
  const block = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]).find((code) => code.startsWith(opening));
  if (!block) throw new Error(`${docPath}: no ts code block starting with ${JSON.stringify(opening)}`);
  return block;
}

/** The commands in backticks of the page's "4. Check" section that run a tool of the tree (`npx ...`). */
function checkCommands(): string[][] {
  const section = doc.split(/^## /m).find((part) => part.startsWith("4. Check"));
  if (!section) throw new Error(`${docPath}: no "## 4. Check" section`);
  return [...section.matchAll(/`(npx [^`]+)`/g)].map((match) => match[1].split(/\s+/));
}

/** `text` with `addition` after the one occurrence of `anchor`; a registry that no longer has the anchor fails by name. */
function insertAfter(file: string, text: string, anchor: string, addition: string): string {
  const at = text.indexOf(anchor);
  if (at < 0 || text.indexOf(anchor, at + 1) >= 0) throw new Error(`${file}: expected ${JSON.stringify(anchor)} exactly once`);
  return text.slice(0, at + anchor.length) + addition + text.slice(at + anchor.length);
}

/** The copy's files are hard links into the tree: a changed file is replaced (never written through the link). */
function replaceFile(copy: string, relPath: string, text: string): void {
  const target = path.join(copy, relPath);
  mkdirSync(path.dirname(target), { recursive: true });
  rmSync(target, { force: true });
  writeFileSync(target, text);
}

function editFile(copy: string, relPath: string, edit: (text: string) => string): void {
  replaceFile(copy, relPath, edit(readFileSync(path.join(copy, relPath), "utf8")));
}

/** The toy module with the page's agent contract. */
function toyModuleSource(): string {
  const source = fixture("lib/index.ts");
  const end = source.lastIndexOf("\n};");
  const agent = docSnippet("agent: {").trimEnd();
  return `${source.slice(0, end)}\n${agent.replace(/^/gm, "  ")}\n};\n`;
}

/** The fixture's client-registry entry (tests/fixtures/toy-kind/components/index.ts) as a `taskUis` entry. */
function toyTaskUiEntry(): string {
  const source = fixture("components/index.ts");
  const body = /export const toyCountUi: TaskUi = \{\n([\s\S]*?)\n\};/.exec(source)?.[1];
  if (!body) throw new Error("tests/fixtures/toy-kind/components/index.ts: no toyCountUi object");
  const entry = body
    .replace("lazy(load)", "lazy(loadToyCount)")
    .replace("preload: load,", "preload: loadToyCount,")
    .replace(/^ {2}shortcuts,$/m, "  shortcuts: toyCountShortcuts,");
  return `  "toy-count": {\n${entry.replace(/^/gm, "  ")}\n  },\n`;
}

/** How this walk carries out each row of the table. */
const steps: Record<string, (copy: string) => void> = {
  "lib/tasks/toy-count/index.ts": (copy) => replaceFile(copy, "lib/tasks/toy-count/index.ts", toyModuleSource()),
  "lib/tasks/index.ts": (copy) =>
    editFile(copy, "lib/tasks/index.ts", (text) =>
      insertAfter(
        "lib/tasks/index.ts",
        `import { toyCountModule } from "@/lib/tasks/toy-count";\n${text}`,
        "const registered = {\n",
        '  "toy-count": toyCountModule,\n',
      ),
    ),
  "lib/tasks/index.test.ts": (copy) =>
    editFile(copy, "lib/tasks/index.test.ts", (text) => insertAfter("lib/tasks/index.test.ts", text, "expect(taskKinds).toEqual([\n", '      "toy-count",\n')),
  "lib/tasks/toy-count/events.ts": (copy) => replaceFile(copy, "lib/tasks/toy-count/events.ts", fixture("lib/events.ts")),
  "lib/tasks/event-registry.ts": (copy) =>
    editFile(copy, "lib/tasks/event-registry.ts", (text) =>
      insertAfter(
        "lib/tasks/event-registry.ts",
        `import { toyCountEvents } from "@/lib/tasks/toy-count/events";\n${text}`,
        "const registered = {\n",
        '  "toy-count": toyCountEvents,\n',
      ),
    ),
  "components/tasks/toy-count/toy-count-task.tsx": (copy) =>
    replaceFile(copy, "components/tasks/toy-count/toy-count-task.tsx", fixture("components/toy-count-task.tsx")),
  "components/tasks/toy-count/shortcuts.ts": (copy) => replaceFile(copy, "components/tasks/toy-count/shortcuts.ts", fixture("components/shortcuts.ts")),
  "components/tasks/registry.ts": (copy) =>
    editFile(copy, "components/tasks/registry.ts", (text) => {
      const file = "components/tasks/registry.ts";
      const imported = insertAfter(
        file,
        text,
        '"use client";\n\n',
        'import { shortcuts as toyCountShortcuts } from "@/components/tasks/toy-count/shortcuts";\n',
      );
      const anchor = "export const taskUis: Record<string, TaskUi> = {\n";
      const loader = 'const loadToyCount = () => import("@/components/tasks/toy-count/toy-count-task");\n';
      return insertAfter(file, imported.replace(anchor, `${loader}${anchor}`), anchor, toyTaskUiEntry());
    }),
  "e2e/kind-fixtures.ts": (copy) =>
    editFile(copy, "e2e/kind-fixtures.ts", (text) =>
      insertAfter(
        "e2e/kind-fixtures.ts",
        text,
        "export const kindFixtureBuilders: Record<string, KindFixtureBuilder> = {\n",
        docSnippet('async "toy-count"').replace(/^/gm, "  ").trimEnd() + "\n",
      ),
    ),
};

/** The tree's files, tracked and untracked-but-not-ignored, and the generated Prisma client, hard-linked into `copy`; node_modules a symlink. */
async function copyTree(copy: string): Promise<void> {
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const files = stdout.split("\0").filter(Boolean);
  const generated = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? generated(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`],
    );
  for (const relPath of [...files, ...generated("lib/generated")]) {
    const source = path.join(root, relPath);
    const target = path.join(copy, relPath);
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      linkSync(source, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") continue; // deleted in the work tree, not yet in the index
      if (code !== "EXDEV" && code !== "EPERM" && code !== "EEXIST") throw error;
      copyFileSync(source, target);
    }
  }
  symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"), "dir");
}

/** The environment of the commands run in the copy: this run's own vitest variables left out. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith("VITEST")) delete env[name];
  return env;
}

describe("docs/adding-a-kind.md, followed in a copy of the tree", () => {
  it("lists only changes this walk can make, and names the checks to run", () => {
    expect(tableFiles().filter((file) => !(file in steps))).toEqual([]);
    expect(Object.keys(steps).filter((file) => !tableFiles().includes(file))).toEqual([]);
    const commands = checkCommands();
    expect(commands.map((command) => command.slice(0, 2).join(" "))).toEqual(["npx tsc", "npx vitest"]);
    expect(commands[1]).toContain("tests/kind-names.test.ts");
  });

  it("adds the toy kind with the table's changes alone: the typecheck and the named tests pass", { timeout: 400_000 }, async () => {
    const copy = mkdtempSync(path.join(tmpdir(), "yardstick-adding-a-kind-"));
    await copyTree(copy);
    expect(readFileSync(path.join(copy, "lib/tasks/index.ts"), "utf8")).not.toContain("toy-count");
    for (const file of tableFiles()) steps[file](copy);

    for (const [command, ...args] of checkCommands()) {
      const shown = [command, ...args].join(" ");
      try {
        await run(command, args, { cwd: copy, env: childEnv(), maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
      } catch (error) {
        const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
        expect.fail(`\`${shown}\` failed in the copy (${copy}, kept to look into):\n${`${stdout}\n${stderr}`.trim().slice(-6000)}`);
      }
    }
    rmSync(copy, { recursive: true, force: true });
  });
});
