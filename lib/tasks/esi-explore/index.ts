import { z } from "zod";
import { AppError } from "@/lib/errors";
import { actionKey, esiActionSchema, type EsiAction } from "@/lib/tasks/esi-explore/actions";
import {
  compareConditions,
  conditionLabel,
  effectiveCondition,
  ESI_CONDITIONS,
  isEsiCondition,
  predictionCondition,
  type EsiCondition,
} from "@/lib/tasks/esi-explore/conditions";
import { CANNOT_DO_THAT, esiGraphSchema, randomWalkStates, stateOf, stepGraph, viewpointOf, type EsiGraph } from "@/lib/tasks/esi-explore/graph";
import {
  DEFAULT_SIMULATOR_RETRIES,
  DEFAULT_SIMULATOR_TIMEOUT_MS,
  MAX_SIMULATOR_BUDGET_MS,
  startSimulatorEpisode,
  stepSimulatorEpisode,
  type SimulatorOptions,
} from "@/lib/tasks/esi-explore/simulator-client";
import { isPlainObject, share } from "@/lib/tasks/shared/gridwm/common";
import { viewField, viewObject } from "@/lib/tasks/shared/view-fields";
import type { AgreementEncoding, InteractiveTask, Json, KindAgentContract, MetricSpec, PlayContext, PlayResult, TaskItem, TaskModule } from "@/lib/tasks/types";

/**
 * ESI-Bench (`esi-explore`; ../shared/benchmarks/esi.md, docs/esi.md): a question about a scene,
 * answered after exploring it one action at a time, or from views shown passively, by condition.
 *
 * - public: the question, its options (a list, or a map of sub-questions as in the release), the
 *   initial view and the step budget (default 30).
 * - key (server only): the answer, the exploration graph (states: image, visible objects,
 *   viewpoint, contrastive flag; edges: action -> state), optional reference views for the
 *   passive conditions (`views.multi`, `views.gt`) and, for a live simulator, the start (scene,
 *   room, pose).
 * - The episode runs on the server (lib/annotate/play.ts calls `interactive.start` / `step`): only the
 *   current state's image and objects reach the browser, one step at a time.
 * - Answer `{ choice }` (a string, or a map of parts), optional model confidence; the server
 *   adds `steps`, the number of actions it recorded. Correct iff every part equals the key
 *   (trimmed, case-insensitive); per-part accuracy too.
 */

export const ESI_BENCHMARK = "ESI-Bench";
export const ESI_DEFAULT_MAX_STEPS = 30;

const optionText = z.string().trim().min(1, "an option cannot be empty").max(200, "an option has at most 200 characters");
const partName = z.string().regex(/^[A-Za-z0-9_]{1,20}$/, "a part name is 1-20 letters, digits or _");
const imagePath = z.string().min(1, "an image path cannot be empty");

const optionListSchema = z
  .array(optionText)
  .min(2, "a question needs at least two options")
  .max(26, "a question has at most 26 options")
  .refine((options) => new Set(options).size === options.length, "options must be distinct");
const optionMapSchema = z
  .record(partName, optionListSchema)
  .refine((parts) => Object.keys(parts).length >= 1 && Object.keys(parts).length <= 10, "1 to 10 parts");

export const esiPublicSchema = z.strictObject({
  question: z.string().trim().min(1, "the question cannot be empty").max(4000),
  /** ["Yes", "No"], or sub-questions: {"A": ["right", "left"], "C": ["left", "right"]} */
  options: z.union([optionListSchema, optionMapSchema], { error: "options: a list of at least two answers, or a map of parts to such lists" }),
  /** what each part asks, shown beside its options (e.g. {"A": "the baking_sheet"}) */
  parts: z.record(partName, z.string().max(300)).optional(),
  initialImage: imagePath,
  maxSteps: z.number().int().min(1).max(200).default(ESI_DEFAULT_MAX_STEPS),
});
export type EsiPublic = z.infer<typeof esiPublicSchema>;

export const esiChoiceSchema = z.union([optionText, z.record(partName, optionText)], { error: "a choice is an option, or a map of parts to options" });
export type EsiChoice = z.infer<typeof esiChoiceSchema>;

