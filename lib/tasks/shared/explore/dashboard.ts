import type { StudySnapshot } from "@/lib/dashboard/types";
import type { KindDashboard } from "@/lib/tasks/types";
import {
  EXPLORE_PAPER_HUMANS,
  exploreTableRow,
  isExploreScoreLike,
  presenceAlpha,
  sUniAlpha,
  type ExploreEntry,
  type ExploreParticipant,
  type ExploreScoreLike,
  type ExploreTableRow,
} from "@/lib/tasks/shared/explore/tables";
import type { ModelPredictionsLoader } from "@/lib/dashboard/types";
import type { KindDashboardData } from "@/lib/tasks/dashboard-port";
import type { ModelRunSummary } from "@/lib/models/types";
import type { LlmScoringStatus } from "@/lib/scoring/types";
import type { AlphaResult } from "@/lib/stats/krippendorff-alpha";
import { embedModelOf, isCurrentPromptVersion } from "@/lib/tasks/shared/explore/llm";
import { exploreAgreementEncodings, parseExploreModelAnswer, type ExploreSceneKey } from "@/lib/tasks/explore-scene";
import { EXPLORE_STRUCTURED_VERSION, scoreStructured } from "@/lib/tasks/shared/explore/scorer";

/**
 * The structured score of an answer as the scorer computes it now: the stored one when it is of
 * the current version, else the answer rescored (scores stored before a change of the scorer's
 * numbers would break Eq. 1 on the table's means); null when the answer is unreadable.
 */
function currentStructured(stored: unknown, answer: unknown, key: ExploreSceneKey | undefined): ExploreScoreLike | null {
  if (isExploreScoreLike(stored) && (stored as { version?: unknown }).version === EXPLORE_STRUCTURED_VERSION) return stored;
  const parsed = parseExploreModelAnswer(answer);
  return parsed && key ? scoreStructured(parsed, key) : null;
}

/**
 * The EXPLORE-Bench section of a study's dashboard: the paper's table (S_obj, S_att, S_rel, S_uni
 * by Short / Medium / Long / Full; S_key and S_abn for abnormal items) per annotator, pooled and per
 * imported model run, once per scorer: the structured scorer (every answer, Response.score and
 * ModelPrediction.score) and each LLM scorer (model, prompt version) that has scored answers
 * (ScorerResult, written by the background jobs of lib/scoring/), beside the paper's human numbers.
 * Agreement over annotators: alpha on per-object presence (nominal) and on S_uni (interval).
 */

export interface ExploreScorerTable {
  id: string;
  scorer: "structured" | "llm";
  /** "structured scorer" or "LLM scorer (Qwen3-8B)": never the paper's name */
  title: string;
  model: string | null;
  promptVersion: string | null;
  rows: ExploreTableRow[];
  /** answers (responses and predictions) this scorer has scored, of all EXPLORE answers */
  scored: number;
  answers: number;
  /** alpha over annotators on this scorer's S_uni, interval */
  sUniAlpha: AlphaResult | null;
}

export interface ExploreSection {
  tables: ExploreScorerTable[];
  /** alpha over annotators on per-object presence (nominal); the object matching is the same under both scorers */
  presenceAlpha: AlphaResult | null;
  items: number;
  abnormalItems: number;
  /** items whose subset tag is none of Short, Medium, Long (counted in Full only) */
  otherSubsetItems: number;
  paper: typeof EXPLORE_PAPER_HUMANS;
  llm: LlmScoringStatus;
}

/** the kind whose answers the section shows (EXPLORE-Bench has one) */
const EXPLORE_KIND = "explore-scene";

const SUBSETS = new Set(["Short", "Medium", "Long"]);

interface Answer {
  /** participant ids: the annotator's user id, or `model:<runId>` */
  participant: string;
  itemIndex: number;
  subset: string | null;
  /** the item has key states */
  abnormal: boolean;
  answer: unknown;
  structured: ExploreScoreLike | null;
  /** "<model>|<promptVersion>" -> LLM score */
  llm: Map<string, ExploreScoreLike>;
}

const comboOf = (model: string, promptVersion: string) => `${model}|${promptVersion}`;

async function llmResults(data: KindDashboardData, studyId: string) {
  const rows = await data.llmResultsWithTargets(studyId);
  const byTarget = new Map<string, Map<string, ExploreScoreLike>>();
  const combos = new Map<string, { model: string; promptVersion: string }>();
  for (const row of rows) {
    // replies to older prompts (another prompt version) are not shown: the prompts and the figures changed
    if (!isExploreScoreLike(row.score) || !isCurrentPromptVersion(row.promptVersion)) continue;
    const target = row.response
      ? `${row.response.assignment.itemId}|${row.response.assignment.userId}`
      : row.prediction
        ? `${row.prediction.itemId}|model:${row.prediction.runId}`
        : null;
    if (!target) continue;
    const combo = comboOf(row.model, row.promptVersion);
    combos.set(combo, { model: row.model, promptVersion: row.promptVersion });
    const map = byTarget.get(target) ?? new Map<string, ExploreScoreLike>();
    map.set(combo, row.score);
    byTarget.set(target, map);
  }
  return { byTarget, combos: [...combos.entries()].sort(([a], [b]) => a.localeCompare(b)) };
}

