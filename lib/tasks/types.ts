import type { KindReplayData } from "@/lib/tasks/replay-port";
import type { z } from "zod";
import type { ModelPredictionsLoader, StudySnapshot } from "@/lib/dashboard/types";
import type { ModelRunSummary } from "@/lib/models/types";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";
import type { KindScoringHooks } from "@/lib/scoring/kind-scoring";
import type { ImportIssue, ItemLine, ItemsFile } from "@/lib/import/types";
import type { KindDashboardData } from "@/lib/tasks/dashboard-port";

/**
 * The task-kind contract (DESIGN.md). One module per benchmark task kind; every module is pure:
 * no React, no database, no routes, so the same scorer runs in a route handler, the CLI and tests.
 */

/** JSON value as stored in Postgres jsonb columns. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** An item as stored: `public` is what an annotator may see, `key` is the answer key. */
export interface TaskItem<Public = unknown, Key = unknown> {
  id: string; // external id from items.jsonl
  kind: string;
  public: Public;
  key: Key;
  tags: Record<string, string | number | boolean>;
}

/** One metric a kind reports at dataset level, e.g. ENACT's TA and PA. */
export interface MetricSpec {
  id: string; // key in aggregate() output, e.g. "TA"
  label: string; // "Task accuracy"
  /** proportion: a mean of 0/1 per item (Wilson interval); ratio: a micro-average (bootstrap interval) */
  type: "proportion" | "ratio";
  description: string;
  /**
   * How the value is shown: "fraction" (the default) is a 0-1 value shown in percent (x 100);
   * "points" is already on its display scale (EXPLORE's S_obj 0-100, S_att 0-5) and is shown as is.
   */
  scale?: "fraction" | "points";
  /** "points": the scale's ends, named beside the metric on shared cards (EXPLORE's S_obj 0-100, S_att 0-5) */
  range?: readonly [number, number];
}

/** Krippendorff levels of measurement plus kind-specific distances. */
export type AgreementLevel = "nominal" | "ordinal" | "interval" | "ratio";

/**
 * How an answer becomes values for Krippendorff's alpha. A kind may offer several encodings
 * (ENACT: each slot as a unit, or each item as a unit with a permutation distance); dashboards
 * name the encoding they used.
 */
export interface AgreementEncoding<Answer = unknown> {
  id: string; // "slot-nominal", "item-kendall"
  label: string; // shown on dashboards
  /** a standard level, or a custom squared-distance-like function between two values */
  level: AgreementLevel | "custom";
  distance?: (a: string | number, b: string | number) => number;
  /**
   * unit suffix ("" for item-level units, "slot-2" for slot units) -> value. `context` (added for
   * GridWM-Judge) carries the item's key and the answer's score for encodings that code the score
   * rather than the answer (Task B's interval encoding of componentScore); such encodings set
   * `needsContext` and return no units when it is missing.
   */
  units(answer: Answer, context?: AgreementContext): Array<{ unit: string; value: string | number }>;
  /** Optional (added for GridWM-Judge): true when units() needs its `context` argument. */
  needsContext?: boolean;
  /**
   * Optional: what one unit is when an item holds several ("slot", "check"), for the
   * count of units all answers agree on; absent, the item is the unit and only items are counted.
   * A plural is made by adding "s".
   */
  unitNoun?: string;
  /**
   * Optional: the values are orderings written "2,0,1" and `distance` is the normalised Kendall
   * tau distance (other lengths at 1), so the dashboard computes the custom level with
   * lib/stats/kendall-permutation-alpha.ts instead of the general O(V^2) algorithm.
   */
  kendallPermutations?: boolean;
}

/** What an encoding with `needsContext` is given besides the answer (the caller scores it first). */
export interface AgreementContext<Key = unknown, Score = unknown> {
  key: Key;
  score: Score;
}

/**
 * One scored answer with what dataset metrics beyond a mean of per-item scores need (added for
 * GridWM-Judge: JAcc_neu needs the item's tags, JCR's probe families the tags and who answered).
 */
export interface ScoredAnswer<Answer = unknown, Score = unknown> {
  itemId: string;
  tags: Record<string, string | number | boolean>;
  answer: Answer;
  score: Score;
  /**
   * Who answered: an annotator id, or a model run's name. Rows without one are taken as one
   * anonymous judge (one answers file, one model run).
   */
  annotator?: string | null;
}

