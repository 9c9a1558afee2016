import { parseActionKey, type EsiAction } from "@/lib/tasks/esi-explore/actions";
import type { EsiCondition } from "@/lib/tasks/esi-explore/conditions";
import type { EsiGraph } from "@/lib/tasks/esi-explore/graph";
import type { Rng } from "@/lib/stats/rng";

/**
 * SIMULATED annotators for the ESI-Bench demo dashboards (not people): a seeded model of how a
 * person explores and answers, so that the dashboard, the replay and the step labels have
 * something to show. In the active condition the simulated person usually walks to a view that
 * settles the question (the shortest path to a contrastive state, with a glance around and now and
 * then an action the scene refuses), holds a first guess until then and revises it there; in the
 * passive conditions it answers right with the condition's rate (about the paper's human rates:
 * single 48%, multi 49%, reference views 83%). Pure: the seed script plays the plan through the
 * real episode code and stores it.
 */

export interface SimulatedBelief {
  /** the belief is stated right after this many actions */
  afterStep: number;
  choice: string | Record<string, string>;
  /** on a 0-100 scale */
  confidence: number;
}

export interface SimulatedEpisode {
  actions: EsiAction[];
  beliefs: SimulatedBelief[];
  final: { choice: string | Record<string, string>; confidence: number };
}

export interface SimulatedPerson {
  /** chance of walking to a settling view in the active condition */
  explores: number;
  /** chance of an extra glance (a turn and back) per step */
  glances: number;
  /** chance of a refused action per step */
  fumbles: number;
}

const PASSIVE_RIGHT: Record<Exclude<EsiCondition, "active">, number> = { "passive-single": 0.48, "passive-multi": 0.52, "passive-gt": 0.85 };

type Options = string[] | Record<string, string[]>;
type Answer = string | Record<string, string>;

function pick<T>(rng: Rng, values: readonly T[]): T {
  return values[Math.floor(rng() * values.length)];
}

/** A guess: right with probability `pRight`, else a wrong option (per part for questions with parts). */
export function guess(rng: Rng, options: Options, answer: Answer, pRight: number): Answer {
  if (Array.isArray(options)) {
    const right = answer as string;
    return rng() < pRight
      ? right
      : pick(
          rng,
          options.filter((o) => o !== right),
        );
  }
  const key = answer as Record<string, string>;
  const allRight = rng() < pRight;
  return Object.fromEntries(
    Object.entries(options).map(([part, list]) => [
      part,
      allRight
        ? key[part]
        : rng() < 0.5
          ? key[part]
          : pick(
              rng,
              list.filter((o) => o !== key[part]),
            ),
    ]),
  );
}

/** The actions of a shortest path from the initial state to the nearest contrastive one. */
export function pathToContrastive(graph: EsiGraph): string[] {
  const previous = new Map<string, { from: string; action: string } | null>([[graph.initial, null]]);
  const queue = [graph.initial];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    if (graph.states[node].contrastive) {
      const actions: string[] = [];
      for (let at = previous.get(node); at; at = previous.get(at.from)) actions.unshift(at.action);
      return actions;
    }
    for (const action of Object.keys(graph.edges[node] ?? {}).sort()) {
      const next = graph.edges[node][action];
      if (previous.has(next)) continue;
      previous.set(next, { from: node, action });
      queue.push(next);
    }
  }
  return [];
}

const REFUSED: EsiAction[] = [
  { name: "move_up", args: [] },
  { name: "turn_up", args: [] },
  { name: "move_down", args: [] },
];

export function planEpisode(
  item: { public: { options: Options; maxSteps?: number }; key: { answer: Answer; graph?: EsiGraph } },
  condition: EsiCondition,
  person: SimulatedPerson,
  rng: Rng,
): SimulatedEpisode {
  const options = item.public.options;
  const answer = item.key.answer;
  const confidence = (low: number, high: number) => Math.round((low + rng() * (high - low)) / 5) * 5;
  if (condition !== "active") {
    const choice = guess(rng, options, answer, PASSIVE_RIGHT[condition]);
    const sure = condition === "passive-gt" ? confidence(65, 95) : confidence(35, 75);
    return { actions: [], beliefs: [{ afterStep: 0, choice, confidence: sure }], final: { choice, confidence: sure } };
  }
  const max = item.public.maxSteps ?? 30;
  const first = guess(rng, options, answer, 0.45);
  const beliefs: SimulatedBelief[] = [{ afterStep: 0, choice: first, confidence: confidence(30, 60) }];
  const graph = item.key.graph;
  if (!graph || rng() >= person.explores) {
    // a quick look around, then the first guess
    const actions: EsiAction[] =
      rng() < 0.5
        ? [
            { name: "turn_left", args: [] },
            { name: "turn_right", args: [] },
          ]
        : [];
    const sure = confidence(40, 80);
    return { actions, beliefs: [...beliefs, { afterStep: actions.length, choice: first, confidence: sure }], final: { choice: first, confidence: sure } };
  }
  const actions: EsiAction[] = [];
  for (const text of pathToContrastive(graph)) {
    if (actions.length + 3 >= max) break;
    if (rng() < person.fumbles) actions.push(pick(rng, REFUSED));
    if (rng() < person.glances) actions.push({ name: "turn_left", args: [] }, { name: "turn_right", args: [] });
    actions.push(parseActionKey(text) as EsiAction);
  }
  const settled = guess(rng, options, answer, 0.82);
  const sure = confidence(70, 100);
  beliefs.push({ afterStep: actions.length, choice: settled, confidence: sure });
  return { actions, beliefs, final: { choice: settled, confidence: sure } };
}
