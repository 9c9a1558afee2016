import { z } from "zod";
import type { AnyTaskModule, Json } from "@/lib/tasks/types";

/**
 * The agent contract (docs/api.md): what a model agent is told with an
 * assignment, so that it can answer any kind, a plug-in too, without knowing its id. Built from
 * the kind's module alone: the JSON Schemas of its answer and action (zod 4's toJSONSchema of
 * `answerSchema`, or `agent.answerSchemaIn(settings)`, and of `interactive.actionSchema`) and its
 * optional `agent` part (KindAgentContract: instructions, a trivial example answer and action from
 * the public view). Nothing here reads the key: the schemas are the kind's, never the item's, and
 * the examples see the public view and the play view only.
 */

export type JsonSchema = Record<string, unknown>;

/** What GET next (and GET assignment) add to an assignment for a caller with an API token (`assignment.agent`). */
export interface AgentContract {
  /** true: act through the play endpoints (GET/POST /api/annotate/assignments/{id}/play) before answering */
  interactive: boolean;
  /** JSON Schema (draft 2020-12) of the answer `POST /api/annotate/responses` takes */
  answerSchema: JsonSchema;
  /** JSON Schema of one action of `POST .../play { seq, action }`; null for kinds that are not interactive */
  actionSchema: JsonSchema | null;
  /** what an answer means, for a model's prompt */
  answerInstructions: string;
  /** what an action means (interactive kinds that say); null otherwise */
  actionInstructions: string | null;
  /** a trivial valid answer computed from the public view (the baseline examples/agent.py submits); null when the kind gives none */
  exampleAnswer: Json | null;
  /** true: the server builds the answer from the recorded actions; submit exampleAnswer as it is */
  answerFromActions: boolean;
}

/** What the play endpoints add for a caller with an API token, after each step. */
export interface PlayAdvice {
  /** whether the episode takes another action now (false: a passive condition, the budget spent, every task done) */
  canAct: boolean;
  /** the kind's trivial next action; null: stop acting and answer (or the kind gives none) */
  exampleAction: Json | null;
}

const cache = new WeakMap<z.ZodType, JsonSchema>();

/**
 * The JSON Schema of a value that `schema` accepts as it stores it (`io: "output"`: a preprocessed
 * or piped field is described by what it becomes, e.g. ENACT's `order`, an array of indices;
 * sending that exactly is accepted). Refinements beyond the JSON Schema vocabulary are checked
 * by the server only. Cached per schema object.
 */
export function answerJsonSchema(schema: z.ZodType): JsonSchema {
  let json = cache.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
    cache.set(schema, json);
  }
  return json;
}

/** The zod schema of a kind's answer in a study with these settings of the kind (kindSettings). */
export function agentAnswerSchema(taskModule: AnyTaskModule, settings: Record<string, unknown>): z.ZodType {
  return taskModule.agent?.answerSchemaIn?.(settings) ?? taskModule.answerSchema;
}

/** The contract of one assignment: its kind's, with the example answer for this public view. */
export function agentContractOf(taskModule: AnyTaskModule, view: Json, settings: Record<string, unknown>): AgentContract {
  const agent = taskModule.agent;
  const actionSchema = taskModule.interactive?.actionSchema;
  return {
    interactive: taskModule.interactive !== undefined,
    answerSchema: answerJsonSchema(agentAnswerSchema(taskModule, settings)),
    actionSchema: actionSchema ? answerJsonSchema(actionSchema) : null,
    answerInstructions: agent?.answerInstructions ?? `${taskModule.title}: answer with a JSON object that matches answerSchema.`,
    actionInstructions: taskModule.interactive ? (agent?.actionInstructions ?? null) : null,
    exampleAnswer: (agent?.exampleAnswer?.(view) ?? null) as Json | null,
    answerFromActions: taskModule.interactive !== undefined && agent?.answerFromActions === true,
  };
}

/**
 * What the play endpoints tell an agent after `stepsTaken` steps (PlayAdvice), from the public view
 * and the current play view. The example action is null whenever the episode takes no action.
 */
export function playAdviceOf(taskModule: AnyTaskModule, view: Json, playView: Json, stepsTaken: number): PlayAdvice {
  if (!taskModule.interactive) return { canAct: false, exampleAction: null };
  const canAct = taskModule.agent?.canAct?.(playView, stepsTaken) ?? true;
  return { canAct, exampleAction: canAct ? ((taskModule.agent?.exampleAction?.(view, playView, stepsTaken) ?? null) as Json | null) : null };
}