/**
 * A model output parsed as the benchmark's authors parse it (added for GridWM-Judge, after
 * GridWM_Judge's `scripts/score_exam.py`): `strict` when the text is exactly an answer,
 * `recoverable` when an answer had to be found inside it, `fail` when none could be read.
 */
export interface ModelAnswerParse<Answer = unknown> {
  answer: Answer | null;
  mode: "strict" | "recoverable" | "fail";
  /** why parsing failed, e.g. "no A-D letter", "not JSON", "JSON but not an object" */
  reason?: string;
}

/** What an interactive kind's start and step are told besides the item (lib/annotate/play.ts). */
export interface PlayContext {
  assignmentId: string;
  /** the study condition of this assignment (Study.conditions), null when the study has none */
  condition: string | null;
  /** the study's settings for this kind: Study.taskSettings[kind] ({} when unset) */
  settings: Record<string, unknown>;
}

/** The outcome of starting an episode or of one action in it. */
export interface PlayResult<State = unknown, View = unknown> {
  /** hidden episode state: stored in Assignment.playState on the server, never sent to the browser */
  state: State;
  /** what the annotator sees now (JSON); never any part of the key beyond the current observation */
  view: View;
  /** false: the action was refused ("cannot do that here"); it still counts as a step */
  valid: boolean;
  /** the feedback line */
  message?: string;
}

/**
 * Optional part of a task module (added for ESI-Bench and Ego2World): an item that is played step
 * by step on the server. lib/annotate/play.ts starts the episode on first view (seq 0), applies each action
 * once (a retried step with the same seq gets the stored result) and keeps the state server-side;
 * GET/POST /api/annotate/assignments/[id]/play expose it to the annotator. May be async (a remote
 * simulator).
 */
export interface InteractiveTask<Public = unknown, Key = unknown, State = unknown, Action = unknown, View = unknown> {
  actionSchema: z.ZodType<Action>;
  start(item: TaskItem<Public, Key>, context: PlayContext): PlayResult<State, View> | Promise<PlayResult<State, View>>;
  step(
    item: TaskItem<Public, Key>,
    state: State,
    action: Action,
    context: PlayContext & { seq: number },
  ): PlayResult<State, View> | Promise<PlayResult<State, View>>;
}

/**
 * Optional part of a task module: what a model agent is told about
 * answering the kind's items, from the kind's own folder. Shared code (lib/tasks/agent-contract.ts)
 * publishes it with the JSON Schemas of `answerSchema` and `interactive.actionSchema` to callers
 * with an API token (GET next, the play endpoints; docs/api.md, "The agent contract"), so that an
 * agent branches on no kind id. Everything here is computed from what the agent already sees, the
 * public view (publicView's output) and the play view, never from the key. A kind without it still
 * works: its agents get the answer's JSON Schema, the title as instructions and no example.
 */
export interface KindAgentContract<Answer = unknown, Action = unknown> {
  /** what an answer means, in plain text for a model's prompt (a few sentences) */
  answerInstructions: string;
  /** interactive kinds: what an action means, in plain text */
  actionInstructions?: string;
  /**
   * The answer's schema in a study with these settings (Study.taskSettings[kind] parsed with the
   * kind's settingsSchema), when it is not `answerSchema` (EXPLORE's free text mode). Never the
   * item: the schema an agent is shown must not depend on the key.
   */
  answerSchemaIn?(settings: Record<string, unknown>): z.ZodType;
  /** a trivial valid answer from the public view alone (a baseline that needs no model); null when there is none */
  exampleAnswer?(view: Json): Answer | null;
  /**
   * Interactive kinds: a trivial next action from the public view, the current play view and the
   * steps taken so far (the last step's seq); null: stop acting and answer.
   */
  exampleAction?(view: Json, playView: Json, stepsTaken: number): Action | null;
  /**
   * Interactive kinds: whether the episode takes another action now (false in a passive condition,
   * once the step budget is spent, once every task is done), from the play view and the steps
   * taken; an agent that acts anyway is refused. Default: true.
   */
  canAct?(playView: Json, stepsTaken: number): boolean;
  /**
   * Interactive kinds: the server builds the whole answer from the recorded actions (playAnswer),
   * so an agent submits `exampleAnswer` as it is, with nothing to decide (Ego2World).
   */
  answerFromActions?: boolean;
}

