import { z } from "zod";
import { compileRules, goalHolds, runAction, type Engine } from "@/lib/tasks/ego2world-play/engine";
import { aggregateEpisodeScores, playTasks, scoreEpisode, type EpisodeAnswer, type EpisodeScore, type EpisodeSpec } from "@/lib/tasks/ego2world-play/metrics";
import { observe, type SeenObject } from "@/lib/tasks/ego2world-play/observe";
import { normaliseAction } from "@/lib/tasks/ego2world-play/syntax";
import { validateEpisode } from "@/lib/tasks/ego2world-play/validate";
import { cloneWorld, type World } from "@/lib/tasks/ego2world-play/world";
import { viewArray, viewField } from "@/lib/tasks/shared/view-fields";
import type {
  AgreementEncoding,
  InteractiveTask,
  Json,
  KindAgentContract,
  MetricSpec,
  PlayContext,
  PlayedStep,
  PlayResult,
  TaskItem,
  TaskModule,
} from "@/lib/tasks/types";

/**
 * Ego2World play (`ego2world-play`; ../shared/benchmarks/ego2world.md): one item is one
 * episode of an executable symbolic kitchen. The hidden world, its rules and skills and the tasks'
 * goals and references are the key; the server runs the world (`interactive`), the person sees
 * only the current area's image, the objects there, the hand, a change summary and the feedback
 * line. Scored like the paper's agents (lib/tasks/ego2world-play/metrics.ts): TSR, TCR, F1, WSR, validity.
 */

export const EGO2WORLD_BENCHMARK = "Ego2World";

const wordSchema = z.string().regex(/^[A-Za-z0-9_]+$/, "a word: letters, digits and _");
const valueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const actionTextSchema = z.string().trim().min(1, "an action is name(arg, ...)").max(300, "an action has at most 300 characters");

export const ego2worldPublicSchema = z.strictObject({
  title: z.string().min(1, "an episode needs a title").max(300),
  /** area name -> its reference image (path relative to the batch) */
  areas: z
    .record(wordSchema, z.strictObject({ image: z.string().min(1, "an area needs an image path") }))
    .refine((areas) => Object.keys(areas).length > 0, "an episode needs at least one area"),
  startArea: wordSchema,
  tasks: z
    .array(z.strictObject({ id: z.string().min(1).max(100), instruction: z.string().min(1, "a task needs an instruction").max(2000) }))
    .min(1, "an episode needs at least one task")
    .max(50),
  /** the palette: primitives and skills a person may use */
  actions: z
    .array(z.strictObject({ name: wordSchema, params: z.array(wordSchema).max(8) }))
    .min(1, "the palette needs at least one action")
    .max(100),
});
export type Ego2worldPublic = z.infer<typeof ego2worldPublicSchema>;

const worldObjectSchema = z.strictObject({
  label: z.string().min(1),
  area: valueSchema,
  in: valueSchema.default(null),
  on: valueSchema.default(null),
  amount: valueSchema.default(0),
  state: z.record(z.string(), valueSchema).default({}),
});

export const worldSchema = z.strictObject({
  agent: z.strictObject({ area: wordSchema, hand: z.string().nullable().default(null) }),
  objects: z.record(z.string(), worldObjectSchema),
  gone: z.array(z.string()).optional(),
});

export const ego2worldKeySchema = z.strictObject({
  world: worldSchema,
  rules: z
    .array(
      z.strictObject({ action: z.string(), params: z.array(z.string()).max(8), pre: z.array(z.string()).default([]), eff: z.array(z.string()).default([]) }),
    )
    .min(1, "an episode needs at least one rule"),
  skills: z
    .array(z.strictObject({ name: z.string(), params: z.array(z.string()).max(8), steps: z.array(z.string()).min(1, "a skill needs at least one step") }))
    .default([]),
  tasks: z.array(
    z.strictObject({
      id: z.string().min(1).max(100),
      goal: z.array(z.string()).min(1, "a task needs at least one goal predicate"),
      keyActions: z.array(z.string()).default([]),
      reference: z.array(z.string()).max(1000),
    }),
  ),
});
export type Ego2worldKey = z.infer<typeof ego2worldKeySchema>;

