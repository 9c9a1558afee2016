import { compileRules, expandNames, goalHolds, runAction, type Engine, type RuleSpec, type SkillSpec } from "@/lib/tasks/ego2world-play/engine";
import { normaliseAction } from "@/lib/tasks/ego2world-play/syntax";
import { cloneWorld, slotKeys, slotValue, type World } from "@/lib/tasks/ego2world-play/world";

/**
 * Ego2World scoring (docs/ego2world.md, "Scoring"), the same for people and imported agent runs. The
 * answer's actions run task after task from the initial world, never reset; the reference runs the
 * same way. Per task: success (every goal holds right after the task), TCR (share of key actions
 * matched as a multiset by accepted primitives, skills expanded), F1 (multiset F1 of action names,
 * skills expanded, accepted or not), WSR (share of the slots the reference changed in this task on
 * which the person's world equals the reference's after it) and `accepted` per submitted action.
 */

export interface EpisodeTask {
  id: string;
  goal: string[];
  keyActions: string[];
  reference: string[];
}

export interface EpisodeSpec {
  world: World;
  rules: RuleSpec[];
  skills: SkillSpec[];
  tasks: EpisodeTask[];
  areas: string[];
}

export interface EpisodeAnswer {
  tasks: Array<{ id: string; actions: string[] }>;
}

export interface TaskScore {
  id: string;
  success: boolean;
  TCR: number | null;
  F1: number;
  WSR: number | null;
  accepted: boolean[];
}

export interface EpisodeScore {
  TSR: number | null;
  TCR: number | null;
  F1: number | null;
  WSR: number | null;
  validity: number | null;
  tasks: TaskScore[];
}

/** One task as played: the world before and after, and each action's outcome. */
export interface PlayedTask {
  id: string;
  actions: string[];
  before: World;
  after: World;
  accepted: boolean[];
  feedback: string[];
  /** accepted primitives, skills expanded, normalised */
  acceptedPrimitives: string[];
}

export function engineOf(spec: Pick<EpisodeSpec, "rules" | "skills" | "areas">): Engine {
  return compileRules({ rules: spec.rules, skills: spec.skills, areas: spec.areas });
}

/** Runs each task's actions in episode order from the initial world (tasks without actions do nothing). */
export function playTasks(engine: Engine, world: World, tasks: ReadonlyArray<{ id: string; actions: readonly string[] }>): PlayedTask[] {
  let current = cloneWorld(world);
  return tasks.map(({ id, actions }) => {
    const before = current;
    const accepted: boolean[] = [];
    const feedback: string[] = [];
    const acceptedPrimitives: string[] = [];
    for (const action of actions) {
      const outcome = runAction(engine, current, action);
      accepted.push(outcome.accepted);
      feedback.push(outcome.feedback);
      if (outcome.accepted) {
        current = outcome.world;
        acceptedPrimitives.push(...outcome.primitives.filter((primitive) => primitive.accepted).map((primitive) => primitive.text));
      }
    }
    return { id, actions: [...actions], before, after: current, accepted, feedback, acceptedPrimitives };
  });
}

function counts(values: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const value of values) map.set(value, (map.get(value) ?? 0) + 1);
  return map;
}

/** Size of the multiset intersection. */
export function multisetOverlap(a: readonly string[], b: readonly string[]): number {
  const left = counts(a);
  let overlap = 0;
  for (const [value, count] of counts(b)) overlap += Math.min(count, left.get(value) ?? 0);
  return overlap;
}