/** One stored step of an episode as the kind's playAnswer sees it. */
export interface PlayedStep {
  seq: number;
  action: unknown;
  valid: boolean;
}

/**
 * How the assignment queue (lib/assignment) treats a kind's items. `family`: items that share the
 * values of `tags` form a family (a base case) that goes to the same annotator(s), e.g.
 * GridWM-Judge's probes of one storyboard; items without the `required` tag, gold and practice
 * items are ordinary items. `minGap(settings)`: at least this many other items between two members
 * of one family in a person's queue, from the study's settings of the kind (Study.taskSettings[kind]
 * parsed with its settingsSchema, lib/tasks kindSettings), e.g. GridWM-Judge's `probeMinGap`.
 */
export interface TaskAssignmentRules {
  family?: { tags: readonly string[]; required: string; minGap(settings: Record<string, unknown>): number };
}

/**
 * How a kind reads study conditions (Study.conditions, an answer's Assignment.condition) in the
 * dashboard's figures, which show each condition apart (added for ESI-Bench, whose table has a
 * column per condition). Kinds without it take an assignment's condition as it is, and imported
 * model predictions as of no condition.
 */
export interface KindConditions {
  /** the condition an answer counts under, from its assignment's (null: the study has none); null: none */
  ofAssignment(condition: string | null): string | null;
  /** the condition of an imported model prediction, from its answer or its run's name; null: none named */
  ofPrediction(answer: unknown, runName: string): string | null;
  /** the condition in words, e.g. "Active exploration" */
  label(condition: string): string;
  /** the order of the benchmark's table */
  compare(a: string, b: string): number;
}

/** The importer's path -> URL rewrite given to mapImages: images by the call, videos by `.video` when present. */
export type AssetReplace = ((ref: string) => string) & { video?: (ref: string) => string };

