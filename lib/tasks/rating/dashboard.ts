import { BOOTSTRAP_RESAMPLES } from "@/lib/dashboard/constants";
import { loadWatchFigures } from "@/lib/tasks/shared/media/watch";
import { ratingPublicSchema, type RatingAnswer, type RatingScore, type RubricEntry } from "@/lib/tasks/rating";
import { ratingFigures, type RatingFigures, type RatingRow } from "@/lib/tasks/rating/figures";
import type { WatchFigures } from "@/lib/tasks/shared/media/watch-figures";
import type { KindDashboard, KindDashboardContext } from "@/lib/tasks/types";

/**
 * The rating section of a study's dashboard: the figures of lib/tasks/rating/figures.ts from the
 * snapshot's answers (the chosen annotator's for the means, everyone's for alpha) and the imported
 * judge runs, plus watch time and share watched per item.
 */

const KIND = "rating";

export interface RatingSection extends RatingFigures {
  watch: WatchFigures;
}

const isScore = (value: unknown): value is RatingScore =>
  value !== null && typeof value === "object" && typeof (value as RatingScore).total === "number" && typeof (value as RatingScore).dimensions === "object";
const isAnswer = (value: unknown): value is RatingAnswer => value !== null && typeof value === "object" && typeof (value as RatingAnswer).ratings === "object";

async function load(context: KindDashboardContext): Promise<RatingSection> {
  const { data, studyId, snapshot } = context;
  const itemRows = await data.itemPublicParts(studyId, KIND);
  const rubricByItem = new Map<string, readonly RubricEntry[]>();
  for (const row of itemRows) {
    const parsed = ratingPublicSchema.safeParse(row.public);
    if (parsed.success) rubricByItem.set(row.id, parsed.data.rubric);
  }
  const tagsOf = new Map(snapshot.items.ids.map((id, index) => [id, snapshot.items.tags[index]]));
  const rows: RatingRow[] = [];
  for (const { kind, row } of context.humanAnswers()) {
    if (kind !== KIND || !isScore(row.score) || !isAnswer(row.answer)) continue;
    if (context.excludedItemIds?.has(row.itemId)) continue;
    const model = tagsOf.get(row.itemId)?.model;
    rows.push({ itemId: row.itemId, annotator: row.annotator ?? "", answer: row.answer, score: row.score, model: model === undefined ? null : String(model) });
  }
  const predictions = context.models.length > 0 ? await context.modelPredictions() : [];
  const judgeRows = predictions.filter((p) => rubricByItem.has(p.itemId) && isScore(p.score)).map((p) => ({ runId: p.runId, score: p.score as RatingScore }));
  const figures = ratingFigures(
    rubricByItem,
    rows,
    judgeRows,
    context.models.map((m) => ({ id: m.id, name: m.name })),
    `${studyId}|rating`,
    BOOTSTRAP_RESAMPLES,
    context.generaliseOver,
  );
  const chosen = context.annotatorId === null ? figures : { ...figures, ...pickAnnotator(rubricByItem, rows, context.annotatorId, studyId) };
  return { ...chosen, watch: await loadWatchFigures(data, studyId, snapshot, [KIND]) };
}

/** The means of one annotator (alpha stays over everyone). */
function pickAnnotator(
  rubricByItem: Map<string, readonly RubricEntry[]>,
  rows: RatingRow[],
  annotatorId: string,
  studyId: string,
): Pick<RatingFigures, "entries" | "pooled" | "byGenerator" | "answers" | "people"> {
  const own = ratingFigures(
    rubricByItem,
    rows.filter((row) => row.annotator === annotatorId),
    [],
    [],
    `${studyId}|rating`,
    1,
  );
  return { entries: own.entries, pooled: own.pooled, byGenerator: own.byGenerator, answers: own.answers, people: own.people };
}

export const dashboard: KindDashboard = {
  section: "rating",
  load: (context) =>
    context.memoizeAsync(
      `${context.version}|rating|${context.modelVersion}|${context.annotatorId ?? ""}|${context.excludedItemIds?.size ?? ""}|${context.generaliseOver}`,
      () => load(context),
    ),
};
