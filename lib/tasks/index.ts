import { AppError } from "@/lib/errors";
import { choiceModule } from "@/lib/tasks/choice";
import { egoschemaFormat, perceptionTestFormat } from "@/lib/tasks/choice/import";
import { ego2worldPlayModule } from "@/lib/tasks/ego2world-play";
import { enactForwardModule } from "@/lib/tasks/enact-forward";
import { enactInverseModule } from "@/lib/tasks/enact-inverse";
import { esiExploreModule } from "@/lib/tasks/esi-explore";
import { exploreSceneModule } from "@/lib/tasks/explore-scene";
import { gridwmJudgeModule } from "@/lib/tasks/gridwm-judge";
import { gridwmNextObsModule } from "@/lib/tasks/gridwm-next-obs";
import { gridwmSceneJsonModule } from "@/lib/tasks/gridwm-scene-json";
import { ratingModule } from "@/lib/tasks/rating";
import { pairwiseModule } from "@/lib/tasks/pairwise";
import { numericModule } from "@/lib/tasks/numeric";
import { vsiReleaseFormat } from "@/lib/tasks/shared/vsi/release";
import { freeTextModule } from "@/lib/tasks/free-text";
import { freeTextGradeModule } from "@/lib/tasks/free-text-grade";
import { openEqaFormat } from "@/lib/tasks/free-text/import";
import { enactReleaseFormat } from "@/lib/tasks/shared/enact/release";
import { gridwmExamFormat } from "@/lib/tasks/shared/gridwm/exam";
import { esiReleaseFormat } from "@/lib/tasks/esi-explore/import";
import { exploreLayoutFormat } from "@/lib/tasks/explore-scene/import";
import { choiceRunFormats } from "@/lib/tasks/choice/run-formats";
import { freeTextRunFormats } from "@/lib/tasks/free-text/run-formats";
import { vsiRunFormat } from "@/lib/tasks/shared/vsi/run-format";
import { registerKindEvents } from "@/lib/tasks/event-registry";
import type { ItemsFile } from "@/lib/import/types";
import type { AnyTaskModule, KindEvents, ModelRunFormat, ReleaseFolderFormat, ReleaseLineFormat, ScoredAnswer } from "@/lib/tasks/types";

/**
 * The task-kind registry (DESIGN.md, "The task-kind contract"). Adding a benchmark task means
 * writing one module in lib/tasks/<kind>/index.ts and adding one line here; the key must equal the
 * module's `kind` (a unit test checks it).
 */
const registered = {
  "enact-forward": enactForwardModule,
  "enact-inverse": enactInverseModule,
  "gridwm-next-obs": gridwmNextObsModule,
  "gridwm-scene-json": gridwmSceneJsonModule,
  "gridwm-judge": gridwmJudgeModule,
  "explore-scene": exploreSceneModule,
  "esi-explore": esiExploreModule,
  "ego2world-play": ego2worldPlayModule,
  rating: ratingModule,
  pairwise: pairwiseModule,
  choice: choiceModule,
  numeric: numericModule,
  "free-text": freeTextModule,
  "free-text-grade": freeTextGradeModule,
} as const satisfies Record<string, AnyTaskModule>;

export type TaskKind = keyof typeof registered;

/**
 * The kinds' server hooks that are loaded when first used (a dashboard section, an LLM scorer):
 * named here, not in the kinds' modules, because a hook imports its kind's module, and a module
 * that pointed at its hook, even through a lazy import(), would close a circle of imports.
 */
