import { readFreshness, type ReadFreshness } from "@/lib/repos/dashboard-views";
import "server-only";
import { LRUCache } from "lru-cache";
import type { KindDashboard, KindDashboardContext } from "@/lib/tasks/types";
import { idleCapMs } from "@/lib/timing/active-time";
import {
  ALL,
  accuracyRows,
  answerCondition,
  kindInfo,
  modelAnswerCondition,
  tagColumns,
  type AccuracyRow,
  type KindInfo,
  type ScoredEntry,
} from "@/lib/dashboard/accuracy";
import {
  agreementOfPrepared,
  allowedLevels,
  computeAgreement,
  defaultEncoding,
  encodingsForKinds,
  prepareAgreement,
  type AgreementItem,
  type AgreementResult,
  type EncodingInfo,
  type PreparedAgreement,
} from "@/lib/dashboard/agreement";
import { getAgreementPlanStatus, type AgreementPlanStatus } from "@/lib/dashboard/agreement-plan";
import { binsForScale, computeCalibration, confidenceProbability, likertBin, type CalibrationResult } from "@/lib/dashboard/calibration";
import { BOOTSTRAP_RESAMPLES, DEFAULT_TAG, INLINE_INTERVALS_MAX_ANSWERS, tunableFromEnv } from "@/lib/dashboard/constants";
import { readStoredIntervals, readStoredIntervalsState, requestIntervals, storeIntervals } from "@/lib/dashboard/interval-store";
import { parseDashboardParams, type AlphaLevelChoice, type CiMethod, type DashboardParams } from "@/lib/dashboard/params";
import { answersOutsidePractice, getStudyProgress, type StudyProgress } from "@/lib/dashboard/progress";
import { currentResponseCount, getSnapshot, getSnapshotView, memoize, snapshotVersion, type StudySnapshot } from "@/lib/dashboard/snapshot";
import { snapshotWithoutItems } from "@/lib/dashboard/review-filter";
import { snapshotWithoutAnnotators } from "@/lib/dashboard/participant-filter";
import { excludedParticipantIds } from "@/lib/participants/participants";
import { excludedItemIdsForStudy } from "@/lib/review/exclusion";
import { compareTagValues, conditionAt, correctnessAt, tagValue } from "@/lib/dashboard/snapshot-utils";
import { computeTimeColumns, type TimeResult } from "@/lib/dashboard/time";
import { modelPredictionsLoader } from "@/lib/dashboard/model-predictions";
import { agentRuns, isAgentRun } from "@/lib/dashboard/agents";
import { kindDashboardData } from "@/lib/dashboard/kind-dashboard-data";
import { listModelRuns, type ModelRunSummary } from "@/lib/models/runs";
import { getStudyBySlug } from "@/lib/studies/studies";
import { seedFromString } from "@/lib/stats/seed-from-string";
import { isTaskKind, taskKinds, taskModules } from "@/lib/tasks";
import { studyGeneraliseOver } from "@/lib/studies/settings";
import { compareHumansAndModels, type Comparison } from "@/lib/dashboard/comparison";
import { intervalMethod, type IntervalMethod } from "@/lib/dashboard/method";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";

/**
 * The study dashboard: every figure of the Dashboard tab, computed from one snapshot of the
 * study's responses (snapshot.ts) plus the progress tallies (progress.ts), and memoised per data
 * version and choice, so a reload is cheap and shows the same (seeded) numbers.
 */

export interface DashboardChoices {
  tagKey: string | null;
  tagKeys: Array<{ key: string; values: string[] }>;
  /** annotator index into `annotators`, null = pooled */
  annotator: number | null;
  encoding: EncodingInfo | null;
  encodings: EncodingInfo[];
  level: AlphaLevelChoice;
  levels: AlphaLevelChoice[];
  ci: CiMethod;
  /** items of this study that failed review, and whether their answers are in the figures */
  excludedItems: number;
  includeExcluded: boolean;
  /** EXCLUDED participants of this study (gold rule), and whether their answers are in the figures */
  excludedParticipants: number;
  includeExcludedParticipants: boolean;
  /** whether answers given for the agreement plan count in accuracy and calibration (they always feed agreement) */
  includePlanAnswers: boolean;
}

export interface PlanView extends Omit<AgreementPlanStatus, "completeItemIds"> {
  complete: number;
  agreement: AgreementResult | null;
}

/**
 * Where the bootstrap intervals come from: "inline" (computed with the page: studies up to
 * INLINE_INTERVALS_MAX_ANSWERS answers), "ready" (a background job computed them for this data
 * version), "computing" (the job is on its way: the intervals read "computing" and the page polls).
 */