export const esiKeySchema = z.strictObject({
  answer: esiChoiceSchema,
  graph: esiGraphSchema.optional(),
  /** images of the passive conditions: a random trajectory's views and the reference trajectory's */
  views: z.strictObject({ multi: z.array(imagePath).max(100).optional(), gt: z.array(imagePath).max(100).optional() }).optional(),
  /** where a live simulator starts the episode */
  start: z.strictObject({ scene: z.string().max(200).optional(), room: z.string().max(200).optional(), pose: z.json().optional() }).optional(),
  /** the release's metadata (imported questions), for reviewers */
  metadata: z.json().optional(),
});
export type EsiKey = z.infer<typeof esiKeySchema>;

function isMapOptions(options: EsiPublic["options"]): options is Record<string, string[]> {
  return !Array.isArray(options);
}

/** What is wrong with a choice for these options, or null when it fits (exact option texts). */
export function choiceProblem(choice: EsiChoice, options: EsiPublic["options"]): { path: Array<string>; message: string } | null {
  if (!isMapOptions(options)) {
    if (typeof choice !== "string") return { path: [], message: "expected one of the options, not a map of parts" };
    return options.includes(choice)
      ? null
      : { path: [], message: `${JSON.stringify(choice)} is not one of the options ${options.map((o) => JSON.stringify(o)).join(", ")}` };
  }
  if (typeof choice === "string") return { path: [], message: `expected a map of the parts ${Object.keys(options).join(", ")}` };
  for (const part of Object.keys(options)) {
    if (!Object.hasOwn(choice, part)) return { path: [part], message: `part ${part} is missing` };
    if (!options[part].includes(choice[part]))
      return {
        path: [part],
        message: `${JSON.stringify(choice[part])} is not one of part ${part}'s options ${options[part].map((o) => JSON.stringify(o)).join(", ")}`,
      };
  }
  const extra = Object.keys(choice).find((part) => !Object.hasOwn(options, part));
  return extra === undefined ? null : { path: [extra], message: `there is no part ${extra}` };
}

export const esiItemSchema = z.strictObject({ public: esiPublicSchema, key: esiKeySchema }).superRefine((item, ctx) => {
  const problem = choiceProblem(item.key.answer, item.public.options);
  if (problem) ctx.addIssue({ code: "custom", path: ["key", "answer", ...problem.path], message: problem.message });
  const graph = item.key.graph;
  if (graph && Object.hasOwn(graph.states, graph.initial) && graph.states[graph.initial].image !== item.public.initialImage) {
    ctx.addIssue({
      code: "custom",
      path: ["key", "graph", "initial"],
      message: `the initial state's image ${JSON.stringify(graph.states[graph.initial].image)} must be public.initialImage ${JSON.stringify(item.public.initialImage)}`,
    });
  }
  if (item.public.parts && isMapOptions(item.public.options)) {
    const extra = Object.keys(item.public.parts).find((part) => !Object.hasOwn(item.public.options, part));
    if (extra !== undefined) ctx.addIssue({ code: "custom", path: ["public", "parts", extra], message: `there is no part ${extra} among the options` });
  }
});

export const esiAnswerSchema = z.strictObject({
  choice: esiChoiceSchema,
  /** a model's stated confidence in [0, 1] (people give theirs with the response) */
  confidence: z.number().min(0).max(1).optional(),
  /** actions taken before answering: set by the server from the recorded steps (people), or given by a model run */
  steps: z.number().int().min(0).max(100_000).optional(),
  /** model runs: the condition the model answered in */
  condition: z.string().max(40).optional(),
});
export type EsiAnswer = z.infer<typeof esiAnswerSchema>;

export interface EsiScore {
  correct: boolean;
  /** parts right, of `parts` (1 for a single question) */
  partsCorrect: number;
  parts: number;
}

type EsiItem = TaskItem<EsiPublic, EsiKey>;

/** Answers compare trimmed, case-insensitive, without a final full stop ("Yes." equals "yes"). */
export function normaliseAnswerText(text: string): string {
  return text.trim().replace(/\.$/, "").trim().toLowerCase();
}

