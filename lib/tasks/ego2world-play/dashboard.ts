import { ego2worldFigures, playBelief, taskTimes, type Ego2worldFigures, type EgoPlay } from "@/lib/tasks/ego2world-play/dashboard-figures";
import type { StudySnapshot } from "@/lib/dashboard/types";
import type { KindDashboard } from "@/lib/tasks/types";
import type { EpisodeAnswer, EpisodeScore } from "@/lib/tasks/ego2world-play/metrics";
import type { ModelPredictionsLoader } from "@/lib/dashboard/types";
import type { KindDashboardData } from "@/lib/tasks/dashboard-port";
import type { ModelRunSummary } from "@/lib/models/types";
import type { GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";
import { ego2worldKeySchema, ego2worldPublicSchema, type Ego2worldKey, type Ego2worldPublic } from "@/lib/tasks/ego2world-play";

/**
 * The Ego2World section of a study's dashboard: loads what the figures need beyond the snapshot
 * (lib/dashboard/ego2world-figures.ts computes them): each person's recorded play steps (active
 * time per task, from the server's step times with gaps capped at the study's idle cap) and note
 * events (belief accuracy: at each step, the share of noted areas that match the hidden world just
 * before it, replayed from the steps; and at submission), and the imported agent runs. Only the
 * responses in the (filtered) snapshot count.
 */

export const EGO2WORLD_KIND = "ego2world-play";

export interface Ego2worldSection extends Ego2worldFigures {
  /** episodes (items) of the study */
  items: number;
}

function isEpisodeScore(value: unknown): value is EpisodeScore {
  return value !== null && typeof value === "object" && Array.isArray((value as { tasks?: unknown }).tasks);
}

function isEpisodeAnswer(value: unknown): value is EpisodeAnswer {
  return value !== null && typeof value === "object" && Array.isArray((value as { tasks?: unknown }).tasks);
}

export async function ego2worldDashboardSection(
  data: KindDashboardData,
  studyId: string,
  snapshot: StudySnapshot,
  models: ModelRunSummary[],
  idleCapMs: number,
  modelPredictions: ModelPredictionsLoader,
  over: GeneraliseOver = "people+items",
): Promise<Ego2worldSection> {
  const itemRows = await data.itemsWithKeys(studyId, EGO2WORLD_KIND);
  const items = new Map<string, { externalId: string; public: Ego2worldPublic; key: Ego2worldKey }>();
  for (const row of itemRows) {
    const pub = ego2worldPublicSchema.safeParse(row.public);
    const key = ego2worldKeySchema.safeParse(row.key);
    if (pub.success && key.success) items.set(row.id, { externalId: row.externalId, public: pub.data, key: key.data });
  }

  // the responses the snapshot holds (filters applied): item id | user id
  const inSnapshot = new Set<string>();
  for (let r = 0; r < snapshot.responses.count; r++) {
    const item = snapshot.responses.item[r];
    if (snapshot.items.kinds[item] === EGO2WORLD_KIND) inSnapshot.add(`${snapshot.items.ids[item]}|${snapshot.annotators[snapshot.responses.annotator[r]].id}`);
  }
  const assignments = await data.playedAssignments(studyId, EGO2WORLD_KIND, ["note_added", "note_edited", "note_removed", "play_step", "submitted"]);

  const plays: EgoPlay[] = [];
  for (const assignment of assignments) {
    const item = items.get(assignment.itemId);
    const response = assignment.response;
    if (!item || !response || !inSnapshot.has(`${assignment.itemId}|${assignment.userId}`)) continue;
    if (!isEpisodeAnswer(response.answer) || !isEpisodeScore(response.score)) continue;
    const steps = assignment.playSteps.map((step) => ({ seq: step.seq, action: step.action, at: step.createdAt.getTime() }));
    plays.push({
      participant: assignment.userId,
      item: assignment.itemId,
      answer: response.answer,
      score: response.score,
      taskMs: taskTimes(steps, item.key.tasks.length, idleCapMs),
      belief: playBelief(item, steps, assignment.events),
    });
  }
  const predictions = await modelPredictions();
  for (const prediction of predictions) {
    if (!items.has(prediction.itemId) || !isEpisodeAnswer(prediction.answer) || !isEpisodeScore(prediction.score)) continue;
    plays.push({ participant: `model:${prediction.runId}`, item: prediction.itemId, answer: prediction.answer, score: prediction.score });
  }

  const taskInfo = [...items.entries()].flatMap(([id, item]) =>
    item.public.tasks.map((task) => ({ item: id, task: task.id, instruction: `${item.externalId} · ${task.instruction}` })),
  );
  const figures = ego2worldFigures(
    plays,
    snapshot.annotators,
    models.map((model) => ({ id: model.id, name: model.name })),
    taskInfo,
    over,
  );
  return { ...figures, items: items.size };
}

/** The Ego2World section of the study dashboard. */
export const dashboard: KindDashboard = {
  section: "ego2world",
  load: ({ data, studyId, snapshot, version, modelVersion, models, idleCapMs, modelPredictions, memoizeAsync, generaliseOver }) =>
    memoizeAsync(`${version}|ego2world|${modelVersion}|${generaliseOver}`, () =>
      ego2worldDashboardSection(data, studyId, snapshot, models, idleCapMs, modelPredictions, generaliseOver),
    ),
};
