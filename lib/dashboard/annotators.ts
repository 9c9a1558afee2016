import "server-only";
import { allowedLevels, encodingsForKinds, type AgreementResult, type EncodingInfo } from "@/lib/dashboard/agreement";
import { parseDashboardParams, type AlphaLevelChoice } from "@/lib/dashboard/params";
import { focusLossesByUser, getStudyProgress, type AnnotatorProgress } from "@/lib/dashboard/progress";
import { getSnapshotView, memoize } from "@/lib/dashboard/snapshot";
import { DEFAULT_TAG } from "@/lib/dashboard/constants";
import { correctnessAt } from "@/lib/dashboard/snapshot-utils";
import { agreementValues, timeOf } from "@/lib/dashboard/study-dashboard";
import { wilsonInterval } from "@/lib/stats/wilson-interval";
import { getStudyBySlug } from "@/lib/studies/studies";
import { getTaskModule, isTaskKind } from "@/lib/tasks";

/**
 * The Annotators tab: one row per annotator with items done, accuracy (share of answers the
 * kind's scorer marks correct among those with a correctness, Wilson 95%; the others counted
 * beside it), mean confidence, median active time (and speed
 * relative to others on the same kind x step length, with the far-faster flag), agreement with
 * the others (alpha leaving that annotator out, beside the alpha of everyone) and focus losses.
 * Names only, never emails.
 */

export interface AnnotatorOverviewRow {
  userId: string;
  name: string;
  member: boolean;
  progress: AnnotatorProgress | null;
  /** non-practice answers */
  done: number;
  /** over the answers with a correctness (n) */
  accuracy: { correct: number; n: number; share: number; lower: number; upper: number } | null;
  /** answers left out of accuracy: no correctness (an item without a key, an answer not graded yet) */
  withoutCorrectness: number;
  meanConfidence: number | null;
  medianActiveMs: number | null;
  medianWallMs: number | null;
  relativeSpeed: number | null;
  farFaster: boolean;
  /** alpha of everyone else, or null with a reason */
  alphaWithout: { alpha: number | null; reason?: string } | null;
  focusLosses: number;
}

export interface AnnotatorsOverview {
  rows: AnnotatorOverviewRow[];
  agreement: Pick<AgreementResult, "encoding" | "level" | "metricName" | "overall"> | null;
  encoding: EncodingInfo | null;
  level: AlphaLevelChoice;
  flagNote?: string;
  /** the tag whose values relative time compares within (with the task), null: the task alone */
  tagKey: string | null;
  /** the study conditions, in words, that each person's accuracy pools (the Dashboard tab keeps them apart) */
  pooledConditions: string[];
}