/** The whole item: the shapes, then every rule readable and every reference accepted and reaching its goals. */
export const ego2worldItemSchema = z.strictObject({ public: ego2worldPublicSchema, key: ego2worldKeySchema }).superRefine((item, ctx) => {
  for (const issue of validateEpisode(item.public, item.key as EpisodeSpec)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
});

const answerTaskSchema = z.strictObject({ id: z.string().min(1).max(100), actions: z.array(actionTextSchema).max(1000, "at most 1000 actions a task") });

export const ego2worldAnswerSchema = z.strictObject({ tasks: z.array(answerTaskSchema).max(50) }).superRefine((answer, ctx) => {
  const seen = new Set<string>();
  answer.tasks.forEach((task, i) => {
    if (seen.has(task.id)) ctx.addIssue({ code: "custom", path: ["tasks", i, "id"], message: `task ${JSON.stringify(task.id)} appears twice` });
    seen.add(task.id);
  });
});
export type Ego2worldAnswer = EpisodeAnswer;
export type Ego2worldScore = EpisodeScore;

export const ego2worldSettingsSchema = z.strictObject({
  /** after "Done with this task", tell the person whether the task's goal holds (default: never) */
  revealSuccess: z.boolean().default(false),
});

type EgoItem = TaskItem<Ego2worldPublic, Ego2worldKey>;

/** The episode as the engine and the scorer take it (areas from the public part). */
export function episodeSpec(item: { public: Ego2worldPublic; key: Ego2worldKey }): EpisodeSpec {
  return { ...(item.key as Omit<EpisodeSpec, "areas">), areas: Object.keys(item.public.areas) };
}

const engines = new WeakMap<object, Engine>();
/** One compiled engine per key object (a play step, a score). */
function engineFor(item: { public: Ego2worldPublic; key: Ego2worldKey }): Engine {
  let engine = engines.get(item.key);
  if (!engine) engines.set(item.key, (engine = compileRules(episodeSpec(item))));
  return engine;
}

// ---------------------------------------------------------------------------------------------
// Interactive play

export const ego2worldActionSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("act"), action: actionTextSchema }),
  z.strictObject({ type: z.literal("done") }),
]);
export type Ego2worldAction = z.infer<typeof ego2worldActionSchema>;

/** Hidden state kept on the server (Assignment.playState). */
export interface Ego2worldState {
  world: World;
  /** index of the current task; tasks.length when every task is done */
  task: number;
  /** actions taken in the current task */
  steps: number;
  feedback: Ego2worldFeedback | null;
  lastTask: { id: string; success: boolean } | null;
}

export interface Ego2worldFeedback {
  action: string;
  accepted: boolean;
  /** why not, when refused */
  message: string;
}

/** What the person sees after each step: never the world's states, the goals or the reference. */
export interface Ego2worldView {
  area: string;
  image: string | null;
  objects: SeenObject[];
  hand: SeenObject | null;
  changes: string[];
  feedback: Ego2worldFeedback | null;
  /** 0-based index of the current task; taskCount when finished */
  task: number;
  taskCount: number;
  instruction: string | null;
  finished: boolean;
  /** actions taken in the current task */
  steps: number;
  /** only when the study reveals success: the task just finished and whether its goal held */
  lastTask: { id: string; success: boolean } | null;
}

