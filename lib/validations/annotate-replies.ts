import { z } from "zod";

/**
 * What the participants' routes that agents use answer: GET next, GET an assignment,
 * GET and POST play. For the OpenAPI document (`route({ response })`, lib/http/openapi.ts) and for
 * the tests, which parse the real answers with these (tests/api/agent-example.integration.test.ts):
 * the TypeScript types they describe are NextView (lib/annotate/next.ts), AssignmentView
 * (lib/annotate/assignment-view.ts), PlayState and PlayStepAck (lib/annotate/play.ts) and
 * AgentContract (lib/tasks/agent-contract.ts). Kind-specific parts (views, actions, answers) are
 * any JSON here: the agent contract gives their JSON Schemas per kind.
 */

const jsonSchema = z.record(z.string(), z.unknown()).describe("a JSON Schema (draft 2020-12)");

/** AssignmentView.agent: with an API token only (docs/api.md, "The agent contract"). */
export const agentContractReplySchema = z
  .strictObject({
    interactive: z.boolean().describe("true: act through GET/POST /api/annotate/assignments/{id}/play (exampleAction there) before answering"),
    answerSchema: jsonSchema.describe("the JSON Schema of the answer POST /api/annotate/responses takes for this item's kind (in this study)"),
    actionSchema: jsonSchema.nullable().describe("the JSON Schema of one play action; null when the kind is not interactive"),
    answerInstructions: z.string().describe("what an answer means, for a model's prompt"),
    actionInstructions: z.string().nullable().describe("what an action means (interactive kinds that say)"),
    exampleAnswer: z.unknown().describe("a trivial valid answer computed from the public view (a baseline); null when the kind gives none"),
    answerFromActions: z.boolean().describe("true: the server builds the answer from the recorded actions; submit exampleAnswer as it is"),
  })
  .describe("The agent contract: how to answer this item's kind, without knowing the kind");

export const assignmentReplySchema = z.strictObject({
  assignmentId: z.string(),
  purpose: z.enum(["MAIN", "PRACTICE", "AGREEMENT"]),
  status: z.enum(["ASSIGNED", "STARTED", "SUBMITTED", "RELEASED"]),
  kind: z.string().describe("the task kind's id (agents need not read it: `agent` says how to answer)"),
  view: z.unknown().describe("the kind's public view of the item (never any part of the key)"),
  startedAt: z.number().nullable(),
  timeLimitSeconds: z.number().nullable(),
  condition: z.string().nullable(),
  history: z.array(z.strictObject({ seq: z.number(), type: z.string(), payload: z.unknown(), clientTime: z.number() })),
  reopened: z.strictObject({ submittedSeq: z.number(), submittedAt: z.number(), reason: z.string() }).nullable(),
  agent: agentContractReplySchema.optional().describe("with an API token only"),
});

const completionSchema = z.strictObject({ code: z.string().nullable(), redirectUrl: z.string().nullable() });

export const nextReplySchema = z
  .strictObject({
    status: z.enum(["item", "done", "quota", "wait", "closed", "paused", "full", "excluded", "timed_out", "returned", "consent", "tutorial"]),
    progress: z.record(z.string(), z.unknown()).describe("the participant's progress (Progress, lib/assignment)"),
    assignment: assignmentReplySchema.optional().describe('status "item": the assignment to work on'),
    practice: z
      .strictObject({ answered: z.number(), correct: z.number(), total: z.number(), passMark: z.number().nullable() })
      .optional()
      .describe('status "item"'),
    completionCode: z.string().nullable().optional().describe('status "done" / "quota"'),
    completion: completionSchema.optional().describe('status "done" / "quota" / "full"'),
    reason: z.string().nullable().optional().describe('status "excluded" / "timed_out" / "returned"'),
    path: z.string().optional().describe('status "consent" / "tutorial": the page of the step to take first'),
  })
  .describe("NextView (lib/annotate/next.ts)");

const canAct = z
  .boolean()
  .optional()
  .describe(
    "with an API token only: whether the episode takes another action now (false: a passive condition, the step budget spent, every task done): answer then",
  );
const exampleAction = z
  .unknown()
  .optional()
  .describe("with an API token only: the kind's trivial next action from this view (the agent contract); null: stop acting and answer");

export const playStateReplySchema = z.strictObject({
  seq: z.number().describe("the latest step's seq (0: the start)"),
  view: z.unknown().describe("what the annotator sees now"),
  steps: z.array(z.strictObject({ seq: z.number(), action: z.unknown(), valid: z.boolean(), message: z.string().nullable() })),
  canAct,
  exampleAction,
});

export const playStepReplySchema = z.strictObject({
  seq: z.number(),
  view: z.unknown(),
  valid: z.boolean().describe("false: the action was refused (it still counts as a step)"),
  message: z.string().nullable(),
  duplicate: z.boolean().describe("true: this seq was stored before (a retry), answered from the record"),
  canAct,
  exampleAction,
});
