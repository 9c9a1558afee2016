import { readFreshness, type ReadFreshness } from "@/lib/db/read";
import "server-only";
import { LRUCache } from "lru-cache";
import type { KindDashboard, KindDashboardContext } from "@/lib/tasks/types";
import { idleCapMs } from "@/lib/timing/active-time";
import { ALL, accuracyRows, kindInfo, tagColumns, type AccuracyRow, type KindInfo, type ScoredEntry } from "@/lib/dashboard/accuracy";
import { allowedLevels, computeAgreement, encodingsForKinds, type AgreementItem, type AgreementResult, type EncodingInfo } from "@/lib/dashboard/agreement";
import { getAgreementPlanStatus, type AgreementPlanStatus } from "@/lib/dashboard/agreement-plan";
import { binsForScale, computeCalibration, type CalibrationResult } from "@/lib/dashboard/calibration";
import { DEFAULT_TAG } from "@/lib/dashboard/constants";
import { parseDashboardParams, type AlphaLevelChoice, type CiMethod } from "@/lib/dashboard/params";
import { getStudyProgress, type StudyProgress } from "@/lib/dashboard/progress";
import { getSnapshotView, memoize, type StudySnapshot } from "@/lib/dashboard/snapshot";
import { snapshotWithoutItems } from "@/lib/dashboard/review-filter";
import { snapshotWithoutAnnotators } from "@/lib/dashboard/participant-filter";
import { excludedParticipantIds } from "@/lib/participants/participants";
import { excludedItemIdsForStudy } from "@/lib/review/exclusion";
import { compareTagValues, tagValue } from "@/lib/dashboard/snapshot-utils";
import { computeTime, type TimeResult } from "@/lib/dashboard/time";
import { modelPredictionsLoader } from "@/lib/dashboard/model-predictions";
import { agentRuns } from "@/lib/dashboard/agents";
import { listModelRuns, type ModelRunSummary } from "@/lib/models/runs";
import { getStudyBySlug } from "@/lib/studies/studies";
import { seedFromString } from "@/lib/stats/seed-from-string";
import { isTaskKind, taskKinds, taskModules } from "@/lib/tasks";

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

export interface StudyDashboard {
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

function resolveChoices(snapshot: StudySnapshot, raw: Record<string, string | string[] | undefined>): Omit<DashboardChoices, "excludedItems" | "includeExcluded" | "excludedParticipants" | "includeExcludedParticipants" | "includePlanAnswers"> {
  const params = parseDashboardParams(raw);
  const tagKeys = tagFacets(snapshot);
  const keys = tagKeys.map((t) => t.key);
  const tagKey = params.tag && keys.includes(params.tag) ? params.tag : keys.includes(DEFAULT_TAG) ? DEFAULT_TAG : (keys[0] ?? null);
  const annotatorIndex = params.annotator ? snapshot.annotators.findIndex((a) => a.id === params.annotator) : -1;
  const kinds = [...new Set(snapshot.items.kinds)].filter(isTaskKind).sort();
  const encodings = encodingsForKinds(kinds);
  // default: ordinal, the level ENACT reports; else the first encoding
  const encoding = encodings.find((e) => e.id === params.encoding) ?? encodings.find((e) => e.level === "ordinal") ?? encodings[0] ?? null;
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
      item,
      row: { itemId: items.ids[item], tags: items.tags[item], answer: responses.answer[r], score: responses.score[r], annotator: snapshot.annotators[responses.annotator[r]].id },
    });
  }
  return entries;
}