function viewOf(item: EgoItem, state: Ego2worldState, context: PlayContext): Ego2worldView {
  const observation = observe(item.key.world as World, state.world);
  const reveal = ego2worldSettingsSchema.safeParse(context.settings ?? {});
  const finished = state.task >= item.public.tasks.length;
  return {
    area: observation.area,
    image: item.public.areas[observation.area]?.image ?? null,
    objects: observation.objects,
    hand: observation.hand,
    changes: observation.changes,
    feedback: state.feedback,
    task: state.task,
    taskCount: item.public.tasks.length,
    instruction: finished ? null : item.public.tasks[state.task].instruction,
    finished,
    steps: state.steps,
    lastTask: reveal.success && reveal.data.revealSuccess ? state.lastTask : null,
  };
}

function result(item: EgoItem, state: Ego2worldState, context: PlayContext, valid: boolean, message: string): PlayResult<Ego2worldState, Ego2worldView> {
  return { state, view: viewOf(item, state, context), valid, message };
}

export const ego2worldInteractive: InteractiveTask<Ego2worldPublic, Ego2worldKey, Ego2worldState, Ego2worldAction, Ego2worldView> = {
  actionSchema: ego2worldActionSchema,
  start(item, context) {
    const state: Ego2worldState = { world: cloneWorld(item.key.world as World), task: 0, steps: 0, feedback: null, lastTask: null };
    return result(item, state, context, true, "");
  },
  step(item, state, action, context) {
    const total = item.public.tasks.length;
    if (state.task >= total) return result(item, state, context, false, "every task is done");
    if (action.type === "done") {
      const task = item.key.tasks[state.task];
      const success = task.goal.every((goal) => goalHolds(goal, state.world));
      const next: Ego2worldState = { ...state, task: state.task + 1, steps: 0, feedback: null, lastTask: { id: task.id, success } };
      return result(item, next, context, true, next.task >= total ? "every task is done" : `task ${next.task + 1} of ${total}`);
    }
    const outcome = runAction(engineFor(item), state.world, action.action);
    const feedback: Ego2worldFeedback = { action: normaliseAction(action.action), accepted: outcome.accepted, message: outcome.feedback };
    const next: Ego2worldState = { ...state, world: outcome.world, steps: state.steps + 1, feedback };
    return result(item, next, context, outcome.accepted, outcome.accepted ? "ok" : outcome.feedback);
  },
};

/**
 * The agent contract. The trivial policy tries each task once: it picks up the first
 * thing in view, then says the task is done.
 */
export const ego2worldAgentContract: KindAgentContract<Ego2worldAnswer, Ego2worldAction> = {
  answerInstructions:
    "The view holds an episode in a kitchen: its title, its areas, the start area, the tasks in order (tasks: id, instruction) and the palette of actions (actions: name, params). " +
    'Play every task through the play endpoint, one action at a time; the server records the actions of each task and rebuilds the answer from them, so answer {"tasks": []} once the play view says finished.',
  actionInstructions:
    'One action: {"type": "act", "action": "name(arg, ...)"} with a name of the palette and its params filled with ids of the play view\'s objects (or area names), e.g. "pick_up(mug_1)"; ' +
    'or {"type": "done"} when the current task (the play view\'s instruction) is done: the next task starts. The play view shows the current area, its objects, the hand, what changed and the feedback on the last action.',
  exampleAnswer: () => ({ tasks: [] }),
  answerFromActions: true,
  canAct: (playView) => viewField(playView, "finished") !== true,
  exampleAction: (_view, playView) => {
    if (viewField(playView, "finished") === true) return null;
    const steps = viewField(playView, "steps");
    const first = viewArray(playView, "objects")?.[0];
    const id = viewField(first, "id");
    if ((steps === undefined || steps === 0) && typeof id === "string") return { type: "act", action: `pick_up(${id})` };
    return { type: "done" };
  },
};

/**
 * The answer as stored, from the steps the server recorded (the browser's claims are ignored):
 * each `act` step belongs to the task current when it was played; a `done` step moves on. Steps
 * after the last task (refused) belong to no task.
 */