export interface IntervalsState {
  state: "inline" | "ready" | "computing";
  /** "ready": when the job finished, epoch ms, and how long it took */
  computedAt?: number;
  computeMs?: number;
  /** "ready": the job's figures are of older data (newer figures are being computed) */
  behind?: boolean;
}

/**
 * What a view's background job keeps: every figure of the page but the live ones (progress,
 * replica, intervals); `intervalsPending`: the job's first step stored the values, and their
 * intervals come with its second (interval-jobs.ts).
 */
type StoredView = Omit<StudyDashboard, "progress" | "intervals"> & { intervalsPending?: boolean };

export interface DashboardOptions {
  /** "inline": every interval now, whatever the study's size (the background job); default: by size */
  intervals?: "auto" | "inline";
  /** keep the intervals computed for the view (the background job) */
  store?: boolean;
  /** answers up to which intervals are inline (default INLINE_INTERVALS_MAX_ANSWERS; tests lower it) */
  inlineMaxAnswers?: number;
  /** the time already spent on this view by the job's first step, added to the stored computeMs */
  priorComputeMs?: number;
}

/**
 * A large study's view that the job worker has not computed yet: what a visit gets instead of
 * computing it over every answer on the request (the job is asked; the page says so and refreshes
 * itself until the row is there).
 */
export interface PendingDashboard {
  pending: true;
  study: StudyDashboard["study"];
  progress: StudyProgress;
  /** answers outside practice the figures will be computed from */
  answers: number;
  replica: ReadFreshness;
}

export interface StudyDashboard {
  intervals: IntervalsState;
  /** when the figures' data was read, and whether newer answers are not in them yet */
  asOf: { loadedAt: number; stale: boolean; responses: number; currentResponses: number; replica: ReadFreshness };
  study: { id: string; slug: string; title: string; overlap: number; confidenceScale: "LIKERT_5" | "PERCENT" };
  choices: DashboardChoices;
  annotators: Array<{ id: string; name: string }>;
  kinds: KindInfo[];
  progress: StudyProgress;
  /** `planAnswers`: answers given for the agreement plan, in the rows only when choices.includePlanAnswers */
  accuracy: { rows: AccuracyRow[]; modelRows: AccuracyRow[]; tagValues: string[]; responses: number; planAnswers: number };
  agreement: AgreementResult | null;
  plan: PlanView;
  calibration: CalibrationResult | null;
  time: TimeResult;
  models: ModelRunSummary[];
  /** what the intervals generalise over (the study setting) and the methods, in words */
  method: IntervalMethod;
  /** people against each model (imported runs and agents) on the items both answered, for each kind's headline metric */
  comparison: Comparison;
  /**
   * The kinds' own sections, by KindDashboard.section (lib/tasks/<kind>/dashboard.ts); a section is
   * absent when the study has none of its kinds. components/tasks/dashboard-sections.ts reads them.
   */
  sections: Record<string, unknown>;
}

function tagFacets(snapshot: StudySnapshot): Array<{ key: string; values: string[] }> {
  const values = new Map<string, Set<string>>();
  for (const tags of snapshot.items.tags) {
    for (const [key, value] of Object.entries(tags)) {
      if (value === null || value === undefined || typeof value === "object") continue;
      let set = values.get(key);
      if (!set) values.set(key, (set = new Set()));
      set.add(String(value));
    }
  }
  return [...values.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, set]) => ({ key, values: [...set].sort(compareTagValues) }));
}

/** The tag a view is sliced by when none is chosen: "steps" where the items have it, else the first key. */
function defaultTagKey(keys: readonly string[]): string | null {
  return keys.includes(DEFAULT_TAG) ? DEFAULT_TAG : (keys[0] ?? null);
}

/**
 * What each choice is when the link does not name it (the default view's choices, and the level of
 * the encoding shown): the page's selects leave a choice out of the link when it is this, so that
 * every link to a view is one link, and one stored view (viewKeyOf).
 */
export function choiceDefaults(choices: Pick<DashboardChoices, "tagKeys" | "encodings" | "levels">): Record<keyof DashboardParams, string | null> {
  return {
    tag: defaultTagKey(choices.tagKeys.map((t) => t.key)),
    annotator: "all",
    encoding: defaultEncoding(choices.encodings)?.id ?? null,
    level: choices.levels[0] ?? null,
    ci: "items",
    reviewed: "without",
    participants: "without",
    plan: "without",
  };
}