export async function getStudyDashboard(slug: string, searchParams: Record<string, string | string[] | undefined>): Promise<StudyDashboard> {
  const study = await getStudyBySlug(slug);
  const [view, progress, importedRuns, planStatus, agents, replica] = await Promise.all([
    getSnapshotView(study.id),
    getStudyProgress(study.id, study.overlap),
    listModelRuns(study.id),
    getAgreementPlanStatus(study.id),
    agentRuns(study.id),
    readFreshness(),
  ]);
  // model agents are shown as runs beside the humans, never pooled with them (lib/dashboard/agents.ts)
  const models = [...importedRuns, ...agents.runs];
  const excludedIds = new Set(await excludedItemIdsForStudy(study.id));
  const includeExcluded = parseDashboardParams(searchParams).reviewed === "with";
  const itemFiltered = includeExcluded ? view.snapshot : snapshotWithoutItems(view.snapshot, excludedIds);
  const excludedPeople = new Set(await excludedParticipantIds(study.id));
  const includeExcludedParticipants = parseDashboardParams(searchParams).participants === "with";
  const snapshot = snapshotWithoutAnnotators(itemFiltered, new Set([...(includeExcludedParticipants ? [] : excludedPeople), ...agents.userIds]));
  const includePlanAnswers = parseDashboardParams(searchParams).plan === "with";
  const choices = { ...resolveChoices(snapshot, searchParams), excludedItems: excludedIds.size, includeExcluded, excludedParticipants: excludedPeople.size, includeExcludedParticipants, includePlanAnswers };
  const v = `${study.id}@${snapshot.version}`;
  const { tagKey, annotator, encoding, level, ci } = choices;
  const scope = `${annotator === null ? "all" : snapshot.annotators[annotator].id}|plan:${includePlanAnswers ? "with" : "without"}`;
  const planAnswers = snapshot.responses.agreement.reduce((sum, flag) => sum + flag, 0);

  const rows = memoize(`${v}|accuracy|${tagKey}|${scope}`, () =>
    accuracyRows(humanEntries(snapshot, tagKey, annotator, !includePlanAnswers), "humans", annotator === null ? "Humans (pooled)" : snapshot.annotators[annotator].name, `${study.id}|accuracy`),
  );

  const modelPredictions = modelPredictionsLoader(study.id, models);
  const modelVersion = models.map((m) => `${m.id}:${m.predictions}`).join(",");
  const modelRows = models.length === 0 ? [] : await memoizeAsync(`${v}|models|${modelVersion}|${tagKey}`, async () => {
    const predictions = await modelPredictions();
    const byRun = new Map<string, ScoredEntry[]>();
    for (const p of predictions) {
      const item = snapshot.items.index.get(p.itemId);
      if (item === undefined || !isTaskKind(snapshot.items.kinds[item])) continue;
      const list = byRun.get(p.runId) ?? [];
      list.push({
        kind: snapshot.items.kinds[item],
        tag: tagValue(snapshot.items.tags[item], tagKey),
        item,
        row: { itemId: p.itemId, tags: snapshot.items.tags[item], answer: p.answer, score: p.score, annotator: null },
      });
      byRun.set(p.runId, list);
    }
    return models.flatMap((m) => accuracyRows(byRun.get(m.id) ?? [], m.id, m.name, `${study.id}|accuracy`));
  });

  const agreement = encoding
    ? memoize(`${v}|agreement|${tagKey}|${encoding.id}|${level}|${ci}`, () =>
        computeAgreement(agreementItems(snapshot, tagKey), snapshot.annotators.length, { encodingId: encoding.id, level, ci, seedKey: `${study.id}|agreement`, tagLabel: tagKey ?? undefined }),
      )
    : null;

  const complete = new Set(planStatus.completeItemIds);
  const planAgreement =
    encoding && complete.size > 0
      ? memoize(`${v}|plan|${seedFromString(planStatus.completeItemIds.join(","))}|${encoding.id}|${level}|${ci}`, () =>
          computeAgreement(
            agreementItems(snapshot, tagKey, (item) => complete.has(snapshot.items.ids[item])),
            snapshot.annotators.length,
            { encodingId: encoding.id, level, ci, seedKey: `${study.id}|plan`, breakdown: false, tagLabel: tagKey ?? undefined },
          ),
        )
      : null;

  const calibration = memoize(`${v}|calibration|${scope}`, () => {
    const { responses } = snapshot;
    const conf: number[] = [];
    const right: number[] = [];
    for (let r = 0; r < responses.count; r++) {
      if (annotator !== null && responses.annotator[r] !== annotator) continue;
      if (!includePlanAnswers && responses.agreement[r] === 1) continue;
      const c = responses.confidence[r];
      if (!(c >= 0 && c <= 1)) continue;
      conf.push(c);
      right.push(responses.correct[r]);
    }
    return computeCalibration(conf, right, binsForScale(study.confidenceScale));
  });

  const time = memoize(`${v}|time|${tagKey}`, () => {
    const { responses, items } = snapshot;
    const entries = [];
    for (let r = 0; r < responses.count; r++) {
      const item = responses.item[r];
      entries.push({ kind: items.kinds[item], tag: tagValue(items.tags[item], tagKey), annotator: responses.annotator[r], activeMs: responses.activeMs[r], wallMs: responses.wallMs[r] });
    }
    return computeTime(entries);
  });

  const sections = await kindSections({
    studyId: study.id,
    snapshot,
    version: v,
    modelVersion,
    models,
    modelPredictions,
    annotatorId: annotator === null ? null : snapshot.annotators[annotator].id,
    confidenceScale: study.confidenceScale,
    calibrationBins: binsForScale(study.confidenceScale),
    idleCapMs: idleCapMs(study.idleCapSeconds),
    excludedItemIds: includeExcluded ? undefined : excludedIds,
    humanAnswers: () => humanEntries(snapshot, null, null).map((entry) => ({ kind: entry.kind, row: entry.row })),
    memoize,
    memoizeAsync,
  });
  const { completeItemIds: _ids, ...planRest } = planStatus;
  return {
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
    sections: Object.fromEntries(sections),
  };
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