export function ego2worldPlayAnswer(_answer: unknown, steps: PlayedStep[], item: EgoItem): Ego2worldAnswer {
  const tasks = item.public.tasks.map((task) => ({ id: task.id, actions: [] as string[] }));
  let current = 0;
  for (const step of [...steps].sort((a, b) => a.seq - b.seq)) {
    const action = ego2worldActionSchema.safeParse(step.action);
    if (!action.success || current >= tasks.length) continue;
    if (action.data.type === "done") current++;
    else tasks[current].actions.push(action.data.action);
  }
  return { tasks };
}

// ---------------------------------------------------------------------------------------------
// Scoring, metrics, agreement

export const ego2worldMetrics: MetricSpec[] = [
  {
    id: "TSR",
    label: "TSR (task success rate)",
    type: "ratio",
    description: "Share of tasks whose goal predicates all hold right after the task's actions (pooled over task units).",
  },
  {
    id: "TCR",
    label: "TCR (task completion rate)",
    type: "ratio",
    description: "Mean share of a task's key actions matched by accepted primitives (skills expanded), over tasks with key actions.",
  },
  { id: "F1", label: "F1 (action names)", type: "ratio", description: "Mean multiset F1 of action names (skills expanded) against the reference's, per task." },
  {
    id: "WSR",
    label: "WSR (world state recovery)",
    type: "ratio",
    description: "Mean share of the slots the reference changed in a task that end equal to the reference's, over tasks that change a slot.",
  },
  { id: "validity", label: "Validity", type: "ratio", description: "Share of submitted actions the simulator accepted (a skill counts once)." },
];

function isEpisodeScore(value: unknown): value is EpisodeScore {
  return value !== null && typeof value === "object" && Array.isArray((value as { tasks?: unknown }).tasks);
}

export const ego2worldAgreementEncodings: AgreementEncoding<Ego2worldAnswer>[] = [
  {
    id: "task-success-nominal",
    label: "Each task a unit, nominal: goal reached or not",
    level: "nominal",
    unitNoun: "task",
    needsContext: true,
    units: (_answer, context) =>
      context && isEpisodeScore(context.score)
        ? context.score.tasks.map((task) => ({ unit: `task-${task.id}`, value: task.success ? "success" : "fail" }))
        : [],
  },
  {
    id: "task-wsr-interval",
    label: "Each task a unit, interval on WSR",
    level: "interval",
    needsContext: true,
    units: (_answer, context) =>
      context && isEpisodeScore(context.score)
        ? context.score.tasks.flatMap((task) => (task.WSR === null ? [] : [{ unit: `task-${task.id}`, value: task.WSR }]))
        : [],
  },
];

const looseAnswerSchema = z.object({ tasks: z.array(z.object({ id: z.string().min(1), actions: z.array(z.string()) })) });

/**
 * An answer or an agent run's output: `{"tasks": [{"id", "actions"}]}`, the task list alone, an
 * object of task id -> actions, or JSON text of any of these. Null when none of these, or when a
 * task appears twice.
 */
export function parseEgo2worldAnswer(raw: unknown): Ego2worldAnswer | null {
  if (typeof raw === "string") {
    try {
      return parseEgo2worldAnswer(JSON.parse(raw) as unknown);
    } catch {
      return null;
    }
  }
  let candidate: unknown = raw;
  if (Array.isArray(raw)) candidate = { tasks: raw };
  else if (raw !== null && typeof raw === "object" && !("tasks" in raw)) {
    const entries = Object.entries(raw as Record<string, unknown>);
    if (entries.length > 0 && entries.every(([, actions]) => Array.isArray(actions))) candidate = { tasks: entries.map(([id, actions]) => ({ id, actions })) };
  }
  const loose = looseAnswerSchema.safeParse(candidate);
  if (!loose.success) return null;
  const answer = {
    tasks: loose.data.tasks.map((task) => ({ id: task.id, actions: task.actions.map((action) => action.trim()).filter((action) => action !== "") })),
  };
  return ego2worldAnswerSchema.safeParse(answer).success ? answer : null;
}

