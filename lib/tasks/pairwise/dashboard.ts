import { BOOTSTRAP_RESAMPLES } from "@/lib/dashboard/constants";
import { loadWatchFigures } from "@/lib/tasks/shared/media/watch";
import { pairwisePublicSchema, type PairwiseAnswer, type PairwisePublic } from "@/lib/tasks/pairwise";
import { pairwiseFigures, type PairwiseFigures, type PairwiseRow } from "@/lib/tasks/pairwise/figures";
import type { WatchFigures } from "@/lib/tasks/shared/media/watch-figures";
import type { KindDashboard, KindDashboardContext } from "@/lib/tasks/types";

/**
 * The pairwise section of a study's dashboard: lib/tasks/pairwise/figures.ts over the snapshot's
 * answers (the chosen annotator's, or everyone's), with the side each person saw first (their last
 * `media_sides` event of the item), and watch time and share watched per pair.
 */

const KIND = "pairwise";

export interface PairwiseSection extends PairwiseFigures {
  watch: WatchFigures;
}

const isAnswer = (value: unknown): value is PairwiseAnswer =>
  value !== null && typeof value === "object" && typeof (value as PairwiseAnswer).prefs === "object";

async function load(context: KindDashboardContext): Promise<PairwiseSection> {
  const { data, studyId, snapshot } = context;
  const itemRows = await data.itemPublicParts(studyId, KIND);
  const items = new Map<string, Pick<PairwisePublic, "dimensions" | "models" | "metric">>();
  for (const row of itemRows) {
    const parsed = pairwisePublicSchema.safeParse(row.public);
    if (parsed.success && !context.excludedItemIds?.has(row.id)) items.set(row.id, parsed.data);
  }
  const sides = await data.lastLeftSides(studyId, KIND, "media_sides");
  const leftOf = new Map<string, "a" | "b" | null>(sides.map((row) => [`${row.itemId}|${row.userId}`, row.left === "a" || row.left === "b" ? row.left : null]));
  const rows: PairwiseRow[] = [];
  for (const { kind, row } of context.humanAnswers()) {
    if (kind !== KIND || !isAnswer(row.answer) || !items.has(row.itemId)) continue;
    if (context.annotatorId !== null && row.annotator !== context.annotatorId) continue;
    rows.push({ itemId: row.itemId, person: row.annotator, answer: row.answer, left: leftOf.get(`${row.itemId}|${row.annotator ?? ""}`) ?? null });
  }
  const figures = pairwiseFigures(items, rows, `${studyId}|pairwise`, BOOTSTRAP_RESAMPLES, context.generaliseOver);
  return { ...figures, watch: await loadWatchFigures(data, studyId, snapshot, [KIND]) };
}

export const dashboard: KindDashboard = {
  section: "pairwise",
  load: (context) =>
    context.memoizeAsync(`${context.version}|pairwise|${context.annotatorId ?? ""}|${context.excludedItemIds?.size ?? ""}|${context.generaliseOver}`, () =>
      load(context),
    ),
};