function resolveChoices(
  snapshot: StudySnapshot,
  raw: Record<string, string | string[] | undefined>,
): Omit<DashboardChoices, "excludedItems" | "includeExcluded" | "excludedParticipants" | "includeExcludedParticipants" | "includePlanAnswers"> {
  const params = parseDashboardParams(raw);
  const tagKeys = tagFacets(snapshot);
  const keys = tagKeys.map((t) => t.key);
  const tagKey = params.tag && keys.includes(params.tag) ? params.tag : defaultTagKey(keys);
  const annotatorIndex = params.annotator ? snapshot.annotators.findIndex((a) => a.id === params.annotator) : -1;
  const kinds = [...new Set(snapshot.items.kinds)].filter(isTaskKind).sort();
  const encodings = encodingsForKinds(kinds);
  const encoding = encodings.find((e) => e.id === params.encoding) ?? defaultEncoding(encodings);
  const levels = encoding ? allowedLevels(encoding) : [];
  const level = params.level && levels.includes(params.level) ? params.level : (levels[0] ?? "nominal");
  return { tagKey, tagKeys, annotator: annotatorIndex >= 0 ? annotatorIndex : null, encoding, encodings, level, levels, ci: params.ci ?? "items" };
}

/** Items with at least two answers, grouped from the snapshot (responses are contiguous by item). */
export function agreementItems(snapshot: StudySnapshot, tagKey: string | null, keep?: (itemIndex: number) => boolean): AgreementItem[] {
  const { responses, items } = snapshot;
  const out: AgreementItem[] = [];
  let start = 0;
  while (start < responses.count) {
    const item = responses.item[start];
    let end = start + 1;
    while (end < responses.count && responses.item[end] === item) end++;
    if (end - start >= 2 && isTaskKind(items.kinds[item]) && (!keep || keep(item))) {
      const ratings = [];
      for (let r = start; r < end; r++) ratings.push({ coder: responses.annotator[r], answer: responses.answer[r], score: responses.score[r] });
      out.push({ kind: items.kinds[item], tag: tagValue(items.tags[item], tagKey), key: items.keys[item], ratings });
    }
    start = end;
  }
  return out;
}

/** The tag value of each item agreementItems(snapshot, tagKey, keep) gives, in its order, without building the items. */
function agreementItemTags(snapshot: StudySnapshot, tagKey: string | null): Array<string | null> {
  const { responses, items } = snapshot;
  const out: Array<string | null> = [];
  let start = 0;
  while (start < responses.count) {
    const item = responses.item[start];
    let end = start + 1;
    while (end < responses.count && responses.item[end] === item) end++;
    if (end - start >= 2 && isTaskKind(items.kinds[item])) out.push(tagValue(items.tags[item], tagKey));
    start = end;
  }
  return out;
}

/**
 * What agreement needs of a snapshot under one encoding and level, whatever the tag (lib/dashboard/agreement.ts,
 * prepareAgreement): kept for the last few snapshot x encoding x level, so that re-slicing by a tag or
 * asking for another interval method only sums units. Few: at 100,000 items one holds millions of values.
 */
const preparedAgreements = new LRUCache<string, { value: PreparedAgreement | null }>({ max: 3 });

function preparedAgreement(version: string, snapshot: StudySnapshot, encodingId: string, level: AlphaLevelChoice): PreparedAgreement | null {
  const key = `${version}|${encodingId}|${level}`;
  let hit = preparedAgreements.get(key);
  if (!hit) {
    hit = { value: prepareAgreement(agreementItems(snapshot, null), { encodingId, level }) };
    preparedAgreements.set(key, hit);
  }
  return hit.value;
}

/**
 * Alpha without intervals (overall, per cell, pairwise and without each coder) from the prepared
 * agreement the dashboard keeps: what the Annotators tab shows, at the cost of sums once prepared.
 */
export function agreementValues(
  snapshot: StudySnapshot,
  version: string,
  tagKey: string | null,
  encodingId: string,
  level: AlphaLevelChoice,
  seedKey: string,
): AgreementResult | null {
  const prep = preparedAgreement(version, snapshot, encodingId, level);
  return prep
    ? agreementOfPrepared(prep, agreementItemTags(snapshot, tagKey), {
        encodingId,
        level,
        ci: "items",
        seedKey,
        tagLabel: tagKey ?? undefined,
        intervals: false,
      })
    : null;
}

/**
 * Scored human answers. `mainOnly`: leave out answers given for the agreement plan (ENACT reports
 * human TA / PA from the main annotation; the plan's answers feed agreement).
 */