export interface TaskModule<Public = unknown, Key = unknown, Answer = unknown, Score = unknown> {
  kind: string;
  /** human-readable name, e.g. "ENACT forward world modeling" */
  title: string;
  benchmark: string; // "ENACT"
  publicSchema: z.ZodType<Public>;
  keySchema: z.ZodType<Key>;
  answerSchema: z.ZodType<Answer>;
  /**
   * Optional (added for ENACT): the whole item, public and key together, with the checks that span
   * both (e.g. as many candidates as key.order entries). It includes publicSchema and keySchema,
   * so importers run it instead of them when present; issue paths start with "public" or "key".
   */
  itemSchema?: z.ZodType<{ public: Public; key: Key }>;
  /**
   * Optional (added for ENACT): the strict answer schema for one item (e.g. a permutation of the
   * item's length), for what annotators submit; answerSchema alone cannot see the item.
   */
  answerSchemaFor?(item: TaskItem<Public, Key>, settings?: Record<string, unknown>): z.ZodType<Answer>;
  /**
   * Every image and video reference in the item (public and key), so the importer can validate and
   * store them, and rewrite them to served URLs. Returns the item with each reference replaced.
   * A video goes through `replace.video(ref)` when the importer gives it (it then checks an MP4 or
   * WebM video and probes its container: lib/import/video-check.ts); `replace(ref)` is an image.
   * lib/tasks/shared/media mapMedia does this for the shared stimulus.
   */
  mapImages(item: { public: Public; key: Key }, replace: AssetReplace): { public: Public; key: Key };
  /**
   * Exactly what the annotator's browser may receive. Never any part of the key. `settings` (added
   * for EXPLORE's free text mode) is the study's Study.taskSettings[kind] (lib/tasks kindSettings),
   * also given to answerSchemaFor, so a kind can show and accept another answer form per study.
   */
  publicView(item: TaskItem<Public, Key>, settings?: Record<string, unknown>): Json;
  /** The benchmark's own per-item scores; also what `yardstick score` prints per item (plus id), unless scoreRow says otherwise. */
  score(answer: Answer, key: Key, item: TaskItem<Public, Key>): Score;
  /**
   * Optional (added for the generic kinds): the fields `yardstick score` prints for one score, when
   * the stored score holds more than the benchmark's row (choice keeps its option count, for chance,
   * and prints {correct, score}). Default: the whole score.
   */
  scoreRow?(score: Score): Record<string, unknown>;
  /**
   * Correctness of one scored answer (calibration, Wilson intervals, per-annotator accuracy); null
   * when the answer has none (an item without a key, an answer not graded yet): figures about
   * correctness leave it out and show how many they left out.
   */
  correct(score: Score): boolean | null;
  /**
   * Optional: the probability of a right answer by guessing on the answer's item, read from its
   * score (choice: 1/options). Calibration reads "guessing", the low end of the 1-5 confidence
   * scale, as this probability, linear to 1 at the top; kinds without it read it as 0.
   */
  chance?(score: Score): number | null;
  /** Dataset-level metrics, e.g. { TA, PA }; null where undefined (no items). */
  aggregate(scores: Score[]): Record<string, number | null>;
  /**
   * Optional (added for GridWM-Judge): the same metrics computed from answers with their item's
   * tags and who answered, for kinds whose metrics need them (Task C's JAcc_neu and JCR). Returns
   * the same keys as aggregate(). Callers with that context use `aggregateScoredAnswers` from
   * lib/tasks, which falls back to aggregate(scores) for kinds without it; aggregate() alone gives
   * null for metrics that need the context.
   */
  aggregateAnswers?(rows: ReadonlyArray<ScoredAnswer<Answer, Score>>): Record<string, number | null>;
  metrics: MetricSpec[];
  /**
   * Optional: the id of the metric (one of `metrics`) a paper states for this kind, the one people
   * and models are compared on (the dashboard's headline and comparison table, `yardstick
   * compare`). Default: the first metric.
   */
  headlineMetric?: string;
  agreementEncodings: AgreementEncoding<Answer>[];
  /**
   * Optional: the key as an answer of this kind (e.g. { choice: "C" }, { order }), shown to
   * annotators after a practice item (ResponseAck.feedback.answer, laid out by the kind's UI) and
   * to researchers beside a replay. Kinds without it show no key there.
   */
  keyAnswer?(key: Key): Answer;
  /** The answer key rendered for item reviewers (never for annotators). */
  reviewView(item: TaskItem<Public, Key>): Json;
  /**
   * Parse a model's raw prediction (imported model runs) into an answer. Answers of another shape
   * than answerSchema (e.g. a permutation of another length) are allowed here when the scorer
   * handles them. `item`: the item answered, when the caller has it (model-run imports, `yardstick
   * score`), for benchmarks whose released parser reads the item too (VSI-Bench's and BLINK's by
   * the item's `source` tag, ENACT's by the reference length).
   */
  parseModelAnswer(raw: unknown, item?: TaskItem<Public, Key>): Answer | null;
  /**
   * Optional (added for GridWM-Judge): parseModelAnswer with the parse mode, so that model-run
   * imports can report strict and recoverable counts. `answer` equals parseModelAnswer(raw, item).
   */
  parseModelAnswerWithMode?(raw: unknown, item?: TaskItem<Public, Key>): ModelAnswerParse<Answer>;
  /**
   * Optional: the answer a model output nothing could be read from is stored and scored as, for
   * kinds whose parser can give no answer (parseModelAnswer null): the released scorers score such
   * an output wrong, and a model run counts it as unparsed rather than being refused for it. Must
   * score as wrong against every key. Kinds without it refuse the run naming the output.
   */
  unparsedAnswer?(item: TaskItem<Public, Key>): Answer;
  /**
   * Optional (added for study settings): the schema of this kind's settings in a study,
   * Study.taskSettings[kind] (e.g. EXPLORE's { freeText }, ESI's { simulatorUrl }); the study
   * settings form validates against it. Kinds without it take no settings.
   */
  settingsSchema?: z.ZodType<Record<string, unknown>>;
  /** Optional (added for GridWM-Judge's probe families): the kind's rules in the assignment queue. */
  assignment?: TaskAssignmentRules;
  /**
   * Optional (added for ESI-Bench, whose confidence is a probability): the confidence scale a
   * study takes when its first import holds items of this kind (the study has no answers yet),
   * and why, for the import's message.
   */
  defaultConfidenceScale?: { scale: "PERCENT"; reason: string };
  /** Optional (added for ESI-Bench): how the kind reads study conditions in the figures (KindConditions). */
  conditions?: KindConditions;
  /** Optional: what a model agent is told about answering the kind (KindAgentContract). */
  agent?: KindAgentContract<Answer>;
  /** Optional (added for ESI-Bench and Ego2World): the episode an annotator plays on the server. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each kind has its own state, action and view types
  interactive?: InteractiveTask<Public, Key, any, any, any>;
  /**
   * Optional (interactive kinds): the answer as stored, given the submitted answer and the steps
   * the server recorded (seq >= 1, in order), e.g. the actions actually played rather than those
   * the browser claims. Runs before answer validation and scoring.
   */
  playAnswer?(answer: unknown, steps: PlayedStep[], item: TaskItem<Public, Key>): unknown;
  /**
   * Optional server-side hooks, each loaded on first use (a dynamic import of a file of the kind's
   * folder), so that the module itself stays pure; the registry sets them (lazyHooks in
   * lib/tasks/index.ts), since a hook imports its module and the module cannot point back at it
   * without a circle. `dashboard`: the kind's section of the study dashboard
   * (lib/tasks/<kind>/dashboard.ts). `scoring`: scoring beyond `score`, in the background
   * (lib/tasks/<kind>/scoring.ts): by the scorer LLM, and rescoring when the scorer's version changes.
   */
  dashboard?: () => Promise<KindDashboard>;
  /** Optional: the kind's own words on the shared dashboard cards (KindDashboardWords). */
  dashboardWords?: KindDashboardWords;
  scoring?: KindScoringHooks;
  /**
   * Optional server-side hook, loaded on first use (lib/tasks/<kind>/replay.ts): what the replay
   * page adds to one of the kind's trajectories (ESI-Bench: every recorded step's frame, and
   * researchers' labels of the steps), KindReplay.
   */
  replay?: () => Promise<KindReplay>;
  /**
   * Optional (added for benchmarks that withhold their test answers): the benchmark submission
   * files people's answers to this kind's items can be exported as (lib/exports/submission.ts),
   * loaded on first use (lib/tasks/<kind>/submission.ts).
   */
  submissions?: () => Promise<KindSubmissionFormat[]>;
}