/** Multiset F1 of predicted against reference values: 1 when both are empty, 0 when only one is. */
export function multisetF1(predicted: readonly string[], reference: readonly string[]): number {
  if (predicted.length === 0 && reference.length === 0) return 1;
  if (predicted.length === 0 || reference.length === 0) return 0;
  const overlap = multisetOverlap(predicted, reference);
  if (overlap === 0) return 0;
  const precision = overlap / predicted.length;
  const recall = overlap / reference.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Share of key actions matched (multiset, normalised text) by the accepted primitives; null without key actions. */
export function taskCompletionRate(keyActions: readonly string[], acceptedPrimitives: readonly string[]): number | null {
  if (keyActions.length === 0) return null;
  return multisetOverlap(acceptedPrimitives.map(normaliseAction), keyActions.map(normaliseAction)) / keyActions.length;
}

/**
 * WSR of one task: over the object slots whose value differs between the reference world before
 * and after the task, the share on which `person` equals the reference after it; null when no slot
 * changed.
 */
export function worldStateRecovery(referenceBefore: World, referenceAfter: World, person: World): number | null {
  const ids = [...new Set([...Object.keys(referenceBefore.objects), ...Object.keys(referenceAfter.objects)])];
  let changed = 0;
  let recovered = 0;
  for (const id of ids) {
    for (const slot of slotKeys([referenceBefore.objects[id], referenceAfter.objects[id]])) {
      const target = slotValue(referenceAfter, id, slot);
      if (slotValue(referenceBefore, id, slot) === target) continue;
      changed++;
      if (slotValue(person, id, slot) === target) recovered++;
    }
  }
  return changed === 0 ? null : recovered / changed;
}

/** Changes of course after a failed action: failed actions followed (in the same task) by a different action. */
export function replanCount(actions: readonly string[], accepted: readonly boolean[]): number {
  let replans = 0;
  for (let i = 0; i + 1 < actions.length; i++) {
    if (!accepted[i] && normaliseAction(actions[i + 1]) !== normaliseAction(actions[i])) replans++;
  }
  return replans;
}

export function meanOf(values: ReadonlyArray<number | null>): number | null {
  const present = values.filter((value): value is number => value !== null);
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length;
}

/** The answer's actions per key task, in episode order (a task with no entry has none; unknown ids are ignored). */
export function answerActions(spec: Pick<EpisodeSpec, "tasks">, answer: EpisodeAnswer): Array<{ id: string; actions: string[] }> {
  const byId = new Map<string, string[]>();
  for (const task of answer.tasks) if (!byId.has(task.id)) byId.set(task.id, task.actions);
  return spec.tasks.map((task) => ({ id: task.id, actions: byId.get(task.id) ?? [] }));
}

/** Row figures from task scores: means over tasks ignoring nulls; validity over all actions. */
export function summariseTasks(tasks: TaskScore[]): EpisodeScore {
  const submitted = tasks.reduce((sum, task) => sum + task.accepted.length, 0);
  const accepted = tasks.reduce((sum, task) => sum + task.accepted.filter(Boolean).length, 0);
  return {
    TSR: meanOf(tasks.map((task) => (task.success ? 1 : 0))),
    TCR: meanOf(tasks.map((task) => task.TCR)),
    F1: meanOf(tasks.map((task) => task.F1)),
    WSR: meanOf(tasks.map((task) => task.WSR)),
    validity: submitted === 0 ? null : accepted / submitted,
    tasks,
  };
}

/** Scores one answer on one episode. */
export function scoreEpisode(spec: EpisodeSpec, answer: EpisodeAnswer, engine: Engine = engineOf(spec)): EpisodeScore {
  const person = playTasks(engine, spec.world, answerActions(spec, answer));
  const reference = playTasks(
    engine,
    spec.world,
    spec.tasks.map((task) => ({ id: task.id, actions: task.reference })),
  );
  const tasks = spec.tasks.map((task, i): TaskScore => {
    const played = person[i];
    const ref = reference[i];
    const predictedNames = played.actions.flatMap((action) => expandNames(engine, action));
    const referenceNames = task.reference.flatMap((action) => expandNames(engine, action));
    return {
      id: task.id,
      success: task.goal.every((goal) => goalHolds(goal, played.after)),
      TCR: taskCompletionRate(task.keyActions, played.acceptedPrimitives),
      F1: multisetF1(predictedNames, referenceNames),
      WSR: worldStateRecovery(ref.before, ref.after, played.after),
      accepted: played.accepted,
    };
  });
  return summariseTasks(tasks);
}

/** Dataset figures pooled over every task unit of every score (validity over all actions). */
export function aggregateEpisodeScores(scores: ReadonlyArray<Pick<EpisodeScore, "tasks">>): Record<"TSR" | "TCR" | "F1" | "WSR" | "validity", number | null> {
  const { TSR, TCR, F1, WSR, validity } = summariseTasks(scores.flatMap((score) => score.tasks));
  return { TSR, TCR, F1, WSR, validity };
}