function humanEntries(snapshot: StudySnapshot, tagKey: string | null, annotator: number | null, mainOnly = false): ScoredEntry[] {
  const { responses, items } = snapshot;
  const entries: ScoredEntry[] = [];
  for (let r = 0; r < responses.count; r++) {
    if (annotator !== null && responses.annotator[r] !== annotator) continue;
    if (mainOnly && responses.agreement[r] === 1) continue;
    const item = responses.item[r];
    if (!isTaskKind(items.kinds[item])) continue;
    entries.push({
      kind: items.kinds[item],
      tag: tagValue(items.tags[item], tagKey),
      condition: answerCondition(items.kinds[item], conditionAt(snapshot, r)),
      item,
      row: {
        itemId: items.ids[item],
        tags: items.tags[item],
        answer: responses.answer[r],
        score: responses.score[r],
        annotator: snapshot.annotators[responses.annotator[r]].id,
      },
    });
  }
  return entries;
}

/** Answers up to which a view's intervals are computed with the page (YARDSTICK_INLINE_INTERVALS_MAX_ANSWERS, default INLINE_INTERVALS_MAX_ANSWERS). */
export function inlineIntervalsMaxAnswers(): number {
  return tunableFromEnv("YARDSTICK_INLINE_INTERVALS_MAX_ANSWERS", INLINE_INTERVALS_MAX_ANSWERS, { integer: true });
}

/**
 * Changes when the methods behind stored figures change (2: the kinds' sections and alpha over
 * people and items), so that a view stored by earlier code is served as behind and recomputed.
 */
const FIGURE_METHODS_VERSION = 2;

/**
 * Everything a view's figures are computed from, as one text: the data version the snapshot was
 * read at, the exclusions, the agents, the model runs and the agreement plan. A stored view is
 * current when its text is this.
 */
function figuresVersionOf(
  dataVersion: string,
  parts: { excludedIds: Set<string>; excludedPeople: Set<string>; agentIds: Iterable<string>; modelVersion: string; planKey: number; over: GeneraliseOver },
): string {
  const digest = (values: Iterable<string>) => seedFromString([...values].sort().join(","));
  return `${dataVersion}|items-out:${digest(parts.excludedIds)}|people-out:${digest(parts.excludedPeople)}|agents:${digest(parts.agentIds)}|models:${parts.modelVersion}|plan:${parts.planKey}|over:${parts.over}|methods:${FIGURE_METHODS_VERSION}`;
}

/** Accuracy rows of each model run (imported runs and agents), on the snapshot's items, each answer under its condition. */
function modelEntries(
  snapshot: StudySnapshot,
  predictions: Awaited<ReturnType<ReturnType<typeof modelPredictionsLoader>>>,
  tagKey: string | null,
  runNames: ReadonlyMap<string, string>,
): Map<string, ScoredEntry[]> {
  const byRun = new Map<string, ScoredEntry[]>();
  for (const p of predictions) {
    const item = snapshot.items.index.get(p.itemId);
    if (item === undefined || !isTaskKind(snapshot.items.kinds[item])) continue;
    const list = byRun.get(p.runId) ?? [];
    const kind = snapshot.items.kinds[item];
    list.push({
      kind,
      tag: tagValue(snapshot.items.tags[item], tagKey),
      condition: modelAnswerCondition(kind, p, runNames.get(p.runId) ?? ""),
      item,
      row: { itemId: p.itemId, tags: snapshot.items.tags[item], answer: p.answer, score: p.score, annotator: null },
    });
    byRun.set(p.runId, list);
  }
  return byRun;
}

/**
 * Accuracy rows of each model run (imported runs and agents), on the snapshot's items. A run is
 * one fixed judge: its intervals are over its items (several samples of an item stay together).
 */
function modelAccuracyRows(models: ModelRunSummary[], byRun: Map<string, ScoredEntry[]>, seedBase: string, resamples: number): AccuracyRow[] {
  return models.flatMap((m) => accuracyRows(byRun.get(m.id) ?? [], m.id, m.name, seedBase, resamples, undefined, "items"));
}

/** Calibration of the confidences given (one annotator's, or everyone's), plan answers in or out. */
export function calibrationOf(
  snapshot: StudySnapshot,
  annotator: number | null,
  includePlanAnswers: boolean,
  scale: "LIKERT_5" | "PERCENT",
): CalibrationResult | null {
  const { responses } = snapshot;
  const conf: number[] = [];
  const right: Array<number | null> = [];
  const bins: number[] = [];
  for (let r = 0; r < responses.count; r++) {
    if (annotator !== null && responses.annotator[r] !== annotator) continue;
    if (!includePlanAnswers && responses.agreement[r] === 1) continue;
    const c = responses.confidence[r];
    if (!(c >= 0 && c <= 1)) continue;
    const kind = snapshot.items.kinds[responses.item[r]];
    const chance = isTaskKind(kind) ? (taskModules[kind].chance?.(responses.score[r]) ?? null) : null;
    conf.push(confidenceProbability(scale, c, chance));
    bins.push(likertBin(c));
    const correct = correctnessAt(responses.correct, r);
    right.push(correct === null ? null : correct ? 1 : 0);
  }
  // the 1-5 scale: one bin per scale point, whatever probability the point means on its item
  return computeCalibration(conf, right, binsForScale(scale), scale === "LIKERT_5" ? bins : undefined);
}