export function scoreEsi(answer: EsiAnswer, key: EsiKey): EsiScore {
  const expected = key.answer;
  if (typeof expected === "string") {
    const correct = typeof answer.choice === "string" && normaliseAnswerText(answer.choice) === normaliseAnswerText(expected);
    return { correct, partsCorrect: correct ? 1 : 0, parts: 1 };
  }
  const given = typeof answer.choice === "string" ? {} : answer.choice;
  const parts = Object.keys(expected);
  const partsCorrect = parts.filter(
    (part) => typeof given[part] === "string" && normaliseAnswerText(given[part]) === normaliseAnswerText(expected[part]),
  ).length;
  return { correct: partsCorrect === parts.length, partsCorrect, parts: parts.length };
}

/** A choice as one line: "Yes", "A=right; C=left" (agreement values, tables, the replay). */
export function choiceText(choice: unknown): string {
  if (typeof choice === "string") return choice;
  if (isPlainObject(choice)) {
    return Object.keys(choice)
      .sort()
      .map((part) => `${part}=${String(choice[part])}`)
      .join("; ");
  }
  return "?";
}

export const esiMetrics: MetricSpec[] = [
  {
    id: "accuracy",
    label: "Accuracy (every part right)",
    type: "proportion",
    description: "Share of answers that equal the key in every part (the paper's correctness).",
  },
  {
    id: "partAccuracy",
    label: "Per-part accuracy",
    type: "ratio",
    description: "Parts answered right over parts asked, pooled over answers (equals accuracy for single questions).",
  },
];

export const esiAgreementEncodings: AgreementEncoding<EsiAnswer>[] = [
  {
    id: "esi-choice-nominal",
    label: "Each item a unit, nominal on the whole answer",
    level: "nominal",
    units: (answer) => [{ unit: "", value: choiceText(answer.choice) }],
  },
  {
    id: "esi-part-nominal",
    label: "Each sub-question a unit, nominal on its answer",
    level: "nominal",
    unitNoun: "sub-question",
    units: (answer) =>
      typeof answer.choice === "string"
        ? [{ unit: "", value: answer.choice }]
        : Object.keys(answer.choice)
            .sort()
            .map((part) => ({ unit: `part-${part}`, value: (answer.choice as Record<string, string>)[part] })),
  },
];

// ---------------------------------------------------------------------------------------------
// Model answers

const answerPrefix = /^\s*(?:final\s+)?answer\s*[:=]\s*/i;

/**
 * A model's answer: `{ choice, confidence?, steps?, condition? }` as Yardstick writes it; an object
 * with `answer` (and `confidence`), or with the release's `answer_A`, `answer_C` ... parts; JSON
 * text of any of these; else the text itself ("Answer: Yes" -> "Yes"). The scorer compares
 * trimmed and case-insensitive.
 */
export function parseEsiModelAnswer(raw: unknown): EsiAnswer | null {
  if (typeof raw === "string") {
    const text = raw.trim();
    if (text.startsWith("{")) {
      try {
        return parseEsiModelAnswer(JSON.parse(text));
      } catch {
        // not JSON: read it as text
      }
    }
    const stripped = text.replace(answerPrefix, "").trim();
    return stripped === "" ? null : { choice: stripped };
  }
  if (!isPlainObject(raw)) return null;
  const direct = esiAnswerSchema.safeParse(raw);
  if (direct.success) return direct.data;
  const confidence = typeof raw.confidence === "number" && raw.confidence >= 0 && raw.confidence <= 1 ? raw.confidence : undefined;
  const extras = {
    ...(confidence !== undefined ? { confidence } : {}),
    ...(typeof raw.condition === "string" ? { condition: raw.condition.slice(0, 40) } : {}),
    ...(Number.isInteger(raw.steps) && (raw.steps as number) >= 0 ? { steps: raw.steps as number } : {}),
  };
  if (raw.answer !== undefined) {
    const inner = parseEsiModelAnswer(raw.answer);
    return inner ? { ...inner, ...extras } : null;
  }
  const parts = Object.entries(raw).filter(([name, value]) => /^answer_[A-Za-z0-9_]+$/.test(name) && typeof value === "string");
  if (parts.length > 0) return { choice: Object.fromEntries(parts.map(([name, value]) => [name.slice("answer_".length), value as string])), ...extras };
  return null;
}

// ---------------------------------------------------------------------------------------------
// The episode (lib/annotate/play.ts runs it on the server)