/** One answer of a model-output file: the item's external id and the raw answer, and where it is. */
export interface ModelRunEntry {
  /** the entry's indices in the document: [entry] or [entry, entry inside it] (0-based); JSON lines: [] */
  at: number[];
  id: string;
  answer: unknown;
}

/** A problem with one entry of a model-output file (its indices as in ModelRunEntry). */
export interface ModelRunIssue {
  at: number[];
  field?: string;
  message: string;
}

/**
 * A benchmark's own model-output file, read as a model run (lib/models/run-file.ts), from the
 * kind's folder next to its item import. "document": the file is one JSON value (OpenEQA's results
 * list, EgoSchema's {q_uid: answer}); "lines": one JSON value a line (VSI-Bench's rows with their
 * `prediction`). `detect` sees the whole value, or the first line's. Raw answers go through the
 * kind's parseModelAnswer as any model output does.
 */
export type ModelRunFormat =
  | {
      shape: "document";
      id: string;
      benchmark: string;
      detect(value: unknown): boolean;
      read(value: unknown): { entries: ModelRunEntry[]; issues: ModelRunIssue[] };
    }
  | {
      shape: "lines";
      id: string;
      benchmark: string;
      detect(line: unknown): boolean;
      readLine(line: unknown): { id: string; answer: unknown } | { field: string; message: string };
    };

/** One item of a study with its people's answers, for a submission file. */
export interface SubmissionItem {
  externalId: string;
  public: unknown;
  tags: Record<string, string | number | boolean>;
  answers: Array<{ annotator: string; answer: unknown }>;
}

