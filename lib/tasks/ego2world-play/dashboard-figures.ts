import { compileRules, runAction } from "@/lib/tasks/ego2world-play/engine";
import { meanOf, replanCount, type EpisodeAnswer, type EpisodeScore } from "@/lib/tasks/ego2world-play/metrics";
import { applyNoteEvent, beliefAccuracy, type Note } from "@/lib/tasks/ego2world-play/notes";
import type { World } from "@/lib/tasks/ego2world-play/world";
import { ego2worldActionSchema, episodeSpec, type Ego2worldKey, type Ego2worldPublic } from "@/lib/tasks/ego2world-play";
import type { PairedDifference } from "@/lib/stats/paired-bootstrap";
import { tCdf } from "@/lib/stats/student-t";
import { twoWayClusterVariance, twoWayCritical, type CrossedAnswer, type GeneraliseOver } from "@/lib/stats/two-way-cluster-variance";

/**
 * Ego2World figures of a study's dashboard (issue #11, "Dashboards and imports"), as the paper's
 * Table 14: TSR, TCR, F1, WSR, validity, replan, steps and time per task, per person, pooled over
 * people and per imported agent run, all pooled over task units (episode x task); belief accuracy
 * for people; and the paired difference humans - agent on the tasks both did, with its interval
 * over people and episodes (or episodes only: the study's "generalise over"). Pure.
 */

export interface EgoPlay {
  /** the annotator's user id, or `model:<runId>` */
  participant: string;
  /** the item (episode) */
  item: string;
  answer: EpisodeAnswer;
  score: EpisodeScore;
  /** people: active milliseconds per task (in the key's task order; null when unknown) */
  taskMs?: ReadonlyArray<number | null>;
  /** people: mean belief accuracy over the steps (null without a noted area) */
  belief?: number | null;
}

/** One task unit of one play. */
export interface TaskUnit {
  item: string;
  task: string;
  success: number;
  TCR: number | null;
  F1: number;
  WSR: number | null;
  /** accepted / submitted actions of the task; null with none */
  validity: number | null;
  accepted: number;
  submitted: number;
  replan: number;
  steps: number;
  ms: number | null;
}

export const EGO_METRICS = ["TSR", "TCR", "F1", "WSR", "validity", "replan", "steps"] as const;
export type EgoMetric = (typeof EGO_METRICS)[number];

export interface EgoRow {
  id: string;
  name: string;
  group: "annotator" | "pooled" | "agent";
  episodes: number;
  tasks: number;
  TSR: number | null;
  TCR: number | null;
  F1: number | null;
  WSR: number | null;
  validity: number | null;
  /** replans per task (failed actions followed by a different one) */
  replan: number | null;
  /** submitted actions per task */
  steps: number | null;
  /** active time per task (people) */
  timeMs: number | null;
  /** share of noted areas matching the hidden world, averaged over steps then plays (people) */
  belief: number | null;
}

/** A paired difference (the fields of lib/stats/paired-bootstrap.ts's, kept for the page and CSV) over people and episodes. */
export interface EgoPairedDifference extends PairedDifference {
  /** people behind the pairs */
  people: number;
  /** degrees of freedom of the interval and p-value */
  df: number | null;
}

export interface EgoAgentDifference {
  agent: { id: string; name: string };
  metrics: Array<{ metric: EgoMetric } & EgoPairedDifference>;
}

export interface EgoTaskRow {
  item: string;
  task: string;
  instruction: string;
  humans: { plays: number; TSR: number | null; steps: number | null; timeMs: number | null };
  agents: Array<{ id: string; success: boolean | null; steps: number | null }>;
}

export interface Ego2worldFigures {
  /** what the differences' intervals generalise over (the study setting) */
  over: GeneraliseOver;
  rows: EgoRow[];
  differences: EgoAgentDifference[];
  tasks: EgoTaskRow[];
  episodes: number;
  humanPlays: number;
}

export function unitsOf(play: EgoPlay): TaskUnit[] {
  return play.score.tasks.map((task, i) => {
    const actions = play.answer.tasks.find((entry) => entry.id === task.id)?.actions ?? [];
    const accepted = task.accepted.filter(Boolean).length;
    return {
      item: play.item,
      task: task.id,
      success: task.success ? 1 : 0,
      TCR: task.TCR,
      F1: task.F1,
      WSR: task.WSR,
      validity: task.accepted.length === 0 ? null : accepted / task.accepted.length,
      accepted,
      submitted: task.accepted.length,
      replan: replanCount(actions, task.accepted),
      steps: task.accepted.length,
      ms: play.taskMs?.[i] ?? null,
    };
  });
}