export const esiSettingsSchema = z
  .strictObject({
    /** a live simulator (docs/esi.md, "Simulator protocol"); without it the items' exploration graphs are played */
    simulatorUrl: z.url({ protocol: /^https?$/, error: "an http(s) URL" }).optional(),
    /** per try, in ms */
    timeoutMs: z.number().int().min(200).max(20_000).optional(),
    /** tries after the first */
    retries: z.number().int().min(0).max(5).optional(),
  })
  .refine((s) => (s.timeoutMs ?? DEFAULT_SIMULATOR_TIMEOUT_MS) * ((s.retries ?? DEFAULT_SIMULATOR_RETRIES) + 1) <= MAX_SIMULATOR_BUDGET_MS, {
    message: `timeoutMs x (retries + 1) must stay within ${MAX_SIMULATOR_BUDGET_MS} ms (a step must finish inside its 30 s transaction)`,
  });
export type EsiSettings = z.infer<typeof esiSettingsSchema>;

/** What the annotator's browser receives from the play endpoint. */
export type EsiView =
  | { mode: "active"; source: "graph" | "simulator"; image: string; objects: string[]; holding: string[]; step: number; maxSteps: number; note?: string }
  | { mode: "passive-single" | "passive-multi" | "passive-gt"; images: string[]; note?: string };

/** One visited state of an episode (hidden: metrics only). */
export interface EsiTraceEntry {
  seq: number;
  valid: boolean;
  /** graph mode: the state id */
  node?: string;
  /** the camera position the state or the simulator names; null when it names none (never the state id) */
  viewpoint: string | null;
  contrastive: boolean;
}

/** Hidden episode state (Assignment.playState); never sent to the browser. */
export type EsiPlayState =
  | { mode: "passive"; condition: Exclude<EsiCondition, "active"> }
  | { mode: "graph"; node: string; steps: number; invalid: number; trace: EsiTraceEntry[] }
  | { mode: "simulator"; episodeId: string; steps: number; invalid: number; trace: EsiTraceEntry[]; image: string; objects: string[]; holding: string[] };

function settingsOf(context: PlayContext): EsiSettings {
  const parsed = esiSettingsSchema.safeParse(context.settings ?? {});
  if (!parsed.success)
    throw new AppError(
      "INVALID",
      `This study's esi-explore settings are invalid (${parsed.error.issues.map((i) => `${i.path.join(".") || "settings"}: ${i.message}`).join("; ")}); tell the research team.`,
    );
  return parsed.data;
}

function simulatorOptions(settings: EsiSettings): SimulatorOptions {
  return { baseUrl: settings.simulatorUrl!, timeoutMs: settings.timeoutMs, retries: settings.retries };
}

function distinct(images: readonly string[]): string[] {
  return [...new Set(images)];
}

const maxStepsOf = (item: EsiItem) => item.public.maxSteps ?? ESI_DEFAULT_MAX_STEPS;

/** A graph of the initial view alone (items without a graph, e.g. imported release questions). */
function graphOf(item: EsiItem): { graph: EsiGraph; synthetic: boolean } {
  if (item.key.graph) return { graph: item.key.graph, synthetic: false };
  return {
    graph: { initial: "initial", states: { initial: { image: item.public.initialImage, objects: [], contrastive: false } }, edges: {} },
    synthetic: true,
  };
}

function activeGraphView(item: EsiItem, graph: EsiGraph, node: string, steps: number, note?: string): EsiView {
  const state = stateOf(graph, node);
  return {
    mode: "active",
    source: "graph",
    image: state.image,
    objects: [...state.objects],
    holding: [...(state.holding ?? [])],
    step: steps,
    maxSteps: maxStepsOf(item),
    ...(note ? { note } : {}),
  };
}