/** A benchmark's submission file (EgoSchema's {q_uid: answer} JSON ...), built from the items whose tag `source` is `source`. */
export interface KindSubmissionFormat {
  id: string;
  benchmark: string;
  /** the items' `source` tag (set by the benchmark's importer) */
  source: string;
  fileName: string;
  /** the file's text; `who` is an annotator's user id or "majority" */
  build(items: readonly SubmissionItem[], who: string): string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds modules of different generic types
export type AnyTaskModule = TaskModule<any, any, any, any>;

/**
 * What a kind's events may change in the item's state (lib/tasks/item-state.ts): the draft
 * answer, the confidence (ESI's belief panel), the image or storyboard frame shown large.
 */
export interface DraftState {
  answer: unknown;
  confidence: number | null;
  zoomed: string | null;
  frame: number | null;
}

/** One recorded trajectory event, as the reducer and the replay see it. */
export interface RecordedEvent {
  type: string;
  payload: unknown;
}

/** What a replay description is told besides the event. */
export interface EventDescribeContext {
  /** how the task names a candidate ("image C", "action B") */
  name(candidate: number): string;
  /** the study's confidence scale is 0-100 % (else 1-5) */
  percent: boolean;
}

/**
 * The events half of a kind (lib/tasks/<kind>/events.ts; browser-safe: the annotation store uses
 * it). Shared code loops over the registered kinds (lib/tasks/event-registry.ts) to build the
 * event map, the reducer and the replay description; it never names an event of a kind.
 */
export interface KindEvents<Schemas extends Record<string, z.ZodType> = Record<string, z.ZodType>> {
  /** the payload schema of each event type this kind records */
  payloadSchemas: Schemas;
  /**
   * The state after one event, or null when the event is not this kind's (or not for this draft):
   * the next kind is asked. A malformed event of the kind returns `{}` (state unchanged).
   */
  reduce?(state: DraftState, event: RecordedEvent): Partial<DraftState> | null;
  /** One event of this kind in words for the replay timeline; null for events of other kinds. */
  describe?(event: RecordedEvent, context: EventDescribeContext): string | null;
}

/** Where a converted line came from, for error messages. */
export interface SourcePosition {
  file: string;
  /** 1-based line number in `file` */
  line: number;
}

/**
 * A benchmark's own release format of one item a line (ENACT's QA files, GridWM-Judge's exams),
 * registered in lib/tasks/index.ts: the importer and `yardstick score` tell it by the first line
 * (`detect`) and convert each line to a native item line (`convert` throws AppError naming the
 * file, line and field; `options` are the importer's choices, absent when scoring offline).
 */
export interface ReleaseLineFormat {
  /** the format's name, also the converted items' `source` tag ("enact-release") */
  id: string;
  benchmark: string;
  /** a batch of it that lacks its media may be imported without them ("text only", ReleaseImportOptions); a refusal for missing media says so */
  offersTextOnly?: boolean;
  detect(line: unknown): boolean;
  convert(
    line: unknown,
    position: SourcePosition,
    options?: ReleaseImportOptions,
  ): { id: string; kind: string; public: unknown; key: unknown; tags: Record<string, string | number | boolean>; practice?: boolean; gold?: boolean };
}

/**
 * A benchmark's own release layout of JSON files beside their images (EXPLORE-Bench's image +
 * annotation pairs, ESI-Bench's question files), tried on a batch without items.jsonl or release
 * lines: `find` its items files among the batch's files, `convert` each to item lines.
 */
export interface ReleaseFolderFormat {
  /** the format's name: its items files' `format`, and the converted items' `source` tag */
  id: string;
  benchmark: string;
  /** a batch of it that lacks its media may be imported without them ("text only", ReleaseImportOptions); a refusal for missing media says so */
  offersTextOnly?: boolean;
  /** its items files among a batch's files (relative paths; `read` gives a file's bytes), [] when the batch is not in it */
  find(files: string[], read: (relPath: string) => Promise<Buffer>): Promise<ItemsFile[]>;
  /** optional: true when these bytes are one whole file of it given alone (`yardstick import question.json`; its folder is the batch) */
  isSingleFile?(bytes: Buffer): boolean;
  /**
   * The item lines of one of its files, from the file's text; `line` is an item's place in the file.
   * `readText` reads another file of the batch (hashed with the items files; null when it cannot be
   * read, its problem already reported, named with `what`, e.g. "actions file").
   */
  convert(
    text: string,
    file: ItemsFile,
    readText: (relPath: string, what: string) => Promise<string | null>,
    options?: ReleaseImportOptions,
  ): Promise<{ items: Array<{ line: number; item: ItemLine }>; issues: ImportIssue[] }>;
}

/**
 * What the person importing chose. `textOnly`: import the questions without the media the batch
 * lacks (for benchmarks whose questions can be answered from text; the one rule for every kind is
 * that missing media refuses the batch, naming the files, unless this is chosen).
 */
export interface ReleaseImportOptions {
  textOnly?: boolean;
}

/** What a kind's dashboard section is computed from: one request's snapshot and choices. */
export interface KindDashboardContext {
  studyId: string;
  /** what the section reads beyond the snapshot (the dashboard's repositories; a kind queries nothing itself) */
  data: KindDashboardData;
  snapshot: StudySnapshot;
  /** study id and snapshot version: the prefix of every memo key of this snapshot */
  version: string;
  /** the model runs and their prediction counts: part of a memo key of figures that show models */
  modelVersion: string;
  models: ModelRunSummary[];
  /** loads the study's model predictions once per request, shared by every section */
  modelPredictions: ModelPredictionsLoader;
  /** the annotator chosen on the dashboard, null = pooled */
  annotatorId: string | null;
  confidenceScale: "LIKERT_5" | "PERCENT";
  calibrationBins: number;
  idleCapMs: number;
  /** what intervals generalise over (the study setting): people and items, or items only (these people are the population) */
  generaliseOver: GeneraliseOver;
  /** items that failed review, left out of the figures; undefined when they are included */
  excludedItemIds?: ReadonlySet<string>;
  /** whether answers given for the agreement plan count in accuracy and calibration, as in the main table (they always feed agreement) */
  includePlanAnswers?: boolean;
  /** every scored human answer of the snapshot (all annotators, plan answers included), with its kind */
  humanAnswers(): Array<{ kind: string; row: ScoredAnswer }>;
  memoize<T>(key: string, compute: () => T): T;
  memoizeAsync<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

/**
 * The kind's own words on shared dashboard cards where its benchmark's paper says something of its
 * own: shared code names no benchmark, and shows these only when every kind of the
 * study gives the same words (components/dashboard/kind-words.ts); other studies read neutral text.
 */
export interface KindDashboardWords {
  /** the agreement plan is this benchmark's human-study design */
  agreementPlan?: {
    /** how the plan's description opens: "ENACT's design" */
    name: string;
    /** the study it comes from, after "as in": "the ENACT human study" */
    origin: string;
    /** what the paper did, after the plan's description: its human figures, its differences */
    paper: string;
  };
  /** why answers given for the plan are left out of accuracy by default, after "main annotation only": ", as in ENACT's table" */
  planAnswersLeftOut?: string;
  /** said when they are included, after "agreement plan": " (the paper reports human TA / PA from the main annotation only)" */
  planAnswersIncluded?: string;
}

/**
 * A kind's (or a family's) section of the study dashboard: lib/tasks/<kind>/dashboard.ts, reached
 * through the module's `dashboard` loader (set by the registry). `section` is its field of the
 * StudyDashboard; kinds of one family share one section (their loaders return the same object),
 * computed once. It reads what it needs beyond the snapshot through `context.data` (the port of
 * lib/tasks/dashboard-port.ts), never the database itself.
 */
export interface KindDashboard {
  section: string;
  load(context: KindDashboardContext): Promise<unknown>;
}

/** What a kind's replay hook is told: the study, the trajectory, the researcher viewing it and the item's public view. */
export interface KindReplayContext {
  slug: string;
  assignmentId: string;
  viewerId: string;
  view: Json;
  /** the rows a hook reads and writes, through the replay service's repositories */
  data: KindReplayData;
}

/**
 * A kind's additions to the researchers' replay page (lib/tasks/<kind>/replay.ts, reached through
 * the module's `replay` loader): the view the player is given, and the data of the kind's panel
 * below the player (its component in components/tasks/replay-panels.ts); optionally researchers'
 * labels of the recorded steps (POST /api/studies/{slug}/step-labels).
 */
export interface KindReplay {
  load(context: KindReplayContext): Promise<{ view: Json; panel: Json }>;
  /** sets (label null: removes) the labeller's label of one step; the kind checks the label and answers its own errors */
  labelStep?(
    slug: string,
    labellerId: string,
    input: { assignmentId: string; seq: number; label: string | null },
    data: KindReplayData,
  ): Promise<{ seq: number; label: string | null }>;
}