function scoreItem(answer: Ego2worldAnswer, key: Ego2worldKey, item: EgoItem): Ego2worldScore {
  const full = { public: item.public, key };
  return scoreEpisode(episodeSpec(full), answer, engineFor(full));
}

/** The reference replayed for reviewers: each action's outcome and the goals after each task. */
function referenceTrace(item: EgoItem): Json {
  const spec = episodeSpec(item);
  const played = playTasks(
    engineFor(item),
    spec.world,
    spec.tasks.map((task) => ({ id: task.id, actions: task.reference })),
  );
  return spec.tasks.map((task, i) => ({
    id: task.id,
    instruction: item.public.tasks[i]?.instruction ?? "",
    goal: task.goal.map((goal) => ({ goal, holds: goalHolds(goal, played[i].after) })),
    keyActions: task.keyActions,
    reference: task.reference.map((action, a) => ({ action, accepted: played[i].accepted[a], feedback: played[i].feedback[a] })),
    observation: observe(spec.world, played[i].after) as unknown as Json,
  }));
}

export const ego2worldPlayModule: TaskModule<Ego2worldPublic, Ego2worldKey, Ego2worldAnswer, Ego2worldScore> = {
  kind: "ego2world-play",
  title: "Ego2World: play a symbolic kitchen",
  benchmark: EGO2WORLD_BENCHMARK,
  publicSchema: ego2worldPublicSchema,
  keySchema: ego2worldKeySchema,
  itemSchema: ego2worldItemSchema as unknown as z.ZodType<{ public: Ego2worldPublic; key: Ego2worldKey }>,
  answerSchema: ego2worldAnswerSchema,
  answerSchemaFor(item) {
    const ids = new Set(item.public.tasks.map((task) => task.id));
    return ego2worldAnswerSchema.superRefine((answer, ctx) => {
      answer.tasks.forEach((task, i) => {
        if (!ids.has(task.id))
          ctx.addIssue({
            code: "custom",
            path: ["tasks", i, "id"],
            message: `unknown task ${JSON.stringify(task.id)}; the episode's tasks are ${[...ids].join(", ")}`,
          });
      });
    });
  },

  mapImages(item, replace) {
    const areas = Object.fromEntries(Object.entries(item.public.areas).map(([name, area]) => [name, { ...area, image: replace(area.image) }]));
    return { public: { ...item.public, areas }, key: item.key };
  },

  publicView(item): Json {
    const pub = item.public;
    return {
      title: pub.title,
      areas: Object.fromEntries(Object.entries(pub.areas).map(([name, area]) => [name, { image: area.image }])),
      startArea: pub.startArea,
      tasks: pub.tasks.map((task) => ({ id: task.id, instruction: task.instruction })),
      actions: pub.actions.map((action) => ({ name: action.name, params: [...action.params] })),
    };
  },

  score: scoreItem,
  correct: (score) => score.tasks.length > 0 && score.tasks.every((task) => task.success),
  aggregate: (scores) => aggregateEpisodeScores(scores),
  metrics: ego2worldMetrics,
  headlineMetric: "TSR",
  agreementEncodings: ego2worldAgreementEncodings,
  keyAnswer: (key) => ({ tasks: key.tasks.map((task) => ({ id: task.id, actions: [...task.reference] })) }),

  reviewView(item): Json {
    return {
      world: item.key.world as unknown as Json,
      rules: item.key.rules as unknown as Json,
      skills: item.key.skills as unknown as Json,
      tasks: referenceTrace(item),
    };
  },

  parseModelAnswer: parseEgo2worldAnswer,
  settingsSchema: ego2worldSettingsSchema as unknown as z.ZodType<Record<string, unknown>>,
  interactive: ego2worldInteractive,
  agent: ego2worldAgentContract,
  playAnswer: (answer, steps, item) => ego2worldPlayAnswer(answer, steps, item),
};