function passiveStart(item: EsiItem, condition: Exclude<EsiCondition, "active">, context: PlayContext): PlayResult<EsiPlayState, EsiView> {
  const initial = item.public.initialImage;
  const max = maxStepsOf(item);
  let images: string[] = [initial];
  let note: string | undefined;
  if (condition === "passive-multi") {
    if (item.key.views?.multi?.length) images = distinct([initial, ...item.key.views.multi]);
    else if (item.key.graph)
      images = randomWalkStates(item.key.graph, max, `${context.assignmentId}|passive-multi`).map((node) => item.key.graph!.states[node].image);
    else note = "This item has no other views: answer from the initial view.";
    images = images.slice(0, max + 1);
  } else if (condition === "passive-gt") {
    if (item.key.views?.gt?.length) images = distinct([initial, ...item.key.views.gt]);
    else note = "This item has no reference views: answer from the initial view.";
  }
  return { state: { mode: "passive", condition }, view: { mode: condition, images, ...(note ? { note } : {}) }, valid: true };
}

function conditionOf(context: PlayContext): EsiCondition {
  const condition = effectiveCondition(context.condition);
  if (condition === null)
    throw new AppError(
      "INVALID",
      `This study's condition ${JSON.stringify(context.condition)} is not an ESI-Bench condition (${ESI_CONDITIONS.join(", ")}); tell the research team.`,
    );
  return condition;
}

async function startEpisode(item: EsiItem, context: PlayContext): Promise<PlayResult<EsiPlayState, EsiView>> {
  const condition = conditionOf(context);
  if (condition !== "active") return passiveStart(item, condition, context);
  const settings = settingsOf(context);
  if (settings.simulatorUrl) {
    const reply = await startSimulatorEpisode(simulatorOptions(settings), {
      itemId: item.id,
      assignmentId: context.assignmentId,
      scene: item.key.start?.scene ?? (typeof item.tags.scene === "string" ? item.tags.scene : null),
      room: item.key.start?.room ?? (typeof item.tags.room === "string" ? item.tags.room : null),
      initialPose: item.key.start?.pose ?? null,
    });
    const trace: EsiTraceEntry[] = [{ seq: 0, valid: true, viewpoint: reply.viewpoint ?? null, contrastive: reply.contrastive ?? false }];
    const holding = reply.holding ?? [];
    return {
      state: { mode: "simulator", episodeId: reply.episodeId, steps: 0, invalid: 0, trace, image: reply.image, objects: reply.objects, holding },
      view: { mode: "active", source: "simulator", image: reply.image, objects: reply.objects, holding, step: 0, maxSteps: maxStepsOf(item) },
      valid: true,
    };
  }
  const { graph, synthetic } = graphOf(item);
  const node = graph.initial;
  const trace: EsiTraceEntry[] = [{ seq: 0, valid: true, node, viewpoint: viewpointOf(graph, node), contrastive: graph.states[node].contrastive }];
  return {
    state: { mode: "graph", node, steps: 0, invalid: 0, trace },
    view: activeGraphView(item, graph, node, 0, synthetic ? "This item has no exploration graph: every action answers “cannot do that here”." : undefined),
    valid: true,
  };
}

async function stepEpisode(
  item: EsiItem,
  state: EsiPlayState,
  action: EsiAction,
  context: PlayContext & { seq: number },
): Promise<PlayResult<EsiPlayState, EsiView>> {
  if (!state || typeof state !== "object" || !("mode" in state)) throw new AppError("CONFLICT", "The episode has no state: reload the item");
  if (state.mode === "passive") throw new AppError("INVALID", "In this condition there is no exploring: answer from the views shown.");
  const max = maxStepsOf(item);
  if (state.steps >= max) throw new AppError("INVALID", `The step budget of ${max} is used up: give your final answer.`);
  const steps = state.steps + 1;
  if (state.mode === "simulator") {
    const reply = await stepSimulatorEpisode(simulatorOptions(settingsOf(context)), state.episodeId, { action: actionKey(action), seq: context.seq });
    const holding = reply.holding ?? [];
    const trace = [...state.trace, { seq: context.seq, valid: reply.valid, viewpoint: reply.viewpoint ?? null, contrastive: reply.contrastive ?? false }];
    // a refused action leaves the view as it was, whatever the simulator sends back
    const shown = reply.valid
      ? { image: reply.image, objects: reply.objects, holding }
      : { image: state.image, objects: state.objects, holding: state.holding };
    return {
      state: { ...state, ...shown, steps, invalid: state.invalid + (reply.valid ? 0 : 1), trace },
      view: { mode: "active", source: "simulator", ...shown, step: steps, maxSteps: max },
      valid: reply.valid,
      ...(reply.valid ? (reply.message ? { message: reply.message } : {}) : { message: reply.message || CANNOT_DO_THAT }),
    };
  }
  const { graph } = graphOf(item);
  const moved = stepGraph(graph, state.node, action);
  const target = graph.states[moved.node];
  const trace = [
    ...state.trace,
    { seq: context.seq, valid: moved.valid, node: moved.node, viewpoint: viewpointOf(graph, moved.node), contrastive: target.contrastive },
  ];
  return {
    state: { mode: "graph", node: moved.node, steps, invalid: state.invalid + (moved.valid ? 0 : 1), trace },
    view: activeGraphView(item, graph, moved.node, steps),
    valid: moved.valid,
    ...(moved.message ? { message: moved.message } : {}),
  };
}