/** A row pooled over the task units of the plays (validity over all actions). */
export function egoRow(id: string, name: string, group: EgoRow["group"], plays: readonly EgoPlay[]): EgoRow {
  const units = plays.flatMap(unitsOf);
  const submitted = units.reduce((sum, unit) => sum + unit.submitted, 0);
  const accepted = units.reduce((sum, unit) => sum + unit.accepted, 0);
  return {
    id,
    name,
    group,
    episodes: new Set(plays.map((play) => play.item)).size,
    tasks: units.length,
    TSR: meanOf(units.map((unit) => unit.success)),
    TCR: meanOf(units.map((unit) => unit.TCR)),
    F1: meanOf(units.map((unit) => unit.F1)),
    WSR: meanOf(units.map((unit) => unit.WSR)),
    validity: submitted === 0 ? null : accepted / submitted,
    replan: meanOf(units.map((unit) => unit.replan)),
    steps: meanOf(units.map((unit) => unit.steps)),
    timeMs: meanOf(units.map((unit) => unit.ms)),
    belief: meanOf(plays.map((play) => play.belief ?? null)),
  };
}

function unitValue(unit: TaskUnit, metric: EgoMetric): number | null {
  return metric === "TSR" ? unit.success : unit[metric];
}

/** The method of the differences in words. */
export function egoDifferenceMethod(over: GeneraliseOver): string {
  return over === "people+items"
    ? "paired difference over people and episodes: two-way cluster-robust variance (Cameron, Gelbach & Miller 2011), t at min(people, episodes) - 1 df"
    : "paired difference over episodes (these people taken as the population): variance clustered by episode, t at episodes - 1 df";
}

/**
 * Humans - agent per metric on the task units both played: D = the mean over people's plays of a
 * unit (nulls left out) of (their value - the agent's value there), that is people's figure on the
 * shared units minus the agent's weighted as people's plays are (the agent's plain mean when every
 * unit has as many plays). Its variance is the two-way cluster-robust variance of that mean,
 * clustered by episode (an episode's tasks share one world and one play) and by person; "items
 * only" keeps the episodes alone. Interval D +- t sqrt(V), two-sided p from the same t.
 * Source: Cameron, Gelbach & Miller 2011, "Robust inference with multiway clustering", J. Bus. Econ. Stat. 29(2) (the paired difference as one mean, clustered two ways).
 */
export function agentDifferences(
  humanPlays: readonly EgoPlay[],
  agentPlays: readonly EgoPlay[],
  over: GeneraliseOver = "people+items",
): Array<{ metric: EgoMetric } & EgoPairedDifference> {
  const agentUnits = new Map<string, TaskUnit>();
  for (const unit of agentPlays.flatMap(unitsOf)) agentUnits.set(JSON.stringify([unit.item, unit.task]), unit);
  const humanUnits = humanPlays.flatMap((play) => unitsOf(play).map((unit) => ({ unit, person: play.participant })));
  const method = egoDifferenceMethod(over);
  return EGO_METRICS.map((metric) => {
    const answers: CrossedAnswer[] = [];
    let sumA = 0;
    let sumB = 0;
    for (const { unit, person } of humanUnits) {
      const agent = agentUnits.get(JSON.stringify([unit.item, unit.task]));
      if (!agent) continue;
      const a = unitValue(unit, metric);
      const b = unitValue(agent, metric);
      if (a === null || b === null || Number.isNaN(a) || Number.isNaN(b)) continue;
      answers.push({ item: unit.item, person, num: a - b });
      sumA += a;
      sumB += b;
    }
    const n = answers.length;
    if (n === 0)
      return { metric, n, clusters: 0, people: 0, meanA: null, meanB: null, difference: null, ci: null, pValue: null, pBelow: false, method, df: null };
    const v = twoWayClusterVariance(answers, over);
    const base = { metric, n, clusters: v.items, people: v.people, meanA: sumA / n, meanB: sumB / n, difference: v.estimate, pBelow: false, method, df: v.df };
    if (v.variance === null || v.df === null) return { ...base, ci: null, reason: v.reason ?? "one item", pValue: null };
    const se = Math.sqrt(v.variance);
    if (se === 0) return { ...base, ci: null, reason: "no spread: every episode the same", pValue: null };
    const half = twoWayCritical(v.df) * se;
    return { ...base, ci: [v.estimate - half, v.estimate + half], pValue: Math.min(1, 2 * (1 - tCdf(Math.abs(v.estimate) / se, v.df))) };
  });
}

/**
 * The figures for a study: `people` in display order (pseudonymous names), `agents` the imported
 * runs; plays of people not listed are still pooled. `taskInfo` names each task (item, task id ->
 * instruction) in episode order for the per-task table.
 */
