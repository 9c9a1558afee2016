import { z } from "zod";
import { actionKey, esiObjectNameSchema, parseActionKey, type EsiAction } from "@/lib/tasks/esi-explore/actions";
import { mulberry32 } from "@/lib/stats/rng";
import { seedFromString } from "@/lib/stats/seed-from-string";

/**
 * A pre-rendered exploration graph (ESI-Bench items in Yardstick; docs/esi.md): states, each an
 * image with the objects visible in it, and for each state the actions it has and the state each
 * leads to. An action the graph does not have "cannot do that here": the agent stays, the step
 * still counts. The graph is part of the answer key: only the current state's image and objects
 * ever leave the server. Pure.
 */

const stateIdSchema = z.string().min(1, "a state id cannot be empty").max(120, "a state id has at most 120 characters");

export const esiGraphStateSchema = z.strictObject({
  image: z.string().min(1, "a state needs an image"),
  /** the objects visible in this state (the player's object pickers offer these) */
  objects: z.array(esiObjectNameSchema).max(500).default([]),
  /** what the agent holds here (shown to the person; pickers offer these too) */
  holding: z.array(esiObjectNameSchema).max(20).optional(),
  /** the camera position this state is seen from (view diversity); a state without one has an unknown viewpoint */
  viewpoint: z.string().min(1).max(120).optional(),
  /** a view that tells the question's competing hypotheses apart (contrastive view rate) */
  contrastive: z.boolean().default(false),
  /** for reviewers: what this state shows */
  note: z.string().max(1000).optional(),
});
export type EsiGraphState = z.infer<typeof esiGraphStateSchema>;

/** Edges as written (action text -> state id); keys are rewritten to their canonical text. */
const edgeMapSchema = z.record(z.string(), stateIdSchema);

export const esiGraphSchema = z
  .strictObject({
    initial: stateIdSchema,
    states: z.record(stateIdSchema, esiGraphStateSchema).refine((states) => Object.keys(states).length > 0, "a graph needs at least one state"),
    edges: z.record(stateIdSchema, edgeMapSchema).default({}),
  })
  .superRefine((graph, ctx) => {
    const count = Object.keys(graph.states).length;
    if (count > 20_000) ctx.addIssue({ code: "custom", path: ["states"], message: `a graph has at most 20000 states, got ${count}` });
    if (!Object.hasOwn(graph.states, graph.initial)) {
      ctx.addIssue({ code: "custom", path: ["initial"], message: `the initial state ${JSON.stringify(graph.initial)} is not among the states` });
    }
    for (const [from, edges] of Object.entries(graph.edges)) {
      if (!Object.hasOwn(graph.states, from)) {
        ctx.addIssue({ code: "custom", path: ["edges", from], message: `edges from ${JSON.stringify(from)}, which is not among the states` });
        continue;
      }
      const seen = new Map<string, string>();
      for (const [text, to] of Object.entries(edges)) {
        const parsed = parseActionKey(text);
        if (typeof parsed === "string") {
          ctx.addIssue({ code: "custom", path: ["edges", from, text], message: parsed });
          continue;
        }
        const key = actionKey(parsed);
        const earlier = seen.get(key);
        if (earlier !== undefined) ctx.addIssue({ code: "custom", path: ["edges", from, text], message: `the same action as ${JSON.stringify(earlier)}` });
        seen.set(key, text);
        if (!Object.hasOwn(graph.states, to))
          ctx.addIssue({ code: "custom", path: ["edges", from, text], message: `leads to ${JSON.stringify(to)}, which is not among the states` });
      }
    }
  })
  .transform((graph) => ({
    ...graph,
    edges: Object.fromEntries(
      Object.entries(graph.edges).map(([from, edges]) => [
        from,
        Object.fromEntries(Object.entries(edges).map(([text, to]) => [actionKey(parseActionKey(text) as EsiAction), to])),
      ]),
    ),
  }));
export type EsiGraph = z.infer<typeof esiGraphSchema>;

export const CANNOT_DO_THAT = "cannot do that here";

export interface GraphStep {
  node: string;
  valid: boolean;
  message?: string;
}

/** One action from `node`: the edge's target, or the same node with "cannot do that here". */
export function stepGraph(graph: EsiGraph, node: string, action: { name: string; args?: readonly string[] }): GraphStep {
  const edges = Object.hasOwn(graph.edges, node) ? graph.edges[node] : undefined;
  const key = actionKey(action);
  const target = edges && Object.hasOwn(edges, key) ? edges[key] : undefined;
  if (target === undefined || !Object.hasOwn(graph.states, target)) return { node, valid: false, message: CANNOT_DO_THAT };
  return { node: target, valid: true };
}

export function stateOf(graph: EsiGraph, node: string): EsiGraphState {
  const state = Object.hasOwn(graph.states, node) ? graph.states[node] : undefined;
  if (!state) throw new Error(`the graph has no state ${JSON.stringify(node)}`);
  return state;
}

/** The viewpoint of a state for view diversity: the camera position it names, else null (unknown; never its id). */
export function viewpointOf(graph: EsiGraph, node: string): string | null {
  return graph.states[node]?.viewpoint ?? null;
}

/**
 * The states along a random walk of `steps` actions from the initial state, each action drawn
 * uniformly from the current state's edges (the walk stops early in a state without edges),
 * seeded by `seedKey` so that the same assignment always gets the same walk. Returns the distinct
 * states in the order first visited (the passive multi-view gallery).
 */
export function randomWalkStates(graph: EsiGraph, steps: number, seedKey: string): string[] {
  const rng = mulberry32(seedFromString(seedKey));
  const visited = [graph.initial];
  const seen = new Set(visited);
  let node = graph.initial;
  for (let i = 0; i < steps; i++) {
    const edges = graph.edges[node];
    const targets = edges
      ? Object.keys(edges)
          .sort()
          .map((key) => edges[key])
      : [];
    if (targets.length === 0) break;
    node = targets[Math.floor(rng() * targets.length)];
    if (!seen.has(node)) {
      seen.add(node);
      visited.push(node);
    }
  }
  return visited;
}

/** Follows a list of actions from the initial state (e.g. a reference trajectory); null when one is missing. */
export function followActions(graph: EsiGraph, actions: readonly string[]): string[] | null {
  const nodes = [graph.initial];
  let node = graph.initial;
  for (const text of actions) {
    const parsed = parseActionKey(text);
    if (typeof parsed === "string") return null;
    const step = stepGraph(graph, node, parsed);
    if (!step.valid) return null;
    node = step.node;
    nodes.push(node);
  }
  return nodes;
}

/** The shortest number of actions from the initial state to every reachable state (breadth first). */
export function distancesFromInitial(graph: EsiGraph): Map<string, number> {
  const distance = new Map([[graph.initial, 0]]);
  const queue = [graph.initial];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    for (const target of Object.values(graph.edges[node] ?? {})) {
      if (distance.has(target)) continue;
      distance.set(target, distance.get(node)! + 1);
      queue.push(target);
    }
  }
  return distance;
}
