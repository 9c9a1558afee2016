import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { taskKinds } from "@/lib/tasks";
import { registeredKindEvents } from "@/lib/tasks/event-registry";
import { createAnnotationStore } from "@/lib/client/annotation-store";

/**
 * Shared code never names a task kind, and knows nothing of one: a kind lives in lib/tasks/<kind>/
 * and components/tasks/<kind>/ (a family's shared helpers in lib/tasks/shared/<family>/ and
 * components/tasks/shared/<family>/), and shared code reaches it through the registries only. So
 * no shared file names a kind's id, imports a kind's or a family's folder, records or reduces a
 * kind's events, or names a kind's state and actions.
 */

const root = path.resolve(import.meta.dirname, "..");
/**
 * examples/: the example agents answer every kind through the server's agent contract,
 * never by its id. bench/: the benchmarks find their kinds through the registry (bench/dashboard.ts,
 * bench/import-memory.ts); a benchmark of one kind alone names it, so it lives in the kind's folder,
 * lib/tasks/<kind>/bench/ (lib/tasks/explore-scene/bench/answer-caps.ts), kind-owned below.
 */
const scanned = ["lib", "components", "app", "cli", "scripts", "prisma", "config", "examples", "bench"];

const kindOwned = [/^lib\/tasks\/[^/]+\//, /^components\/tasks\/[^/]+\//];
const registries = [
  "lib/tasks/index.ts",
  "lib/tasks/event-registry.ts",
  "components/tasks/registry.ts",
  "components/tasks/key-views.ts",
  "components/tasks/dashboard-sections.ts",
  "components/tasks/replay-panels.ts",
];
/**
 * demo data, generated code, benchmark output (bench/.results/, as eslint ignores it), test code
 * (tests and their helpers under testing/) and migrations (they move stored data, whose kind ids are
 * data) may name kinds; a fixture that names a kind lives in that kind's folders
 */
const exempt = [/^prisma\/migrations\//, /^scripts\/demo-data\//, /^lib\/generated\//, /^bench\/\.results\//, /\.test\.tsx?$/, /\/testing\//];

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") yield* files(relative);
    } else if (/\.(ts|tsx|mts|mjs|js|prisma|sql|json|py)$/.test(entry.name)) yield relative;
  }
}

/** The tree's own top-level source files: its configuration (eslint, Next.js, Playwright, Vitest, Prisma) and entry hooks. */
function rootFiles(): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|mjs|js)$/.test(entry.name) && entry.name !== "next-env.d.ts")
    .map((entry) => entry.name);
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
  for (const file of [...rootFiles(), ...scanned.flatMap((dir) => [...files(dir)])]) {
    if (kindOwned.some((re) => re.test(file)) || registries.includes(file) || exempt.some((re) => re.test(file))) continue;
    if (pattern.test(readFileSync(path.join(root, file), "utf8"))) found.push(file);
  }
  return found.sort();
}