export const esiInteractive: InteractiveTask<EsiPublic, EsiKey, EsiPlayState, EsiAction, EsiView> = {
  actionSchema: esiActionSchema,
  start: startEpisode,
  step: stepEpisode,
};

// ---------------------------------------------------------------------------------------------
// The agent contract

/** The step budget an active play view shows (0 when it shows none). */
function stepBudget(playView: Json): number {
  const maxSteps = viewField(playView, "maxSteps");
  return typeof maxSteps === "number" ? maxSteps : 0;
}

/** The trivial policy's moves: two turns and a step, within the item's budget. */
const EXAMPLE_MOVES = ["turn_left", "turn_left", "move_forward"] as const;

export const esiAgentContract: KindAgentContract<EsiAnswer, EsiAction> = {
  answerInstructions:
    "The view holds a question about a scene (question), its options (a list, or a map of parts to lists, each part asking what parts[part] says), the first view (initialImage, initialObjects) and the step budget (maxSteps). " +
    'Explore first through the play endpoint when the study lets you (the play view\'s mode "active"; in the passive modes the play view shows images to look at), then answer {"choice": "<one option, verbatim>"}, ' +
    'or {"choice": {"<part>": "<one of its options>", ...}} for a question with parts. The server adds the steps it recorded.',
  actionInstructions:
    'One action: {"name": ..., "args": [...]}. Movement and turning take no args (move_forward, move_backward, move_left, move_right, move_up, move_down, turn_left, turn_right, turn_up, turn_down); ' +
    "object actions name objects of the current view (its objects and holding): pick_up(object), put_inside(object, container), put_on(object, surface), fill(container), pour(what, from, to). " +
    "A refused action leaves the view as it was and still counts as a step. Stop before step maxSteps and answer.",
  /** the first option (of each part) */
  exampleAnswer: (view) => {
    const options = viewField(view, "options");
    if (Array.isArray(options)) return typeof options[0] === "string" ? { choice: options[0] } : null;
    const parts = viewObject(view, "options");
    if (!parts) return null;
    const choice: Record<string, string> = {};
    for (const [part, list] of Object.entries(parts)) {
      if (!Array.isArray(list) || typeof list[0] !== "string") return null;
      choice[part] = list[0];
    }
    return { choice };
  },
  /** two turns and a step in an active episode (within maxSteps), then answer */
  exampleAction: (_view, playView, stepsTaken) => {
    if (viewField(playView, "mode") !== "active") return null;
    const budget = Math.min(EXAMPLE_MOVES.length, stepBudget(playView));
    return stepsTaken < budget ? { name: EXAMPLE_MOVES[stepsTaken], args: [] } : null;
  },
  /** an active episode within its step budget (a passive condition takes no action) */
  canAct: (playView, stepsTaken) => viewField(playView, "mode") === "active" && stepsTaken < stepBudget(playView),
};

// ---------------------------------------------------------------------------------------------
// The module