export function ego2worldFigures(
  plays: readonly EgoPlay[],
  people: ReadonlyArray<{ id: string; name: string }>,
  agents: ReadonlyArray<{ id: string; name: string }>,
  taskInfo: ReadonlyArray<{ item: string; task: string; instruction: string }>,
  over: GeneraliseOver = "people+items",
): Ego2worldFigures {
  const humanPlays = plays.filter((play) => !play.participant.startsWith("model:"));
  const agentPlays = (id: string) => plays.filter((play) => play.participant === `model:${id}`);
  const rows: EgoRow[] = [
    ...people
      .map((person) =>
        egoRow(
          person.id,
          person.name,
          "annotator",
          humanPlays.filter((play) => play.participant === person.id),
        ),
      )
      .filter((row) => row.tasks > 0),
    egoRow("pooled", "Humans (pooled)", "pooled", humanPlays),
    ...agents.map((agent) => egoRow(`model:${agent.id}`, agent.name, "agent", agentPlays(agent.id))),
  ];
  const differences = agents
    .filter((agent) => agentPlays(agent.id).length > 0 && humanPlays.length > 0)
    .map((agent) => ({ agent, metrics: agentDifferences(humanPlays, agentPlays(agent.id), over) }));
  const humanUnits = humanPlays.flatMap(unitsOf);
  const agentUnits = new Map(agents.map((agent) => [agent.id, agentPlays(agent.id).flatMap(unitsOf)]));
  const tasks = taskInfo.map((info): EgoTaskRow => {
    const units = humanUnits.filter((unit) => unit.item === info.item && unit.task === info.task);
    return {
      ...info,
      humans: {
        plays: units.length,
        TSR: meanOf(units.map((unit) => unit.success)),
        steps: meanOf(units.map((unit) => unit.steps)),
        timeMs: meanOf(units.map((unit) => unit.ms)),
      },
      agents: agents.map((agent) => {
        const unit = agentUnits.get(agent.id)!.find((entry) => entry.item === info.item && entry.task === info.task);
        return { id: agent.id, success: unit ? unit.success === 1 : null, steps: unit ? unit.steps : null };
      }),
    };
  });
  return { over, rows, differences, tasks, episodes: new Set(plays.map((play) => play.item)).size, humanPlays: humanPlays.length };
}

/** Active milliseconds per task from the step times: gaps capped at `capMs`; a `done` step closes its task. */
export function taskTimes(steps: ReadonlyArray<{ seq: number; action: unknown; at: number }>, taskCount: number, capMs: number): Array<number | null> {
  const times: Array<number | null> = Array.from({ length: taskCount }, () => null);
  const ordered = [...steps].sort((a, b) => a.seq - b.seq);
  let task = 0;
  for (let i = 1; i < ordered.length && task < taskCount; i++) {
    const gap = Math.min(Math.max(0, ordered[i].at - ordered[i - 1].at), capMs);
    times[task] = (times[task] ?? 0) + gap;
    const action = ego2worldActionSchema.safeParse(ordered[i].action);
    if (action.success && action.data.type === "done") task++;
  }
  return times;
}

/**
 * Mean belief accuracy of one play: the notes (replayed from the note events) compared, at each
 * `play_step` event, with the world just before that step and, at `submitted`, with the final
 * world; steps without a noted area are left out. Null when no comparison was possible.
 */
export function playBelief(
  item: { public: Ego2worldPublic; key: Ego2worldKey },
  steps: ReadonlyArray<{ seq: number; action: unknown }>,
  events: ReadonlyArray<{ seq: number; type: string; payload: unknown }>,
): number | null {
  const spec = episodeSpec(item);
  const engine = compileRules(spec);
  const worlds: World[] = [spec.world];
  for (const step of [...steps].filter((s) => s.seq > 0).sort((a, b) => a.seq - b.seq)) {
    const previous = worlds[worlds.length - 1];
    const action = ego2worldActionSchema.safeParse(step.action);
    worlds.push(action.success && action.data.type === "act" ? runAction(engine, previous, action.data.action).world : previous);
  }
  let notes: Note[] = [];
  const shares: Array<number | null> = [];
  for (const event of [...events].sort((a, b) => a.seq - b.seq)) {
    if (event.type === "play_step") {
      const seq = (event.payload as { seq?: unknown } | null)?.seq;
      if (typeof seq === "number" && seq >= 1 && seq <= worlds.length - 1) shares.push(beliefAccuracy(notes, worlds[seq - 1]));
    } else if (event.type === "submitted") shares.push(beliefAccuracy(notes, worlds[worlds.length - 1]));
    else notes = applyNoteEvent(notes, event.type, event.payload);
  }
  return meanOf(shares);
}
