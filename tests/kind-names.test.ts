import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { taskKinds } from "@/lib/tasks";

/**
 * Shared code never names a task kind (issue 19): a kind lives in lib/tasks/<kind>/ and
 * components/tasks/<kind>/ (a family's shared helpers in lib/tasks/shared/<family>/ and
 * components/tasks/shared/), and shared code reaches it through the registries.
 */

const root = path.resolve(import.meta.dirname, "..");
/**
 * examples/: the example agents answer every kind through the server's agent contract (issue 23),
 * never by its id. bench/: the benchmarks find their kinds through the registry (bench/dashboard.ts,
 * bench/import-memory.ts); a benchmark of one kind alone names it, so it lives in the kind's folder,
 * lib/tasks/<kind>/bench/ (lib/tasks/explore-scene/bench/answer-caps.ts), kind-owned below.
 */
const scanned = ["lib", "components", "app", "cli", "scripts", "prisma", "config", "examples", "bench"];

const kindOwned = [/^lib\/tasks\/[^/]+\//, /^components\/tasks\/[^/]+\//];
const registries = ["lib/tasks/index.ts", "lib/tasks/event-registry.ts", "components/tasks/registry.ts", "components/tasks/key-views.ts", "components/tasks/dashboard-sections.ts", "components/tasks/replay-panels.ts"];
/**
 * demo data, generated code, benchmark output (bench/.results/, as eslint ignores it), test code
 * (tests and their helpers under testing/) and migrations (they move stored data, whose kind ids are
 * data) may name kinds; a fixture that names a kind lives in that kind's folders
 */
const exempt = [/^prisma\/migrations\//, /^scripts\/demo-data\//, /^lib\/demo\//, /^lib\/generated\//, /^bench\/\.results\//, /\.test\.tsx?$/, /\/testing\//];

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") yield* files(relative);
    } else if (/\.(ts|tsx|mts|mjs|js|prisma|sql|json|py)$/.test(entry.name)) yield relative;
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");

/**
 * What names a kind in a file. A kind whose id has a hyphen ("explore-scene") is named by the id
 * anywhere. A kind whose id is an ordinary word ("rating", "choice": the generic kinds) is named by
 * a path into its folders (`tasks/rating/`, `tasks/rating"`) or by its id as a quoted kind value
 * (`kind === "rating"`, `kind: 'rating'`), since the word itself ("ratings", "a choice") is
 * everywhere in shared code.
 */
function kindPattern(kinds: readonly string[]): RegExp {
  const parts = kinds.map((kind) => {
    const id = escape(kind);
    if (kind.includes("-")) return id;
    return `tasks/${id}(?:[/"'\`]|$)|[Kk][Ii][Nn][Dd]\\w*["'\`]?\\s*(?:===|!==|==|!=|:|=)\\s*["'\`]${id}["'\`]|(?:getTaskModule|getTaskUi|kindSettings|isTaskKind)\\(\\s*["'\`]${id}["'\`]`;
  });
  return new RegExp(parts.join("|"), "m");
}

/** The shared files that name a kind id, from the given kind ids. */
function filesNamingKinds(kinds: readonly string[]): string[] {
  const pattern = kindPattern(kinds);
  const found: string[] = [];
  for (const dir of scanned) {
    for (const file of files(dir)) {
      if (kindOwned.some((re) => re.test(file)) || registries.includes(file) || exempt.some((re) => re.test(file))) continue;
      if (pattern.test(readFileSync(path.join(root, file), "utf8"))) found.push(file);
    }
  }
  return found.sort();
}

describe("kind names", () => {
  it("finds a word-like kind's id only where it names the kind", () => {
    const pattern = kindPattern(["rating", "explore-scene"]);
    for (const text of ['if (item.kind === "rating") {}', "const kind: 'rating'", 'import { x } from "@/lib/tasks/rating";', "components/tasks/rating/view", 'row.kind == "rating"', 'explore-scene'])
      expect(pattern.test(text), text).toBe(true);
    for (const text of ["ratings per item", "separating", 'const rating = field(p, "rating")', "a rating scale"]) expect(pattern.test(text), text).toBe(false);
  });

  it("no shared file names a task kind", () => {
    expect(filesNamingKinds(taskKinds)).toEqual([]);
  });

  it("scans the example agents: Python code that names a kind is found", () => {
    expect([...files("examples")]).toEqual(expect.arrayContaining(["examples/agent.py", "examples/agent_openai.py"]));
    expect(kindPattern(["esi-explore"]).test('        if kind == "esi-explore":')).toBe(true);
    expect(kindPattern(["choice"]).test("    if kind == 'choice':")).toBe(true);
    expect(kindPattern(["choice"]).test('        return {"choice": options[0]}')).toBe(false);
  });

  it("scans the benchmarks; a kind's own benchmark is in its folder, kind-owned", () => {
    expect([...files("bench")]).toEqual(expect.arrayContaining(["bench/dashboard.ts", "bench/import-memory.ts", "bench/load/run.ts"]));
    expect(kindOwned.some((re) => re.test("lib/tasks/explore-scene/bench/answer-caps.ts"))).toBe(true);
  });

  it("finds a one-word kind where code names it as a kind, not where it is an ordinary word", () => {
    const names = (text: string) => kindPattern(["choice"]).test(text);
    expect(names('if (item.kind === "choice") return;')).toBe(true);
    expect(names("{ kind: 'choice', public }")).toBe(true);
    expect(names('getTaskModule("choice")')).toBe(true);
    expect(names('const choice = field(answer, "choice"); // {"choice": "C"}')).toBe(false);
    expect(kindPattern(["enact-forward"]).test("see enact-forward")).toBe(true);
  });
});