export const esiExploreModule: TaskModule<EsiPublic, EsiKey, EsiAnswer, EsiScore> = {
  kind: "esi-explore",
  title: "ESI-Bench: explore, then answer",
  benchmark: ESI_BENCHMARK,
  defaultConfidenceScale: { scale: "PERCENT", reason: "ESI-Bench asks for confidence c in [0, 1] (App. E)" },
  replay: () => import("@/lib/tasks/esi-explore/replay").then((m) => m.replay),
  publicSchema: esiPublicSchema,
  keySchema: esiKeySchema,
  itemSchema: esiItemSchema,
  answerSchema: esiAnswerSchema,
  answerSchemaFor: (item) =>
    esiAnswerSchema.superRefine((answer, ctx) => {
      const problem = choiceProblem(answer.choice, item.public.options);
      if (problem) ctx.addIssue({ code: "custom", path: ["choice", ...problem.path], message: problem.message });
    }),

  mapImages(item, replace) {
    const { graph, views } = item.key;
    return {
      public: { ...item.public, initialImage: replace(item.public.initialImage) },
      key: {
        ...item.key,
        ...(graph
          ? {
              graph: {
                ...graph,
                states: Object.fromEntries(Object.entries(graph.states).map(([id, state]) => [id, { ...state, image: replace(state.image) }])),
              },
            }
          : {}),
        ...(views ? { views: { ...(views.multi ? { multi: views.multi.map(replace) } : {}), ...(views.gt ? { gt: views.gt.map(replace) } : {}) } } : {}),
      },
    };
  },

  /** The question, its options, the budget and the initial view with its objects: nothing else of the graph. */
  publicView(item: EsiItem): Json {
    const pub = item.public;
    const initial = item.key.graph ? item.key.graph.states[item.key.graph.initial] : undefined;
    return {
      question: pub.question,
      options: (Array.isArray(pub.options)
        ? [...pub.options]
        : Object.fromEntries(Object.entries(pub.options).map(([part, list]) => [part, [...list]]))) as Json,
      ...(pub.parts ? { parts: { ...pub.parts } } : {}),
      initialImage: pub.initialImage,
      initialObjects: initial ? [...initial.objects] : [],
      maxSteps: maxStepsOf(item),
    };
  },

  keyAnswer: (key) => ({ choice: key.answer }),
  score: (answer, key) => scoreEsi(answer, key),
  correct: (score) => score.correct,
  aggregate(scores) {
    const parts = scores.reduce((sum, s) => sum + s.parts, 0);
    return { accuracy: share(scores.map((s) => s.correct)), partAccuracy: parts === 0 ? null : scores.reduce((sum, s) => sum + s.partsCorrect, 0) / parts };
  },
  metrics: esiMetrics,
  headlineMetric: "accuracy",
  agreementEncodings: esiAgreementEncodings,

  reviewView(item: EsiItem): Json {
    const graph = item.key.graph;
    const states = graph ? Object.entries(graph.states) : [];
    return {
      answer: item.key.answer as Json,
      maxSteps: maxStepsOf(item),
      graph: graph
        ? {
            states: states.length,
            actions: Object.values(graph.edges).reduce((sum, edges) => sum + Object.keys(edges).length, 0),
            viewpoints: new Set(states.map(([id]) => viewpointOf(graph, id)).filter((v) => v !== null)).size,
            statesWithoutViewpoint: states.filter(([id]) => viewpointOf(graph, id) === null).length,
            initial: graph.initial,
            contrastiveStates: states.filter(([, s]) => s.contrastive).map(([id, s]) => ({ id, image: s.image, note: s.note ?? null })),
          }
        : null,
      referenceViews: item.key.views?.gt ? [...item.key.views.gt] : [],
      multiViews: item.key.views?.multi ? [...item.key.views.multi] : [],
      start: (item.key.start ?? null) as Json,
    };
  },

  parseModelAnswer: parseEsiModelAnswer,
  /**
   * The paper's table has a column per condition (Table 2): an assignment without a condition is
   * played actively; an imported prediction's condition is its answer's, else its run's name's.
   */
  conditions: {
    ofAssignment: (condition) => effectiveCondition(condition) ?? condition,
    ofPrediction: predictionCondition,
    label: conditionLabel,
    compare: compareConditions,
  },
  settingsSchema: esiSettingsSchema as unknown as z.ZodType<Record<string, unknown>>,
  interactive: esiInteractive,
  agent: esiAgentContract,

  /** The stored answer counts the actions the server recorded, not what the browser claims. */
  playAnswer(answer, steps) {
    if (!isPlainObject(answer)) return answer;
    const { steps: _claimed, condition: _condition, ...rest } = answer;
    return { ...rest, steps: steps.length };
  },
};

export { isEsiCondition };