export async function exploreDashboardSection(
  data: KindDashboardData,
  studyId: string,
  snapshot: StudySnapshot,
  models: ModelRunSummary[],
  modelPredictions: ModelPredictionsLoader,
): Promise<ExploreSection> {
  const { items, responses } = snapshot;
  const [llm, predictions, status] = await Promise.all([llmResults(data, studyId), modelPredictions(), data.llmScoringStatus(studyId, EXPLORE_KIND)]);
  const abnormalOf = (item: number): boolean => ((items.keys[item] as ExploreSceneKey | undefined)?.keyStates?.length ?? 0) > 0;
  const subsetOf = (item: number): string | null => {
    const value = items.tags[item]?.subset;
    return typeof value === "string" ? value : null;
  };

  const answers: Answer[] = [];
  for (let r = 0; r < responses.count; r++) {
    const item = responses.item[r];
    if (items.kinds[item] !== EXPLORE_KIND) continue;
    const userId = snapshot.annotators[responses.annotator[r]].id;
    const score = responses.score[r];
    answers.push({
      participant: userId,
      itemIndex: item,
      subset: subsetOf(item),
      abnormal: abnormalOf(item),
      answer: responses.answer[r],
      structured: currentStructured(score, responses.answer[r], items.keys[item] as ExploreSceneKey | undefined),
      llm: llm.byTarget.get(`${items.ids[item]}|${userId}`) ?? new Map(),
    });
  }
  for (const prediction of predictions) {
    const item = items.index.get(prediction.itemId);
    if (item === undefined || items.kinds[item] !== EXPLORE_KIND) continue;
    const participant = `model:${prediction.runId}`;
    answers.push({
      participant,
      itemIndex: item,
      subset: subsetOf(item),
      abnormal: abnormalOf(item),
      answer: prediction.answer,
      structured: currentStructured(prediction.score, prediction.answer, items.keys[item] as ExploreSceneKey | undefined),
      llm: llm.byTarget.get(`${prediction.itemId}|${participant}`) ?? new Map(),
    });
  }

  const humansWithAnswers = new Set(answers.filter((a) => !a.participant.startsWith("model:")).map((a) => a.participant));
  const participants: ExploreParticipant[] = [
    { id: "pooled", label: "Humans (pooled)", group: "pooled" },
    ...snapshot.annotators.filter((a) => humansWithAnswers.has(a.id)).map((a): ExploreParticipant => ({ id: a.id, label: a.name, group: "annotator" })),
    ...models.map((m): ExploreParticipant => ({ id: `model:${m.id}`, label: m.name, group: "model" })),
  ];

  const tableOf = (
    id: string,
    scorer: "structured" | "llm",
    title: string,
    model: string | null,
    promptVersion: string | null,
    pick: (answer: Answer) => ExploreScoreLike | null,
  ): ExploreScorerTable => {
    const entriesOf = (participant: ExploreParticipant): ExploreEntry[] =>
      answers
        .filter((a) => (participant.group === "pooled" ? !a.participant.startsWith("model:") : a.participant === participant.id))
        .flatMap((a) => {
          const score = pick(a);
          return score ? [{ subset: a.subset, score, abnormal: a.abnormal }] : [];
        });
    const rows = participants
      .map((participant) => exploreTableRow(participant, entriesOf(participant)))
      .filter((row) => row.participant.group === "pooled" || row.cells.Full.n > 0 || row.abnormal !== null);
    // agreement over annotators: S_uni of each item's human answers
    const byItem = new Map<number, number[]>();
    for (const a of answers) {
      if (a.participant.startsWith("model:")) continue;
      const score = pick(a);
      if (!score) continue;
      byItem.set(a.itemIndex, [...(byItem.get(a.itemIndex) ?? []), score.S_uni]);
    }
    return {
      id,
      scorer,
      title,
      model,
      promptVersion,
      rows,
      scored: answers.filter((a) => pick(a) !== null).length,
      answers: answers.length,
      sUniAlpha: sUniAlpha([...byItem.values()]),
    };
  };

  const tables = [
    tableOf("structured", "structured", "structured scorer", null, null, (a) => a.structured),
    ...llm.combos.map(([combo, { model, promptVersion }]) =>
      tableOf(
        `llm:${combo}`,
        "llm",
        `LLM scorer (${model})${embedModelOf(promptVersion) ? `, objects matched by ${embedModelOf(promptVersion)} embeddings` : ""}`,
        model,
        promptVersion,
        (a) => a.llm.get(combo) ?? null,
      ),
    ),
  ];

  // per-object presence: the structured matching (the LLM path keeps it), one unit per item x annotated category
  const [presence] = exploreAgreementEncodings;
  const presenceUnits = new Map<string, string[]>();
  for (const a of answers) {
    if (a.participant.startsWith("model:") || !a.structured) continue;
    const key = items.keys[a.itemIndex] as ExploreSceneKey | undefined;
    if (!key) continue;
    for (const unit of presence.units(a.answer as never, { key, score: a.structured })) {
      const id = `${a.itemIndex}|${unit.unit}`;
      presenceUnits.set(id, [...(presenceUnits.get(id) ?? []), String(unit.value)]);
    }
  }

  const exploreItems = items.kinds.map((kind, i) => (kind === EXPLORE_KIND ? i : -1)).filter((i) => i >= 0);
  const abnormalItems = exploreItems.filter(abnormalOf).length;
  return {
    tables,
    presenceAlpha: presenceAlpha([...presenceUnits.values()]),
    items: exploreItems.length,
    abnormalItems,
    otherSubsetItems: exploreItems.filter((i) => !SUBSETS.has(subsetOf(i) ?? "")).length,
    paper: EXPLORE_PAPER_HUMANS,
    llm: status,
  };
}

/** The EXPLORE-Bench section of the study dashboard. */
export const dashboard: KindDashboard = {
  section: "explore",
  load: ({ data, studyId, snapshot, models, modelPredictions }) => exploreDashboardSection(data, studyId, snapshot, models, modelPredictions),
};