/** Time figures of every answer, by kind and tag value (the dashboard's and the Annotators tab's). */
export function timeOf(snapshot: StudySnapshot, tagKey: string | null): TimeResult {
  const { responses, items } = snapshot;
  // one cell per item (computeTimeColumns merges those named alike), each answer in its item's
  const cells = items.kinds.map((kind, i) => ({ kind, tag: tagValue(items.tags[i], tagKey) }));
  return computeTimeColumns({
    count: responses.count,
    cell: responses.item,
    cells,
    annotator: responses.annotator,
    activeMs: responses.activeMs,
    wallMs: responses.wallMs,
  });
}

/** Everything but the answers that a view's figures are computed from, read now, and the version text they make with the data version. */
async function figureInputs(studyId: string) {
  const [dataVersion, importedRuns, planStatus, agents, excludedItemIds, excludedPeopleIds, over] = await Promise.all([
    snapshotVersion(studyId),
    listModelRuns(studyId),
    getAgreementPlanStatus(studyId),
    agentRuns(studyId),
    excludedItemIdsForStudy(studyId),
    excludedParticipantIds(studyId),
    studyGeneraliseOver(studyId),
  ]);
  // model agents are shown as runs beside the humans, never pooled with them (lib/dashboard/agents.ts)
  const models = [...importedRuns, ...agents.runs];
  const excludedIds = new Set(excludedItemIds);
  const excludedPeople = new Set(excludedPeopleIds);
  const modelVersion = models.map((m) => `${m.id}:${m.predictions}`).join(",");
  const planKey = seedFromString(planStatus.completeItemIds.join(","));
  const versionParts = { excludedIds, excludedPeople, agentIds: agents.userIds, modelVersion, planKey, over };
  return {
    dataVersion,
    planStatus,
    agents,
    models,
    excludedIds,
    excludedPeople,
    modelVersion,
    planKey,
    over,
    versionParts,
    currentVersion: figuresVersionOf(dataVersion, versionParts),
  };
}

/** A view's name: its parameters as given (the same link, the same stored view). The default view, opened with none, is "{}". */
export function viewKeyOf(params: DashboardParams): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(params)
        .filter(([, value]) => value !== undefined)
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
  );
}

/**
 * The views the job worker's refresh keeps computed for a large study with items of these kinds
 * (lib/dashboard/view-refresh.ts): the default view and, for each other agreement encoding the
 * kinds offer, the view the page's encoding select opens from it (a new encoding's first
 * computation prepares its units over every answer: the costliest first visit after the default).
 */
export function refreshedViews(kinds: readonly string[]): DashboardParams[] {
  const encodings = encodingsForKinds([...new Set(kinds)].filter(isTaskKind).sort());
  const shown = defaultEncoding(encodings);
  return [parseDashboardParams({}), ...encodings.filter((e) => e.id !== shown?.id).map((e) => parseDashboardParams({ encoding: e.id }))];
}

/**
 * Asks the background job for each of the study's `views` whose stored row is missing, of another
 * format or of older figures (what the worker's refresh does for large studies), unless the rows
 * were computed less than `minAgeMs(ms)` ago, `ms` being the time the views' last computations
 * took together (they share one budget). Returns the keys of the views it asked for.
 */
export async function requestViewsIfBehind(
  studyId: string,
  slug: string,
  views: readonly DashboardParams[],
  minAgeMs: (computeMs: number) => number,
  now = Date.now(),
): Promise<string[]> {
  const keys = views.map(viewKeyOf);
  const [{ currentVersion }, states] = await Promise.all([figureInputs(studyId), Promise.all(keys.map((key) => readStoredIntervalsState(studyId, key)))]);
  const spentMs = states.reduce((sum, state) => sum + (state?.computeMs ?? 0), 0);
  const asked: string[] = [];
  for (let i = 0; i < views.length; i++) {
    const stored = states[i];
    if (stored && stored.version === currentVersion) continue;
    if (stored && now - stored.computedAt.getTime() < minAgeMs(spentMs)) continue;
    await askForView(studyId, keys[i], currentVersion, slug, views[i]);
    asked.push(keys[i]);
  }
  return asked;
}

/** The view's figures, computed now when no stored row serves it (the job, tests, scripts). */
export async function getStudyDashboard(
  slug: string,
  searchParams: Record<string, string | string[] | undefined>,
  options: DashboardOptions = {},
): Promise<StudyDashboard> {
  return (await studyDashboard(slug, searchParams, options, "compute")) as StudyDashboard;
}

