import type { KindDashboard, KindDashboardContext } from "@/lib/tasks/types";
import type { LlmScoringStatus } from "@/lib/scoring/types";
import { alphaFigure, JUDGE, type AlphaFigure, type Grade } from "@/lib/tasks/free-text/agreement";
import { FREE_TEXT_KIND, freeTextKeySchema, freeTextPublicSchema, parseFreeTextAnswer } from "@/lib/tasks/free-text";
import { isFreeTextGradeRecord, type FreeTextGradeRecord } from "@/lib/tasks/free-text/grades";
import { GRADING_KIND, gradingBatchJsonl, sampleGradable, type GradableAnswer } from "@/lib/tasks/free-text/grading";
import { isJudgeVersion, parseJudgeVersion } from "@/lib/tasks/free-text/judge";
import { promptFileHashes } from "@/lib/tasks/free-text/judge-file";
import { loadWatchFigures } from "@/lib/tasks/shared/media/watch";
import type { WatchFigures } from "@/lib/tasks/shared/media/watch-figures";
import { GRADES, isGrade, meanLlmMatch, referencesOf } from "@/lib/tasks/shared/llm-match/rubric";

/**
 * The free-text section of a study's dashboard: for the judge (model and version) that graded the
 * most answers, the LLM-Match score per category (people pooled, each model run), the grade
 * distribution, the answers still ungraded, and the judge measured against people: Krippendorff's
 * alpha, interval level (the grades are averaged as 100 (s - 1) / 4, i.e. treated as equally
 * spaced), over the answers that people graded in grading studies (lib/tasks/free-text-grade), the
 * judge counted as one more grader, with a 95% percentile pigeonhole bootstrap interval (1,000
 * resamples, seeded by the study) as the dashboard's other alphas: the graded answers and the
 * graders drawn independently, the judge (one fixed model) never drawn; or the answers alone when
 * the study takes its people as the population; beside it the people's alpha among themselves.
 * Items that failed review are left out. Beside them, the watch figures of the video items.
 */

export interface FreeTextScoreCell {
  graded: number;
  /** mean LLM-Match over graded answers, null with none */
  score: number | null;
}

export interface FreeTextJudgeInfo {
  model: string;
  promptVersion: string;
  /** the sha256 of the benchmark's prompt file(s) that judged (main, then extra answers); null: Yardstick's own prompt */
  promptSha256: string[] | null;
  temperature: number | null;
  seed: number | null;
  maxTokens: number | null;
  synthetic: boolean;
  graded: number;
}

export interface FreeTextSection {
  items: number;
  answers: { people: number; models: number };
  /** judges found (model, version), most grades first; the first is the one shown */
  judges: FreeTextJudgeInfo[];
  judge: FreeTextJudgeInfo | null;
  columns: Array<{ id: string; label: string }>;
  /** per category (then "All"): a cell per column */
  rows: Array<{ category: string; cells: FreeTextScoreCell[] }>;
  /** grade counts 1..5 of people's answers (the judge's grades) */
  distribution: { people: number[]; models: number[] };
  ungraded: { people: number; models: number };
  agreement: { judgeHuman: AlphaFigure | null; humanHuman: AlphaFigure | null; gradingItems: number; humanGrades: number; graders: number };
  gradingBatch: { answers: number; jsonl: string };
  llm: LlmScoringStatus;
  /** watch time and share watched (the shared player's events); null when no item has a video or frames */
  watch: WatchFigures | null;
}

const ALL = "All";
const PEOPLE = "people";

/** whether the item's stimulus plays (a video or frames), so that watch figures mean something */
function playsMedia(publicPart: unknown): boolean {
  const parsed = freeTextPublicSchema.safeParse(publicPart);
  return parsed.success && Boolean(parsed.data.media?.video || parsed.data.media?.frames?.length);
}