const lazyHooks: { [Kind in TaskKind]?: Pick<AnyTaskModule, "dashboard" | "scoring"> } = {
  "enact-forward": { dashboard: () => import("@/lib/tasks/shared/enact/dashboard").then((loaded) => loaded.dashboard) },
  "enact-inverse": { dashboard: () => import("@/lib/tasks/shared/enact/dashboard").then((loaded) => loaded.dashboard) },
  "gridwm-next-obs": { dashboard: () => import("@/lib/tasks/shared/gridwm/dashboard").then((loaded) => loaded.dashboard) },
  "gridwm-scene-json": { dashboard: () => import("@/lib/tasks/shared/gridwm/dashboard").then((loaded) => loaded.dashboard) },
  "gridwm-judge": { dashboard: () => import("@/lib/tasks/shared/gridwm/dashboard").then((loaded) => loaded.dashboard) },
  "explore-scene": {
    dashboard: () => import("@/lib/tasks/shared/explore/dashboard").then((loaded) => loaded.dashboard),
    scoring: {
      llm: () => import("@/lib/tasks/explore-scene/scoring").then((loaded) => loaded.llm),
      rescore: () => import("@/lib/tasks/explore-scene/scoring").then((loaded) => loaded.rescore),
    },
  },
  "esi-explore": { dashboard: () => import("@/lib/tasks/esi-explore/dashboard").then((loaded) => loaded.dashboard) },
  "ego2world-play": { dashboard: () => import("@/lib/tasks/ego2world-play/dashboard").then((loaded) => loaded.dashboard) },
  rating: { dashboard: () => import("@/lib/tasks/rating/dashboard").then((loaded) => loaded.dashboard) },
  pairwise: { dashboard: () => import("@/lib/tasks/pairwise/dashboard").then((loaded) => loaded.dashboard) },
  choice: { dashboard: () => import("@/lib/tasks/choice/dashboard").then((loaded) => loaded.dashboard) },
  numeric: { dashboard: () => import("@/lib/tasks/numeric/dashboard").then((loaded) => loaded.dashboard) },
  "free-text": {
    dashboard: () => import("@/lib/tasks/free-text/dashboard").then((loaded) => loaded.dashboard),
    scoring: { llm: () => import("@/lib/tasks/free-text/scoring").then((loaded) => loaded.llm) },
  },
};

/** The benchmarks' release formats of one item a line, in the order they are tried on a first line. */
const releaseLineFormats: ReleaseLineFormat[] = [enactReleaseFormat, gridwmExamFormat, vsiReleaseFormat];

/** The release line format whose `detect` takes this (parsed) line, or null. */
export function detectReleaseLineFormat(line: unknown): ReleaseLineFormat | null {
  return releaseLineFormats.find((format) => format.detect(line)) ?? null;
}

/** A release line format by its id, or null (e.g. "native"). */
export function releaseLineFormat(id: string): ReleaseLineFormat | null {
  return releaseLineFormats.find((format) => format.id === id) ?? null;
}

/** The benchmarks' folder release formats (lib/tasks/<kind>/import.ts), in the order they are tried on a batch. */
const releaseFolderFormats: ReleaseFolderFormat[] = [esiReleaseFormat, exploreLayoutFormat, egoschemaFormat, perceptionTestFormat, openEqaFormat];

/** The items files of the first folder release format found in a batch's files, or [] when it is in none. */
export async function findReleaseFolderFiles(files: string[], read: (relPath: string) => Promise<Buffer>): Promise<ItemsFile[]> {
  for (const format of releaseFolderFormats) {
    const found = await format.find(files, read);
    if (found.length > 0) return found;
  }
  return [];
}

/** A folder release format by its id (an items file's `format`), or null. */
export function releaseFolderFormat(id: string): ReleaseFolderFormat | null {
  return releaseFolderFormats.find((format) => format.id === id) ?? null;
}

/** The folder release format one whole file given alone is in (its bytes), or null. */
export function singleFileFolderFormat(bytes: Buffer): ReleaseFolderFormat | null {
  return releaseFolderFormats.find((format) => format.isSingleFile?.(bytes)) ?? null;
}

/** The benchmarks' model-output files (lib/tasks/<kind>/run-formats.ts), in the order they are tried on a file. */
const modelRunFormats: ModelRunFormat[] = [...freeTextRunFormats, ...choiceRunFormats, vsiRunFormat];

/** The model-output format of this shape whose `detect` takes the value (the whole file's, or its first line's), or null. */
export function detectModelRunFormat<Shape extends ModelRunFormat["shape"]>(shape: Shape, value: unknown): Extract<ModelRunFormat, { shape: Shape }> | null {
  return (modelRunFormats.find((format) => format.shape === shape && format.detect(value)) as Extract<ModelRunFormat, { shape: Shape }> | undefined) ?? null;
}