/**
 * The view a visitor opens (the page, the API): as getStudyDashboard, except that a large study's
 * view with no row yet is left to the job worker, never computed over every answer on the request:
 * that holds the app's CPU for seconds at 100,000 items (3-6 s for a first tag or annotator in a
 * process that holds no snapshot), every other request waiting. The visit asks for the
 * job and waits up to dashboardVisitWaitMs() for its first step's row (the values); failing that,
 * it answers "pending" and the page polls.
 */
export async function visitStudyDashboard(
  slug: string,
  searchParams: Record<string, string | string[] | undefined>,
  options: DashboardOptions = {},
): Promise<StudyDashboard | PendingDashboard> {
  return studyDashboard(slug, searchParams, options, "pending");
}

async function studyDashboard(
  slug: string,
  searchParams: Record<string, string | string[] | undefined>,
  options: DashboardOptions,
  missingRow: "compute" | "pending",
): Promise<StudyDashboard | PendingDashboard> {
  const study = await getStudyBySlug(slug);
  const params = parseDashboardParams(searchParams);
  const [inputs, progress, replica] = await Promise.all([figureInputs(study.id), getStudyProgress(study.id, study.overlap), readFreshness()]);
  const { planStatus, agents, models, excludedIds, excludedPeople, modelVersion, planKey, over, versionParts } = inputs;
  const viewKey = viewKeyOf(params);

  // a large study's view computed by the background job: served from its row, refreshed in the background when the data moved on
  if (options.intervals !== "inline") {
    const served = await storedView({ studyId: study.id, slug, params, viewKey, currentVersion: inputs.currentVersion, progress, replica });
    if (served) return served;
    if (missingRow === "pending") {
      const answers = await answersOutsidePractice(study.id);
      if (answers > (options.inlineMaxAnswers ?? inlineIntervalsMaxAnswers())) {
        await askForView(study.id, viewKey, inputs.currentVersion, slug, params);
        // the job worker holds the study's snapshot and prepared units from its last jobs: a view
        // derived from them (a tag, one annotator) is stored within a second; wait that long
        if (await rowWithin(study.id, viewKey, dashboardVisitWaitMs())) {
          const stored = await storedView({ studyId: study.id, slug, params, viewKey, currentVersion: inputs.currentVersion, progress, replica });
          if (stored) return stored;
        }
        return {
          pending: true,
          study: { id: study.id, slug: study.slug, title: study.title, overlap: study.overlap, confidenceScale: study.confidenceScale },
          progress,
          answers,
          replica,
        };
      }
    }
  }

  const view = options.intervals === "inline" ? { snapshot: await getSnapshot(study.id), stale: false, currentResponses: -1 } : await getSnapshotView(study.id);
  if (view.currentResponses < 0) view.currentResponses = view.snapshot.responses.count;
  const includeExcluded = params.reviewed === "with";
  const itemFiltered = includeExcluded ? view.snapshot : snapshotWithoutItems(view.snapshot, excludedIds);
  const includeExcludedParticipants = params.participants === "with";
  const snapshot = snapshotWithoutAnnotators(itemFiltered, new Set([...(includeExcludedParticipants ? [] : excludedPeople), ...agents.userIds]));
  const includePlanAnswers = params.plan === "with";
  const choices = {
    ...resolveChoices(snapshot, searchParams),
    excludedItems: excludedIds.size,
    includeExcluded,
    excludedParticipants: excludedPeople.size,
    includeExcludedParticipants,
    includePlanAnswers,
  };
  const v = `${study.id}@${snapshot.version}`;
  const { tagKey, annotator, encoding, level, ci } = choices;
  const scope = `${annotator === null ? "all" : snapshot.annotators[annotator].id}|plan:${includePlanAnswers ? "with" : "without"}`;
  const planAnswers = snapshot.responses.agreement.reduce((sum, flag) => sum + flag, 0);

  const modelPredictions = modelPredictionsLoader(study.id, models);
  const complete = new Set(planStatus.completeItemIds);

  // large studies: the bootstraps run in a background job; the page shows the point estimates now
  const deferred = options.intervals !== "inline" && snapshot.responses.count > (options.inlineMaxAnswers ?? inlineIntervalsMaxAnswers());
  const figuresVersion = figuresVersionOf(view.snapshot.version, versionParts);
  const withIntervals = !deferred;
  const resamples = withIntervals ? BOOTSTRAP_RESAMPLES : 0;
  const ciKey = withIntervals ? "ci" : "ci-later";
  const computeStarted = performance.now();

  const computeIntervalFigures = async () => {
    const rows = memoize(`${v}|accuracy|${tagKey}|${scope}|${over}|${ciKey}`, () =>
      accuracyRows(
        humanEntries(snapshot, tagKey, annotator, !includePlanAnswers),
        "humans",
        annotator === null ? "Humans (pooled)" : snapshot.annotators[annotator].name,
        `${study.id}|accuracy`,
        resamples,
        `${v}|${scope}`,
        over,
      ),
    );

    const byRun =
      models.length === 0
        ? new Map<string, ScoredEntry[]>()
        : await memoizeAsync(`${v}|model-entries|${modelVersion}|${tagKey}`, async () =>
            modelEntries(snapshot, await modelPredictions(), tagKey, new Map(models.map((m) => [m.id, m.name]))),
          );
    const modelRows =
      models.length === 0
        ? []
        : memoize(`${v}|models|${modelVersion}|${tagKey}|${ciKey}`, () => modelAccuracyRows(models, byRun, `${study.id}|accuracy`, resamples));

    // people pooled (whoever the table shows), against every run on the items both answered
    const planScope = `plan:${includePlanAnswers ? "with" : "without"}`;
    const pooledRows =
      annotator === null
        ? rows
        : memoize(`${v}|accuracy|${tagKey}|all|${planScope}|${over}|${ciKey}`, () =>
            accuracyRows(
              humanEntries(snapshot, tagKey, null, !includePlanAnswers),
              "humans",
              "Humans (pooled)",
              `${study.id}|accuracy`,
              resamples,
              `${v}|all|${planScope}`,
              over,
            ),
          );
    const comparison = memoize(`${v}|comparison|${modelVersion}|${tagKey}|${planScope}|${over}|${ciKey}`, () =>
      compareHumansAndModels(
        humanEntries(snapshot, tagKey, null, !includePlanAnswers),
        models.map((m) => ({ id: m.id, name: m.name, agent: isAgentRun(m.id), entries: byRun.get(m.id) ?? [] })),
        pooledRows,
        { over, seedKey: `${study.id}|comparison`, resamples },
      ),
    );

    const agreement = encoding
      ? memoize(`${v}|agreement|${tagKey}|${encoding.id}|${level}|${ci}|${over}|${ciKey}`, () => {
          const prep = preparedAgreement(v, snapshot, encoding.id, level);
          return prep
            ? agreementOfPrepared(prep, agreementItemTags(snapshot, tagKey), {
                encodingId: encoding.id,
                level,
                ci,
                seedKey: `${study.id}|agreement`,
                tagLabel: tagKey ?? undefined,
                intervals: withIntervals,
                over,
              })
            : null;
        })
      : null;

    const planAgreement =
      encoding && complete.size > 0
        ? memoize(`${v}|plan|${planKey}|${encoding.id}|${level}|${ci}|${over}|${ciKey}`, () =>
            computeAgreement(
              agreementItems(snapshot, tagKey, (item) => complete.has(snapshot.items.ids[item])),
              snapshot.annotators.length,
              {
                encodingId: encoding.id,
                level,
                ci,
                seedKey: `${study.id}|plan`,
                breakdown: false,
                tagLabel: tagKey ?? undefined,
                intervals: withIntervals,
                over,
              },
            ),
          )
        : null;
    return { rows, modelRows, comparison, agreement, planAgreement };
  };

  const { rows, modelRows, comparison, agreement, planAgreement } = await computeIntervalFigures();
  const intervals: IntervalsState = { state: deferred ? "computing" : "inline" };
  if (deferred) await askForView(study.id, viewKey, figuresVersion, slug, params);

  const calibration = memoize(`${v}|calibration|${scope}`, () => calibrationOf(snapshot, annotator, includePlanAnswers, study.confidenceScale));
  const time = memoize(`${v}|time|${tagKey}`, () => timeOf(snapshot, tagKey));

  const sections = await kindSections({
    studyId: study.id,
    data: kindDashboardData,
    snapshot,
    version: v,
    modelVersion,
    models,
    modelPredictions,
    annotatorId: annotator === null ? null : snapshot.annotators[annotator].id,
    confidenceScale: study.confidenceScale,
    calibrationBins: binsForScale(study.confidenceScale),
    idleCapMs: idleCapMs(study.idleCapSeconds),
    generaliseOver: over,
    excludedItemIds: includeExcluded ? undefined : excludedIds,
    includePlanAnswers,
    humanAnswers: () => humanEntries(snapshot, null, null).map((entry) => ({ kind: entry.kind, row: entry.row })),
    memoize,
    memoizeAsync,
  });
  const { completeItemIds: _ids, ...planRest } = planStatus;
  const dashboard: StudyDashboard = {
    intervals,
    asOf: { loadedAt: snapshot.loadedAt, stale: view.stale, responses: snapshot.responses.count, currentResponses: view.currentResponses, replica },
    study: { id: study.id, slug: study.slug, title: study.title, overlap: study.overlap, confidenceScale: study.confidenceScale },
    choices,
    annotators: snapshot.annotators,
    kinds: [...new Set(snapshot.items.kinds)].filter(isTaskKind).sort().map(kindInfo),
    progress,
    accuracy: { rows, modelRows, tagValues: tagColumns([...rows, ...modelRows]), responses: snapshot.responses.count, planAnswers },
    agreement,
    plan: { ...planRest, complete: complete.size, agreement: planAgreement },
    calibration,
    time,
    models,
    method: intervalMethod(over),
    comparison,
    sections: Object.fromEntries(sections),
  };
  if (options.store) {
    const { progress: _progress, intervals: _intervals, ...kept } = dashboard;
    const figures: StoredView = deferred ? { ...kept, intervalsPending: true } : kept;
    await storeIntervals(study.id, viewKey, figuresVersion, figures, Math.round(performance.now() - computeStarted + (options.priorComputeMs ?? 0)));
  }
  return dashboard;
}

