import { AppError } from "@/lib/errors";
import { enactForwardModule } from "@/lib/tasks/enact-forward";
import { enactInverseModule } from "@/lib/tasks/enact-inverse";
import { exploreSceneModule } from "@/lib/tasks/explore-scene";
import { gridwmJudgeModule } from "@/lib/tasks/gridwm-judge";
import { gridwmNextObsModule } from "@/lib/tasks/gridwm-next-obs";
import { gridwmSceneJsonModule } from "@/lib/tasks/gridwm-scene-json";
import type { AnyTaskModule, ScoredAnswer } from "@/lib/tasks/types";

/**
 * The task-kind registry (DESIGN.md, "The task-kind contract"). Adding a benchmark task means
 * writing one module in lib/tasks/<kind>.ts and adding one line here; the key must equal the
 * module's `kind` (a unit test checks it).
 */
const registered = {
  "enact-forward": enactForwardModule,
  "enact-inverse": enactInverseModule,
  "gridwm-next-obs": gridwmNextObsModule,
  "gridwm-scene-json": gridwmSceneJsonModule,
  "gridwm-judge": gridwmJudgeModule,
  "explore-scene": exploreSceneModule,
} as const satisfies Record<string, AnyTaskModule>;

export type TaskKind = keyof typeof registered;

export const taskModules: Record<TaskKind, AnyTaskModule> = registered;

export const taskKinds = Object.keys(registered) as TaskKind[];

export function isTaskKind(kind: unknown): kind is TaskKind {
  return typeof kind === "string" && Object.hasOwn(registered, kind);
}

/** The module of a kind; throws AppError("INVALID") naming the known kinds for anything else. */
export function getTaskModule(kind: string): AnyTaskModule {
  if (!isTaskKind(kind)) {
    throw new AppError("INVALID", `unknown task kind ${JSON.stringify(kind)}; known kinds: ${taskKinds.join(", ")}`);
  }
  return taskModules[kind];
}

/**
 * A kind's dataset metrics from answers with their context (item tags, who answered): the kind's
 * aggregateAnswers when it has one (GridWM-Judge Task C), else aggregate() of the scores.
 */
export function aggregateScoredAnswers(taskModule: AnyTaskModule, rows: ReadonlyArray<ScoredAnswer>): Record<string, number | null> {
  return taskModule.aggregateAnswers ? taskModule.aggregateAnswers(rows) : taskModule.aggregate(rows.map((row) => row.score));
}

export type { AnyTaskModule, TaskModule, TaskItem, ScoredAnswer, ModelAnswerParse, AgreementContext } from "@/lib/tasks/types";