async function loadSection(context: KindDashboardContext): Promise<FreeTextSection> {
  const { data, studyId, excludedItemIds } = context;
  const items = (await data.itemsOfKind(studyId, FREE_TEXT_KIND)).filter((item) => !excludedItemIds?.has(item.id));
  const itemById = new Map(items.map((item) => [item.id, item]));
  const categoryOf = (itemId: string) => {
    const category = (itemById.get(itemId)?.tags as Record<string, unknown> | null)?.category;
    return typeof category === "string" && category !== "" ? category : "(none)";
  };
  const [responses, predictions, results, runs] = await Promise.all([
    data.responsesToItems(studyId, [...itemById.keys()]),
    data.predictionsForItems(studyId, [...itemById.keys()]),
    data.llmResultsOfKind(studyId, FREE_TEXT_KIND),
    data.modelRunNames(studyId),
  ]);

  // judges: (model, version) of the current prompt, most grades first
  const judgeGrades = new Map<string, { info: FreeTextJudgeInfo; grades: Map<string, FreeTextGradeRecord> }>();
  for (const row of results) {
    if (!isFreeTextGradeRecord(row.score) || !isJudgeVersion(row.promptVersion)) continue;
    const comboKey = `${row.model}|${row.promptVersion}`;
    let judge = judgeGrades.get(comboKey);
    if (!judge) {
      const settings = parseJudgeVersion(row.promptVersion);
      judge = {
        info: {
          model: row.model,
          promptVersion: row.promptVersion,
          promptSha256: settings ? promptFileHashes(settings.prompt) : null,
          temperature: settings?.temperature ?? null,
          seed: settings?.seed ?? null,
          maxTokens: settings?.maxTokens ?? null,
          synthetic: row.score.judge.synthetic === true,
          graded: 0,
        },
        grades: new Map(),
      };
      judgeGrades.set(comboKey, judge);
    }
    const target = row.responseId ? `response:${row.responseId}` : row.predictionId ? `prediction:${row.predictionId}` : null;
    if (!target) continue;
    judge.grades.set(target, row.score);
    judge.info.graded += 1;
  }
  const judges = [...judgeGrades.values()].sort((a, b) => b.info.graded - a.info.graded);
  const chosen = judges[0] ?? null;
  const gradeOf = (target: string): number | null => chosen?.grades.get(target)?.grade ?? null;

  const columns = [{ id: PEOPLE, label: "People (pooled)" }, ...runs.map((run) => ({ id: `model:${run.id}`, label: `Model: ${run.name}` }))];
  const cells = new Map<string, Map<string, number[]>>();
  const push = (category: string, column: string, grade: number) => {
    for (const key of [category, ALL]) {
      const byColumn = cells.get(key) ?? new Map<string, number[]>();
      cells.set(key, byColumn);
      byColumn.set(column, [...(byColumn.get(column) ?? []), grade]);
    }
  };
  const distribution = { people: GRADES.map(() => 0), models: GRADES.map(() => 0) };
  const ungraded = { people: 0, models: 0 };
  for (const response of responses) {
    const grade = gradeOf(`response:${response.id}`);
    if (grade === null) ungraded.people += 1;
    else {
      push(categoryOf(response.assignment.itemId), PEOPLE, grade);
      distribution.people[grade - 1] += 1;
    }
  }
  for (const prediction of predictions) {
    const grade = gradeOf(`prediction:${prediction.id}`);
    if (grade === null) ungraded.models += 1;
    else {
      push(categoryOf(prediction.itemId), `model:${prediction.runId}`, grade);
      distribution.models[grade - 1] += 1;
    }
  }
  const categories = [...new Set(items.map((item) => categoryOf(item.id)))].sort();
  const rows = [...categories, ALL].map((category) => ({
    category,
    cells: columns.map((column) => {
      const grades = cells.get(category)?.get(column.id) ?? [];
      return { graded: grades.length, score: meanLlmMatch(grades) };
    }),
  }));

  // people's grades of this study's answers, from grading studies (any study)
  const gradingItems = await data.gradingItemsOf(studyId, GRADING_KIND);
  const gradingResponses = gradingItems.length === 0 ? [] : await data.responsesToGradingItems(gradingItems.map((item) => item.id));
  const targetOfGradingItem = new Map(
    gradingItems.map((item) => {
      const source = (item.key as { source?: { response?: string; prediction?: string } }).source;
      return [item.id, source?.response ? `response:${source.response}` : `prediction:${source?.prediction ?? ""}`];
    }),
  );
  const human = new Map<string, Grade[]>();
  const graders = new Map<string, number>();
  for (const row of gradingResponses) {
    const grade = (row.answer as { grade?: unknown } | null)?.grade;
    const target = targetOfGradingItem.get(row.assignment.itemId);
    if (!isGrade(grade) || !target) continue;
    let grader = graders.get(row.assignment.userId);
    if (grader === undefined) graders.set(row.assignment.userId, (grader = JUDGE + 1 + graders.size));
    human.set(target, [...(human.get(target) ?? []), { grade, grader }]);
  }
  const judgeHumanUnits: Grade[][] = [];
  for (const [target, grades] of human) {
    const judged = gradeOf(target);
    if (judged !== null) judgeHumanUnits.push([{ grade: judged, grader: JUDGE }, ...grades]);
  }
  const humanHumanUnits = [...human.values()].filter((grades) => grades.length >= 2);

  // the grading batch: a sample of every answer (people's and models')
  const gradable: GradableAnswer[] = [];
  const describe = (itemId: string) => {
    const item = itemById.get(itemId);
    const publicPart = freeTextPublicSchema.safeParse(item?.public);
    const key = freeTextKeySchema.safeParse(item?.key);
    return item && publicPart.success && key.success
      ? { itemExternalId: item.externalId, question: publicPart.data.question, references: referencesOf(key.data), category: categoryOf(itemId) }
      : null;
  };
  for (const response of responses) {
    const about = describe(response.assignment.itemId);
    const answer = parseFreeTextAnswer(response.answer);
    if (about && answer) gradable.push({ type: "response", id: response.id, text: answer.text, ...about });
  }
  for (const prediction of predictions) {
    const about = describe(prediction.itemId);
    const answer = parseFreeTextAnswer(prediction.answer);
    if (about && answer) gradable.push({ type: "prediction", id: prediction.id, text: answer.text, ...about });
  }
  const sample = sampleGradable(studyId, gradable);

  return {
    items: items.length,
    answers: { people: responses.length, models: predictions.length },
    judges: judges.map((judge) => judge.info),
    judge: chosen?.info ?? null,
    columns,
    rows,
    distribution,
    ungraded,
    agreement: {
      judgeHuman: alphaFigure(judgeHumanUnits, `free-text|judge-human|${studyId}`, context.generaliseOver),
      humanHuman: alphaFigure(humanHumanUnits, `free-text|human-human|${studyId}`, context.generaliseOver),
      gradingItems: gradingItems.length,
      humanGrades: [...human.values()].reduce((sum, grades) => sum + grades.length, 0),
      graders: graders.size,
    },
    gradingBatch: { answers: sample.length, jsonl: gradingBatchJsonl(studyId, sample) },
    llm: await data.llmScoringStatus(studyId, FREE_TEXT_KIND),
    watch: items.some((item) => playsMedia(item.public)) ? await loadWatchFigures(data, studyId, context.snapshot, [FREE_TEXT_KIND]) : null,
  };
}

export const dashboard: KindDashboard = {
  section: "freeText",
  // not memoized by the snapshot's version: grades arrive (scoring jobs, grading studies) without a new response here
  load: loadSection,
};