const DEFAULT_VISIT_WAIT_MS = 1500;

/** How long a visit to a large study's view with no row waits for the job's first step before it answers "pending" (YARDSTICK_DASHBOARD_VISIT_WAIT_MS). */
export function dashboardVisitWaitMs(): number {
  return tunableFromEnv("YARDSTICK_DASHBOARD_VISIT_WAIT_MS", DEFAULT_VISIT_WAIT_MS, { integer: true });
}

/** Whether the view has a row (of this format) now or within `waitMs`, asked every 50 ms: the request waits, it does not compute. */
async function rowWithin(studyId: string, viewKey: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (await readStoredIntervalsState(studyId, viewKey)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(1, deadline - Date.now()))));
  }
}

/** The view's stored figures with the live ones (progress, replica), asking for newer ones when the data has moved on; null without a row. */
async function storedView(view: {
  studyId: string;
  slug: string;
  params: DashboardParams;
  viewKey: string;
  currentVersion: string;
  progress: StudyProgress;
  replica: ReadFreshness;
}): Promise<StudyDashboard | null> {
  const stored = await readStoredIntervals<StoredView>(view.studyId, view.viewKey);
  if (!stored) return null;
  const behind = stored.version !== view.currentVersion;
  const { intervalsPending, ...figures } = stored.figures;
  // the intervals of a first step: the job is under way (or, were it lost, asked again)
  if (behind || intervalsPending) await askForView(view.studyId, view.viewKey, view.currentVersion, view.slug, view.params);
  return {
    ...figures,
    intervals: intervalsPending
      ? { state: "computing", computedAt: stored.computedAt.getTime(), behind }
      : { state: "ready", computedAt: stored.computedAt.getTime(), computeMs: stored.computeMs, behind },
    asOf: {
      ...figures.asOf,
      stale: behind || figures.asOf.stale,
      currentResponses: behind ? await currentResponseCount(view.studyId) : figures.asOf.currentResponses,
      replica: view.replica,
    },
    progress: view.progress,
  };
}