/** The benchmarks whose model-output files are read, for messages. */
export function modelRunBenchmarks(): string[] {
  return [...new Set(modelRunFormats.map((format) => format.benchmark))];
}

const modules: Record<string, AnyTaskModule> = Object.fromEntries(
  Object.entries(registered).map(([kind, module]) => [kind, { ...module, ...lazyHooks[kind as TaskKind] }]),
);

export const taskModules: Record<TaskKind, AnyTaskModule> = modules;

export const taskKinds = Object.keys(registered) as TaskKind[];

export function isTaskKind(kind: unknown): kind is TaskKind {
  return typeof kind === "string" && Object.hasOwn(modules, kind);
}

/**
 * Registers a kind at run time, both parts of its lib half (the module and its events): what a
 * test does with a fixture kind (tests/toy-kind.integration.test.ts). The kinds above are
 * registered by their line in `registered`.
 */
export function registerKind(taskModule: AnyTaskModule, events?: KindEvents): void {
  modules[taskModule.kind] = taskModule;
  if (!taskKinds.includes(taskModule.kind as TaskKind)) taskKinds.push(taskModule.kind as TaskKind);
  if (events) registerKindEvents(taskModule.kind, events);
}

/** The module of a kind; throws AppError("INVALID") naming the known kinds for anything else. */
export function getTaskModule(kind: string): AnyTaskModule {
  if (!isTaskKind(kind)) {
    throw new AppError("INVALID", `unknown task kind ${JSON.stringify(kind)}; known kinds: ${taskKinds.join(", ")}`);
  }
  return modules[kind];
}

/**
 * A kind's settings in a study: Study.taskSettings[kind] parsed with the kind's settingsSchema
 * (defaults filled in); {} for kinds without settings, and the schema's defaults when the stored
 * value does not parse (the study settings form validates what it stores).
 */
export function kindSettings(taskSettings: unknown, kind: string): Record<string, unknown> {
  const all = taskSettings && typeof taskSettings === "object" && !Array.isArray(taskSettings) ? (taskSettings as Record<string, unknown>) : {};
  const own = all[kind] && typeof all[kind] === "object" ? all[kind] : {};
  const schema = isTaskKind(kind) ? modules[kind].settingsSchema : undefined;
  if (!schema) return own as Record<string, unknown>;
  const parsed = schema.safeParse(own);
  if (parsed.success) return parsed.data;
  const defaults = schema.safeParse({});
  return defaults.success ? defaults.data : {};
}

/** A kind whose items form families in the assignment queue (TaskAssignmentRules). */
export interface FamilyKind {
  kind: TaskKind;
  tags: readonly string[];
  required: string;
  /** other items between two members of one family in a person's queue, from the study's settings of the kind */
  minGap(settings: Record<string, unknown>): number;
}

/** The registered kinds that declare `assignment.family`, in registry order. */
export function familyKinds(): FamilyKind[] {
  return taskKinds.flatMap((kind) => {
    const family = taskModules[kind].assignment?.family;
    return family ? [{ kind, tags: family.tags, required: family.required, minGap: family.minGap }] : [];
  });
}

/** Each family kind's spacing in a study (its `minGap` of kindSettings(Study.taskSettings, kind)). */
export function familyMinGaps(taskSettings: unknown): Array<{ kind: TaskKind; minGap: number }> {
  return familyKinds().map((family) => ({ kind: family.kind, minGap: family.minGap(kindSettings(taskSettings, family.kind)) }));
}

/**
 * A kind's dataset metrics from answers with their context (item tags, who answered): the kind's
 * aggregateAnswers when it has one (GridWM-Judge Task C), else aggregate() of the scores.
 */
export function aggregateScoredAnswers(taskModule: AnyTaskModule, rows: ReadonlyArray<ScoredAnswer>): Record<string, number | null> {
  return taskModule.aggregateAnswers ? taskModule.aggregateAnswers(rows) : taskModule.aggregate(rows.map((row) => row.score));
}

export type {
  AnyTaskModule,
  TaskModule,
  TaskItem,
  ScoredAnswer,
  ModelAnswerParse,
  AgreementContext,
  ReleaseLineFormat,
  ReleaseFolderFormat,
  ModelRunFormat,
  TaskAssignmentRules,
} from "@/lib/tasks/types";