export async function getAnnotatorsOverview(slug: string, searchParams: Record<string, string | string[] | undefined>): Promise<AnnotatorsOverview> {
  const study = await getStudyBySlug(slug);
  const [{ snapshot }, progress, losses] = await Promise.all([
    getSnapshotView(study.id),
    getStudyProgress(study.id, study.overlap),
    focusLossesByUser(study.id),
  ]);
  const params = parseDashboardParams(searchParams);
  const kinds = [...new Set(snapshot.items.kinds)].filter(isTaskKind).sort();
  const encodings = encodingsForKinds(kinds);
  const encoding = encodings.find((e) => e.id === params.encoding) ?? encodings.find((e) => e.level === "ordinal") ?? encodings[0] ?? null;
  const levels = encoding ? allowedLevels(encoding) : [];
  const level: AlphaLevelChoice = params.level && levels.includes(params.level) ? params.level : (levels[0] ?? "nominal");
  const v = `${study.id}@${snapshot.version}`;
  const tagKey = snapshot.items.tags.some((t) => DEFAULT_TAG in t) ? DEFAULT_TAG : null;

  // the tab shows alphas, never their intervals: no bootstrap (18-20 s at 100,000 items with one)
  const agreement = encoding
    ? memoize(`${v}|agreement-values|${tagKey}|${encoding.id}|${level}`, () =>
        agreementValues(snapshot, v, tagKey, encoding.id, level, `${study.id}|agreement`),
      )
    : null;
  const time = memoize(`${v}|time|${tagKey}`, () => timeOf(snapshot, tagKey));

  const { responses } = snapshot;
  const count = new Array<number>(snapshot.annotators.length).fill(0);
  const correct = new Array<number>(snapshot.annotators.length).fill(0);
  // answers with a correctness (accuracy's n); the rest (no key, not graded yet) are left out
  const judged = new Array<number>(snapshot.annotators.length).fill(0);
  const confidenceSum = new Array<number>(snapshot.annotators.length).fill(0);
  for (let r = 0; r < responses.count; r++) {
    const a = responses.annotator[r];
    count[a]++;
    const right = correctnessAt(responses.correct, r);
    if (right !== null) {
      judged[a]++;
      if (right) correct[a]++;
    }
    confidenceSum[a] += responses.confidence[r];
  }
  const progressByUser = new Map(progress.perAnnotator.map((p) => [p.userId, p]));
  const timeByAnnotator = new Map(time.perAnnotator.map((t) => [t.annotator, t]));
  const looByAnnotator = new Map((agreement?.leaveOneOut ?? []).map((l) => [l.coder, l]));

  const rows: AnnotatorOverviewRow[] = snapshot.annotators.map((annotator, i) => {
    const t = timeByAnnotator.get(i);
    const w = judged[i] > 0 ? wilsonInterval(correct[i], judged[i]) : null;
    const loo = looByAnnotator.get(i);
    return {
      userId: annotator.id,
      name: annotator.name,
      member: progressByUser.get(annotator.id)?.member ?? false,
      progress: progressByUser.get(annotator.id) ?? null,
      done: count[i],
      accuracy: w ? { correct: correct[i], n: judged[i], share: w.estimate, lower: w.lower, upper: w.upper } : null,
      withoutCorrectness: count[i] - judged[i],
      meanConfidence: count[i] > 0 ? confidenceSum[i] / count[i] : null,
      medianActiveMs: t?.active.median ?? null,
      medianWallMs: t?.wall.median ?? null,
      relativeSpeed: t?.relativeSpeed ?? null,
      farFaster: t?.farFaster ?? false,
      alphaWithout: loo
        ? { alpha: loo.alpha, ...(loo.reason ? { reason: loo.reason } : {}) }
        : agreement
          ? { alpha: null, reason: "no items shared with others" }
          : null,
      focusLosses: losses.get(annotator.id) ?? 0,
    };
  });
  // annotators with assignments (or membership) but no answers yet
  for (const p of progress.perAnnotator) {
    if (snapshot.annotators.some((a) => a.id === p.userId)) continue;
    rows.push({
      userId: p.userId,
      name: p.name,
      member: p.member,
      progress: p,
      done: 0,
      accuracy: null,
      withoutCorrectness: 0,
      meanConfidence: null,
      medianActiveMs: null,
      medianWallMs: null,
      relativeSpeed: null,
      farFaster: false,
      alphaWithout: null,
      focusLosses: losses.get(p.userId) ?? 0,
    });
  }
  rows.sort((a, b) => a.name.localeCompare(b.name));
  return {
    rows,
    agreement: agreement
      ? {
          encoding: agreement.encoding,
          level: agreement.level,
          metricName: agreement.metricName,
          overall: { ...agreement.overall, ci: null, ciReason: "not computed on this tab: the Dashboard tab shows it", ciDescription: "" },
        }
      : null,
    encoding,
    level,
    tagKey,
    pooledConditions: snapshot.conditions.map(
      (condition) =>
        kinds
          .map((kind) => getTaskModule(kind).conditions)
          .find(Boolean)
          ?.label(condition) ?? condition,
    ),
    ...(time.flagNote ? { flagNote: time.flagNote } : {}),
  };
}