/** Asks the background job for the view at this version; a queue that cannot be reached leaves the page as it is (the figures shown stay right). */
async function askForView(studyId: string, viewKey: string, version: string, slug: string, params: DashboardParams): Promise<void> {
  await requestIntervals(studyId, viewKey, version, { slug, params }).catch((error: unknown) =>
    console.error("dashboard intervals: the job queue did not take the job:", error instanceof Error ? error.message : error),
  );
}

/**
 * The sections of the kinds in the snapshot (each kind's `dashboard` hook, lib/tasks/<kind>/dashboard.ts),
 * by section name; a family's section is computed once.
 */
async function kindSections(context: KindDashboardContext): Promise<Map<string, unknown>> {
  const kinds = new Set(context.snapshot.items.kinds);
  const hooks = new Set<KindDashboard>();
  for (const kind of taskKinds) {
    const load = kinds.has(kind) ? taskModules[kind].dashboard : undefined;
    if (load) hooks.add(await load());
  }
  const sections = new Map<string, unknown>();
  for (const hook of hooks) sections.set(hook.section, await hook.load(context));
  return sections;
}

const asyncCache = new LRUCache<string, Promise<unknown>>({ max: 32 });

function memoizeAsync<T>(key: string, compute: () => Promise<T>): Promise<T> {
  let pending = asyncCache.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = compute();
    asyncCache.set(key, pending);
    pending.catch(() => asyncCache.delete(key));
  }
  return pending;
}

export { ALL };