describe("kind names", () => {
  it("finds a word-like kind's id only where it names the kind", () => {
    const pattern = kindPattern(["rating", "explore-scene"]);
    for (const text of [
      'if (item.kind === "rating") {}',
      "const kind: 'rating'",
      'import { x } from "@/lib/tasks/rating";',
      "components/tasks/rating/view",
      'row.kind == "rating"',
      "explore-scene",
    ])
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

  it("scans the top-level configuration files too", () => {
    expect(rootFiles()).toEqual(expect.arrayContaining(["eslint.config.mjs", "playwright.config.ts", "vitest.config.ts"]));
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

/** Runtime shared code: the scanned files of lib, components, app and cli that are neither a kind's nor a registry, nor exempt. */
function sharedRuntimeFiles(): string[] {
  return ["lib", "components", "app", "cli"]
    .flatMap((dir) => [...files(dir)])
    .filter(
      (file) => /\.(ts|tsx|mts|mjs)$/.test(file) && !kindOwned.some((re) => re.test(file)) && !registries.includes(file) && !exempt.some((re) => re.test(file)),
    );
}

const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The family folders of the kinds' shared code (lib/tasks/shared/<family>/, components/tasks/shared/<family>/). */
function familyFolders(): string[] {
  const folders = ["lib/tasks/shared", "components/tasks/shared"].flatMap((dir) =>
    readdirSync(path.join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name),
  );
  return [...new Set(folders)].sort();
}

/** A kind's own folder or a family's (not the top-level shared files every kind uses, such as lib/tasks/shared/event-fields.ts). */
const inKindOrFamilyFolder = (file: string) =>
  /^(lib|components)\/tasks\/(?!shared\/)[^/]+\//.test(file) || /^(lib|components)\/tasks\/shared\/[^/]+\//.test(file);

/** An import (static, dynamic, or a re-export) of a kind's folder or a family's, by path. */
function kindImportPattern(kinds: readonly string[], families: readonly string[]): RegExp {
  const folder = `(?:${[...kinds].map(escape).join("|")}|shared\\/(?:${families.map(escape).join("|")}))`;
  return new RegExp(`(?:from\\s+|import\\s*\\(\\s*|import\\s+)["'\`]@\\/(?:lib|components)\\/tasks\\/${folder}(?:[/"'\`])`);
}

/** Shared files allowed to import a kind's or a family's folder: none. */
const importExceptions: string[] = [];

/** The exported names of the kinds' and families' files that are a kind's state or actions: drafts, states, actions, events, hooks. */
function kindStateAndActionNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const dir of ["lib/tasks", "components/tasks"]) {
    for (const file of files(dir)) {
      if (!inKindOrFamilyFolder(file) || /\.test\.tsx?$/.test(file)) continue;
      for (const match of read(file).matchAll(/export (?:async )?(?:function|const|interface|type|class) ([A-Za-z0-9_]+)/g)) {
        if (/(?:Draft|State|Action|Actions|Event|Intent)s?$|^use[A-Z]/.test(match[1]) && !names.has(match[1])) names.set(match[1], file);
      }
    }
  }
  return names;
}

/**
 * The seed kinds' state and actions that shared code once held (lib/client/annotation-store.ts,
 * lib/tasks/item-state.ts, the practice ack, the replay and item pages): none comes back.
 */
const formerSharedNames =
  /\b(?:moveSlot|clearSlot|cancelPick|editScene|zoomFrame|slotCount|keyOrderOf|keyOrder|noteIndexOf|OrderingState|initialOrderingState|kindTakesStepLabels|EsiStepLabels|stepLabels\s*:\s*true)\b|[\w)\]]\.(?:slots|picked)\b|feedback\??\.order\b|\b(?:state|s|getState\(\))\.(?:pick|place|choose|judge)\b/;

describe("kinds stay in their rooms", () => {
  const shared = sharedRuntimeFiles();
  const families = familyFolders();

  it("reads the tree: shared files, family folders, the kinds' events and state names", () => {
    expect(shared).toEqual(
      expect.arrayContaining([
        "lib/client/annotation-store.ts",
        "lib/tasks/item-state.ts",
        "components/annotate/annotate-session.tsx",
        "components/replay/replay-player.tsx",
        "app/api/studies/[slug]/step-labels/route.ts",
      ]),
    );
    expect(families).toEqual(expect.arrayContaining(["enact", "gridwm", "explore", "media"]));
    expect([...kindStateAndActionNames().keys()]).toEqual(
      expect.arrayContaining(["OrderingDraft", "placeEvent", "chooseEvent", "orderingActions", "useJudgeActions", "SceneDraft", "ExploreDraft"]),
    );
    expect(registeredKindEvents().flatMap(([, events]) => Object.keys(events.payloadSchemas))).toEqual(
      expect.arrayContaining(["slot_filled", "choice_made", "verdict_made", "scene_edited", "frame_zoomed"]),
    );
  });

  it("finds an import of a kind's or a family's folder, not of the registries or the files every kind shares", () => {
    const pattern = kindImportPattern(["enact-forward", "rating"], ["enact", "gridwm"]);
    for (const text of [
      'import { x } from "@/lib/tasks/enact-forward";',
      'import type { A } from "@/lib/tasks/shared/enact/actions";',
      'import("@/components/tasks/rating/ui")',
      'export { y } from "@/components/tasks/shared/gridwm/views";',
      'import "@/lib/tasks/rating/events";',
    ])
      expect(pattern.test(text), text).toBe(true);
    for (const text of [
      'import { getTaskModule } from "@/lib/tasks";',
      'import type { TaskUi } from "@/components/tasks/shared/types";',
      'import { payloadField } from "@/lib/tasks/shared/event-fields";',
      'import { getTaskUi } from "@/components/tasks/registry";',
      'import { x } from "@/lib/tasks/ratings-extra";',
    ])
      expect(pattern.test(text), text).toBe(false);
  });

  it("no shared file imports a kind's folder or a family's by path: only the registries do", () => {
    const pattern = kindImportPattern(taskKinds, families);
    expect(shared.filter((file) => pattern.test(read(file)) && !importExceptions.includes(file))).toEqual([]);
  });

  it("no shared file records or reduces a kind's events: their types are named in the kinds' folders only", () => {
    const types = [...new Set(registeredKindEvents().flatMap(([, events]) => Object.keys(events.payloadSchemas)))];
    const pattern = new RegExp(`["'\`](?:${types.map(escape).join("|")})["'\`]`);
    expect(shared.filter((file) => pattern.test(read(file)))).toEqual([]);
  });

  it("no shared file names a kind's state or actions (the drafts, states, actions, events and hooks its folders export)", () => {
    const names = kindStateAndActionNames();
    const pattern = new RegExp(`\\b(?:${[...names.keys()].map(escape).join("|")})\\b`);
    expect(shared.flatMap((file) => (pattern.test(read(file)) ? [`${file}: ${read(file).match(pattern)?.[0]}`] : []))).toEqual([]);
  });

  it("no shared file holds the seed kinds' former shared state and actions", () => {
    expect(
      formerSharedNames.test("state.moveSlot(0, 1)") &&
        formerSharedNames.test("ack.feedback?.order") &&
        formerSharedNames.test("s.slots.length") &&
        formerSharedNames.test("api.getState().pick("),
    ).toBe(true);
    expect(formerSharedNames.test("{ userIds: [...picked] }") || formerSharedNames.test("const choose = useCallback(")).toBe(false);
    expect(shared.filter((file) => formerSharedNames.test(read(file)))).toEqual([]);
  });

  it("the annotation store holds the same state and actions for every kind", () => {
    const store = createAnnotationStore({
      assignmentId: "a",
      kind: "any",
      initialAnswer: null,
      answerOf: () => null,
      confidenceScale: "LIKERT_5",
      idleCapMs: 60_000,
    });
    expect(Object.keys(store.getState()).sort()).toEqual(
      [
        "answer",
        "assignmentId",
        "canSubmit",
        "closeZoom",
        "confidence",
        "confidenceScale",
        "currentAnswer",
        "dispatch",
        "frame",
        "hidden",
        "idle",
        "idleCapMs",
        "idleDismissed",
        "idleShown",
        "kind",
        "nextSeq",
        "pageHidden",
        "pageVisible",
        "readOnly",
        "recorded",
        "setConfidence",
        "show",
        "showState",
        "shown",
        "sinceLastEvent",
        "submission",
        "submit",
        "submitted",
        "tally",
        "zoom",
        "zoomed",
      ].sort(),
    );
  });
});
