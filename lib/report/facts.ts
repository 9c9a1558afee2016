import "server-only";
import packageJson from "@/package.json";
import { AppError } from "@/lib/errors";
import { ALL } from "@/lib/dashboard/accuracy";
import type { ComparisonRow } from "@/lib/dashboard/comparison";
import { visitStudyDashboard, type StudyDashboard } from "@/lib/dashboard/study-dashboard";
import { excludedItemIdsForStudy } from "@/lib/review/exclusion";
import { quantile } from "@/lib/stats/descriptive";
import { predictedHalfWidth } from "@/lib/stats/study-planner";
import { planFromSnapshot, type StudyPlanData } from "@/lib/plan/plan-for-study";
import { getSnapshot } from "@/lib/dashboard/snapshot";
import { snapshotWithoutAnnotators } from "@/lib/dashboard/participant-filter";
import { CHECKLIST, type ChecklistChoice } from "@/lib/report/checklist";
import { compensationFacts, type CompensationFacts } from "@/lib/report/compensation";
import { itemsPerPersonAtMost } from "@/lib/report/instrument";
import { count, figure, interval, minutes, percent, pValue, spread } from "@/lib/report/format";
import {
  countHumanAnswersPerItem,
  countReportBatches,
  countReportItems,
  findStudyForReport,
  listReportJudges,
  listReportModels,
  listReportPeople,
  type ReportItemCount,
  type ReportJudge,
  type ReportModel,
  type ReportPerson,
} from "@/lib/repos/report";
import { EXPORT_KINDS } from "@/lib/exports/filter";
import { reportingAnswersOf, type AskedNumber, type ReportingAnswers } from "@/lib/validations/reporting";

/**
 * The human-baseline report (docs/report.md): every entry of the reporting checklist
 * (lib/report/checklist.ts) filled from the study's own records with its value and where it comes
 * from, or carried in from the researcher's Reporting answers (Settings), or "not reported" with
 * why. The significance and uncertainty entries are the dashboard's own figures for the default
 * view (visitStudyDashboard: people without excluded participants, agents as models), not a
 * second computation.
 */

export interface ReportEntry {
  number: string;
  section: string;
  name: string;
  /** the checklist's choice, where the entry offers one and the answer is known */
  choice?: ChecklistChoice;
  value: string;
  /** where the value comes from */
  source: string;
  /** false: the value says "not reported" and why */
  reported: boolean;
}

export interface StudyReport {
  study: { slug: string; title: string };
  generatedAt: string;
  /** the code that computed the figures */
  yardstick: { version: string; commit: string | null };
  /** the 72 entries in the checklist's order */
  entries: ReportEntry[];
  /** people against each model on every item both answered (the dashboard's rows for the whole study); null while the dashboard computes */
  comparison: ComparisonRow[] | null;
  /** the dashboard's interval method line; null while it computes */
  methodLine: string | null;
}

type Fill = Omit<ReportEntry, "number" | "section" | "name">;

const SETTINGS = "study settings: Reporting";
const NOT_ANSWERED = "not answered in the study's Reporting settings";

function yes(value: string, source: string, choice?: ChecklistChoice): Fill {
  return { value, source, choice, reported: true };
}

function notReported(why: string, source: string): Fill {
  return { value: `not reported: ${why}`, source, choice: "Unknown-Unreported", reported: false };
}

interface Context {
  study: NonNullable<Awaited<ReturnType<typeof findStudyForReport>>>;
  answers: ReportingAnswers;
  items: ReportItemCount[];
  batches: { batches: number; itemsInFiles: number };
  people: ReportPerson[];
  answersPerItem: number[];
  models: ReportModel[];
  judges: ReportJudge[];
  reviewExcludedItems: number;
  compensation: CompensationFacts;
  dashboard: StudyDashboard | null;
  plan: StudyPlanData | null;
}

function asked(ctx: Context, number: AskedNumber, whyNot = NOT_ANSWERED): Fill {
  const answer = ctx.answers.answers[number];
  if (!answer) return notReported(whyNot, SETTINGS);
  return yes(answer.detail ?? answer.choice ?? "", SETTINGS, answer.choice);
}

/** A fact of Yardstick's with the researcher's words added when they gave any. */
function withNote(ctx: Context, number: AskedNumber, fill: Fill): Fill {
  const answer = ctx.answers.answers[number];
  if (!answer?.detail) return fill;
  return { ...fill, value: `${fill.value}. Researcher: ${answer.detail}`, source: `${fill.source}; ${SETTINGS}`, reported: true };
}

const ordinary = (ctx: Context) => ctx.items.filter((i) => !i.practice && !i.gold).reduce((sum, i) => sum + i.items, 0);
const practiceItems = (ctx: Context) => ctx.items.filter((i) => i.practice).reduce((sum, i) => sum + i.items, 0);
const goldItems = (ctx: Context) => ctx.items.filter((i) => i.gold && !i.practice).reduce((sum, i) => sum + i.items, 0);
const baseliners = (ctx: Context) => ctx.people.filter((p) => p.mainAnswers + p.goldAnswers > 0);
const starters = (ctx: Context) => ctx.people.filter((p) => p.started);
const kindsLine = (ctx: Context) =>
  [...new Set(ctx.items.map((i) => i.kind))]
    .map((kind) => `${kind} ${count(ctx.items.filter((i) => i.kind === kind && !i.practice && !i.gold).reduce((s, i) => s + i.items, 0))}`)
    .join(", ");

function paperEntries(ctx: Context): Record<string, Fill> {
  const imported = `${count(ordinary(ctx))} items in the study (${kindsLine(ctx)}), besides ${count(practiceItems(ctx))} practice and ${count(goldItems(ctx))} gold; ${count(ctx.batches.batches)} imported batch(es) holding ${count(ctx.batches.itemsInFiles)} items`;
  const runs = ctx.models.filter((m) => m.answers > 0);
  return {
    "0.1": asked(ctx, "0.1"),
    "0.2": asked(ctx, "0.2"),
    "0.3": asked(ctx, "0.3"),
    "0.4": asked(ctx, "0.4"),
    "0.5": asked(ctx, "0.5"),
    "0.6": asked(ctx, "0.6"),
    "0.7": asked(ctx, "0.7"),
    "0.8": withNote(ctx, "0.8", yes(imported, "items and batches of the study (imports)")),
    "0.9":
      runs.length === 0
        ? notReported("no model run imported and no agent answered", "model runs and agents")
        : yes(runs.map((m) => `${m.name}: ${count(m.items)} items`).join("; "), "model runs and agents"),
    "0.10":
      runs.length === 0
        ? notReported("no model run imported and no agent answered", "model runs and agents")
        : yes(runs.map((m) => `${m.name}: ${(m.answers / Math.max(1, m.items)).toFixed(1)}`).join("; "), "model runs and agents (one stored answer per item)"),
  };
}

function designEntries(ctx: Context): Record<string, Fill> {
  const people = baseliners(ctx);
  const excluded = people.filter((p) => p.status === "EXCLUDED").length;
  const answered = ctx.answersPerItem.filter((n) => n > 0).length;
  const quota = ctx.study.itemsPerParticipant;
  const rules = [
    `k = ${ctx.study.overlap} answers per item${ctx.study.conditions.length > 0 ? ` in each of ${ctx.study.conditions.length} conditions (${ctx.study.conditions.join(", ")}), counterbalanced` : ""}`,
    quota === null ? "every person may answer every item" : `${quota} items per person`,
    ctx.study.balanceTag ? `each person's items balanced over the tag "${ctx.study.balanceTag}"` : null,
    "items handed out in a random order per person, fewest answers first",
  ].filter(Boolean);
  return {
    "1.1": yes(
      `${count(people.length)} people answered${excluded > 0 ? ` (${count(excluded)} of them excluded by the quality rules, ${count(people.length - excluded)} in the figures)` : ""}; agents not counted`,
      "participants (people with answers outside practice)",
    ),
    "1.2": yes(`${count(answered)} of the study's ${count(ordinary(ctx))} items answered by people`, "items and responses"),
    "1.2.1": withNote(
      ctx,
      "1.2.1",
      yes(`all the study's items are the test set, drawn by the assignment rules: ${rules.join("; ")}`, "assignment rules (study settings)"),
    ),
    "1.3": yes(`${spread(ctx.answersPerItem)} answers per item; target k = ${ctx.study.overlap}`, "responses per ordinary item"),
    "1.4": yes(`${spread(people.map((p) => p.mainAnswers))} items per person${quota === null ? "" : ` (quota ${quota})`}`, "responses per participant"),
    "1.5": asked(ctx, "1.5"),
    "1.6": asked(ctx, "1.6"),
    "1.7": asked(ctx, "1.7"),
    "1.8": asked(
      ctx,
      "1.8",
      "the basis of the sample size is not recorded (the Plan panel computes one from a pilot: lib/stats/study-planner.ts); state it in the Reporting settings",
    ),
    "1.8.1": withPlanner(ctx, asked(ctx, "1.8.1")),
    "1.9": asked(ctx, "1.9"),
    "1.10": asked(ctx, "1.10"),
  };
}

/**
 * The planner's precision at the design the study reached, per kind: the 95% half-width of
 * people's figure for the people who answered and their mean items each, from the variance
 * components of their answers so far (lib/plan, lib/stats/study-planner.ts).
 */
export function plannerLines(plan: StudyPlanData | null): string[] {
  if (!plan) return [];
  return plan.kinds.flatMap((kind) => {
    if (!kind.components || kind.people < 2 || kind.items < 2) return [];
    const itemsPerPerson = Math.min(kind.items, Math.max(1, kind.answers / kind.people));
    const halfWidth = predictedHalfWidth(kind.components, { items: kind.items, people: kind.people, itemsPerPerson });
    return [`${kind.kind} ${kind.metricLabel}: ±${halfWidth.toFixed(3)} at ${kind.people} people × ${itemsPerPerson.toFixed(1)} of ${kind.items} items`];
  });
}

function withPlanner(ctx: Context, fill: Fill): Fill {
  const lines = plannerLines(ctx.plan);
  if (lines.length === 0) return fill;
  return {
    ...fill,
    value: `${fill.value}. The planner on people's answers so far (excluded participants and agents left out), the 95% half-width of people's figure at the design reached: ${lines.join("; ")}`,
    source: `${fill.source}; the planner (lib/plan, lib/stats/study-planner.ts)`,
  };
}

function tutorialPages(ctx: Context): number {
  return Array.isArray(ctx.study.tutorialPages) ? ctx.study.tutorialPages.length : 0;
}

function compensationEntries(ctx: Context): Record<string, Fill> {
  const c = ctx.compensation;
  const money = (amount: number | null) => (amount === null ? null : `${amount.toFixed(2)}${c.currency ? ` ${c.currency}` : ""}`);
  const reward = money(c.rewardPerPerson);
  const time = c.estimatedMinutes === null ? "" : ` for an estimated ${c.estimatedMinutes} min`;
  const none = c.notReported ?? "not stated";
  const structure = reward
    ? yes(`a fixed reward per person${c.bonusRule ? ` plus a performance bonus (${c.bonusRule})` : ""}`, c.source, "Yes")
    : notReported(none, c.source);
  return {
    "2.7": reward ? yes(`paid${time}`, c.source, "Yes") : notReported(none, c.source),
    "2.7.1": reward ? yes(`${reward} per person${time}`, c.source) : notReported(none, c.source),
    "2.7.2": c.bonusRule ? yes(c.bonusRule, c.source, "Yes") : notReported(c.notReported ?? "no bonus rule stated", c.source),
    "2.7.2.1": c.bonusTotal !== null ? yes(`${money(c.bonusTotal)} in total`, c.source) : notReported(c.notReported ?? "no bonus total stated", c.source),
    "2.7.3": ctx.answers.answers["2.7.3"] ? asked(ctx, "2.7.3") : structure,
    "2.7.3.1": ctx.answers.answers["2.7.3.1"] ? asked(ctx, "2.7.3.1") : { ...structure, choice: structure.reported ? undefined : structure.choice },
  };
}

function recruitmentEntries(ctx: Context): Record<string, Fill> {
  const pages = tutorialPages(ctx);
  const practice = practiceItems(ctx);
  const trained = pages > 0 || practice > 0;
  const gate = ctx.study.practicePassMark === null ? "" : `, passing ${Math.round(100 * ctx.study.practicePassMark)}% of practice unlocks the items`;
  return {
    "2.1": asked(ctx, "2.1"),
    "2.1.1": asked(ctx, "2.1.1"),
    "2.2": asked(ctx, "2.2"),
    "2.3": asked(ctx, "2.3"),
    "2.3.1": asked(ctx, "2.3.1"),
    "2.3.2": asked(ctx, "2.3.2", "Yardstick sees people only once they start; state the platform's screening exclusions in the Reporting settings"),
    "2.4": asked(ctx, "2.4"),
    "2.5": asked(ctx, "2.5"),
    "2.6": yes(trained ? "Yes" : "No tutorial pages and no practice items", "study settings (tutorial, practice items)", trained ? "Yes" : "No"),
    "2.6.1": trained
      ? yes(
          `${count(pages)} tutorial page(s), then ${count(practice)} practice item(s) showing the right answer after each${gate}`,
          "study settings (tutorial, practice items)",
        )
      : yes("no training", "study settings (tutorial, practice items)", "N/A"),
    "2.6.2": asked(ctx, "2.6.2"),
    "2.6.2.1": asked(ctx, "2.6.2.1"),
    ...compensationEntries(ctx),
  };
}

function qualityRules(ctx: Context): string[] {
  const s = ctx.study;
  return [
    goldItems(ctx) > 0 ? `${count(goldItems(ctx))} gold (attention) items, ${Math.round(100 * s.goldRate)}% of each person's queue` : null,
    s.goldFailLimit !== null
      ? `excluded after ${s.goldFailLimit} failed gold items${s.goldFailWindow !== null ? ` among the first ${s.goldFailWindow}` : ""}`
      : null,
    s.practicePassMark !== null ? `practice pass mark ${Math.round(100 * s.practicePassMark)}%` : null,
    s.itemTimeLimitSeconds !== null ? `answers past the ${s.itemTimeLimitSeconds} s item time limit flagged` : null,
    s.sessionTimeLimitSeconds !== null ? `session time limit ${s.sessionTimeLimitSeconds} s` : null,
    ctx.reviewExcludedItems > 0 ? `${count(ctx.reviewExcludedItems)} item(s) excluded by item review` : null,
  ].filter((rule): rule is string => rule !== null);
}

function agentsAndImports(ctx: Context) {
  return { agents: ctx.models.filter((m) => m.agent && m.answers > 0), imports: ctx.models.filter((m) => !m.agent && m.answers > 0) };
}

function executionEntries(ctx: Context): Record<string, Fill> {
  const s = ctx.study;
  const rules = qualityRules(ctx);
  const started = starters(ctx);
  const excluded = started.filter((p) => p.status === "EXCLUDED");
  const goldAnswers = ctx.people.reduce((sum, p) => sum + p.goldAnswers, 0);
  const goldFailed = ctx.people.reduce((sum, p) => sum + p.goldFailed, 0);
  const reasons = [...new Set(excluded.map((p) => p.statusReason).filter(Boolean))].join("; ");
  const { agents, imports } = agentsAndImports(ctx);
  const most = itemsPerPersonAtMost({ ordinary: ordinary(ctx), gold: goldItems(ctx), goldRate: s.goldRate, quota: s.itemsPerParticipant });
  const limits = [
    s.itemTimeLimitSeconds !== null ? `${s.itemTimeLimitSeconds} s per item` : null,
    s.sessionTimeLimitSeconds !== null ? `${s.sessionTimeLimitSeconds} s per session` : null,
  ]
    .filter(Boolean)
    .join(", ");
  const ui: Fill =
    agents.length > 0
      ? yes(
          `Partial: ${agents.map((a) => a.name).join(", ")} played through the same annotation routes as people (the same items' public views, queue and scoring), through the API rather than the browser page${imports.length > 0 ? `; ${imports.map((m) => m.name).join(", ")} answered outside Yardstick (imported runs)` : ""}`,
          "agents (lib/participants/agents.ts) and model runs",
          "Partial",
        )
      : imports.length > 0
        ? yes(`No: ${imports.map((m) => m.name).join(", ")} answered outside Yardstick (imported runs)`, "model runs", "No")
        : yes("no model answered the study", "model runs and agents", "N/A");
  return {
    "3.1": yes(
      `${count(most.total)} items per person at most${most.gold > 0 ? ` (up to ${count(most.gold)} of them gold, mixed in at ${Math.round(100 * s.goldRate)}% of the queue)` : ""}${s.itemsPerParticipant !== null ? ` (quota ${s.itemsPerParticipant}, gold included)` : ""}, after ${count(practiceItems(ctx))} practice item(s)${limits ? `; time limits ${limits}` : ""}`,
      "study settings",
    ),
    "3.1.1": yes(
      "Yes: each person gets the items in a random order of their own; options as each task kind shows them (a kind that shuffles an item's options does so per person and logs the order shown); agents get the items in import order",
      "assignment rules (docs/assignment.md)",
      "Yes",
    ),
    "3.2": yes(rules.length > 0 ? "Yes" : "No quality rule set", "study settings (gold items, exclusion rule, practice gate)", rules.length > 0 ? "Yes" : "No"),
    "3.2.1": rules.length > 0 ? yes(rules.join("; "), "study settings; item review") : yes("none", "study settings", "N/A"),
    "3.2.2": yes(
      `${percent(excluded.length, started.length)} of people who started excluded${reasons ? ` (${reasons})` : ""}; ${percent(goldFailed, goldAnswers)} of gold answers failed; ${percent(ctx.reviewExcludedItems, ordinary(ctx))} of items excluded by review`,
      "participants' statuses, gold answers, item review",
    ),
    "3.3": ui,
    "3.3.1":
      agents.length > 0 || imports.length > 0
        ? yes(
            [agents.length > 0 ? "API (agents through the annotation API)" : null, imports.length > 0 ? "imported runs (the model's own harness)" : null]
              .filter(Boolean)
              .join("; "),
            "agents and model runs",
          )
        : yes("no model answered the study", "model runs and agents", "N/A"),
    "3.3.2": asked(ctx, "3.3.2"),
    "3.4":
      agents.length > 0
        ? yes(
            "Partial: agents get each item's public view with their kind's agent contract (the answer's schema and its instructions in words); people get the study's instructions and the kind's page",
            "agent contract (docs/api.md)",
            "Partial",
          )
        : imports.length > 0
          ? notReported("the imported runs' prompts are not recorded in Yardstick; state them in the Reporting settings (3.4.1)", "model runs")
          : yes("no model answered the study", "model runs and agents", "N/A"),
    "3.4.1": asked(ctx, "3.4.1"),
    "3.5": asked(ctx, "3.5"),
    "3.5.1": asked(ctx, "3.5.1"),
    "3.6": yes("No: each answer is stored with a confidence and the interaction events, no explanation", "responses (answer, confidence, events)", "No"),
  };
}

function comparisonRowsOf(dashboard: StudyDashboard | null): ComparisonRow[] | null {
  return dashboard ? dashboard.comparison.rows.filter((row) => row.tag === ALL) : null;
}

function comparisonLine(dashboard: StudyDashboard, row: ComparisonRow): string {
  const metric = dashboard.comparison.metrics.find((m) => m.kind === row.kind && m.metric === row.metric);
  const proportion = metric?.proportion ?? false;
  const d = row.difference;
  const condition = row.conditionLabel ?? row.condition;
  const head = `${row.model.name}, ${row.kind} ${metric?.label ?? row.metric}${condition ? ` (${condition})` : ""}`;
  const figures = `people ${figure(row.humans.estimate, proportion)} vs model ${figure(row.modelEstimate, proportion)}, D = ${figure(d.estimate, proportion, true)}${interval(d.ci, proportion)}, p = ${pValue(d.p)}`;
  return `${head}: ${figures} on ${count(row.items)} items, ${count(row.people)} people${d.reason ? ` (${d.reason})` : ""}`;
}

function analysisEntries(ctx: Context): Record<string, Fill> {
  const pending = "the dashboard's figures are still being computed (a large study): ask for the report again in a minute";
  const d = ctx.dashboard;
  const rows = comparisonRowsOf(d);
  const noModel = "no model run imported and no agent answered the study's items";
  const source = "dashboard: comparison (lib/dashboard/comparison.ts)";
  const tested = rows?.some((row) => row.difference.p !== null) ?? false;
  const methods = rows ? [...new Set(rows.map((row) => row.method))].join(", ") : "";
  const judges = ctx.judges.map(
    (j) => `${j.scorer} ${j.model} (prompt ${j.promptVersion}): ${count(j.humanAnswers)} people's and ${count(j.modelAnswers)} models' answers`,
  );
  const { agents, imports } = agentsAndImports(ctx);
  const anyModel = agents.length + imports.length > 0;
  return {
    "4.1":
      !d || !rows
        ? notReported(pending, source)
        : rows.length === 0
          ? notReported(noModel, source)
          : yes(rows.map((row) => comparisonLine(d, row)).join("; "), source, tested ? "Yes" : "No"),
    "4.1.1":
      !d || !rows
        ? notReported(pending, source)
        : rows.length === 0
          ? notReported(noModel, source)
          : yes(`${methods}: ${d.method.differences}`, "dashboard: method (lib/dashboard/method.ts)"),
    "4.2": d ? yes(d.method.line, "dashboard: method (lib/dashboard/method.ts, docs/intervals.md)", "Yes") : notReported(pending, "dashboard: method"),
    "4.2.1": d
      ? yes(
          `95% confidence intervals generalising over ${d.method.over === "people+items" ? "people and items" : "items"}: shares: ${d.method.proportions}; means and ratios: ${d.method.means}; other figures: ${d.method.nonLinear}`,
          "dashboard: method",
        )
      : notReported(pending, "dashboard: method"),
    "4.3": anyModel
      ? yes(
          `Yes: each kind's headline metric for both${d ? ` (${d.comparison.metrics.map((m) => `${m.kind}: ${m.label}`).join(", ")})` : ""}`,
          "dashboard: comparison metrics",
          "Yes",
        )
      : yes("no model answered the study", "model runs and agents", "N/A"),
    "4.4": anyModel
      ? yes("Yes: the same answer key of each item scores people's and models' answers", "scoring (lib/tasks, each kind's score)", "Yes")
      : yes("no model answered the study", "model runs and agents", "N/A"),
    "4.5": anyModel
      ? yes(
          `Yes: the same scoring function of each kind for both${judges.length > 0 ? `; LLM judge for both: ${judges.join("; ")}` : "; no LLM judge"}`,
          "scoring; scorer results",
          "Yes",
        )
      : yes("no model answered the study", "model runs and agents", "N/A"),
    "4.6": asked(ctx, "4.6", "not stated; the dashboard shows every figure with and without excluded participants and reviewed items (its filters)"),
  };
}

function timeLine(ctx: Context): Fill {
  const finished = ctx.people.filter((p) => p.status === "COMPLETE" && p.mainAnswers > 0);
  const pool = finished.length > 0 ? finished : baseliners(ctx);
  if (pool.length === 0) return notReported("nobody has answered yet", "responses' times");
  const wall = pool.map((p) => p.wallMs);
  const active = pool.map((p) => p.activeMs);
  const iqr = (v: number[]) => `IQR ${minutes(quantile(v, 0.25))}–${minutes(quantile(v, 0.75))}`;
  return yes(
    `median ${minutes(quantile(wall, 0.5))} on the items (${iqr(wall)}), active ${minutes(quantile(active, 0.5))} (${iqr(active)}), over ${count(pool.length)} ${finished.length > 0 ? "people who finished" : "people with answers"}`,
    "responses' wall and active times per person, outside practice",
  );
}

function documentationEntries(ctx: Context, yardstick: StudyReport["yardstick"]): Record<string, Fill> {
  const started = starters(ctx);
  const finished = started.filter((p) => p.status === "COMPLETE");
  const byStatus = ["EXCLUDED", "RETURNED", "TIMED_OUT", "ACTIVE"].map(
    (status) => `${count(started.filter((p) => p.status === status).length)} ${status.toLowerCase().replace("_", " ")}`,
  );
  const models = ctx.models
    .filter((m) => m.answers > 0)
    .map((m) => (m.agent ? `${m.name} (agent${m.agentModel ? `, model ${m.agentModel}` : ""})` : `${m.name} (imported run)`));
  const exportsLine = `exportable by the researchers as CSV or JSONL: ${EXPORT_KINDS.join(", ")} (recruitment ids pseudonymised on request)`;
  const instructions = ctx.study.instructions.trim();
  return {
    "5.1": yes("Yes: time to completion, completion rate and AI tool versions below", "this report", "Yes"),
    "5.1.1": asked(ctx, "5.1.1", "no demographics collected: Yardstick records none"),
    "5.1.2": instructions
      ? yes(
          `Yes: the study's instructions (${count(instructions.length)} characters), shown to every participant: "${instructions.length > 300 ? `${instructions.slice(0, 300)}…` : instructions}"`,
          "study settings (instructions)",
          "Yes",
        )
      : notReported("the study has no instructions of its own (each kind's page explains its task)", "study settings (instructions)"),
    "5.1.3": timeLine(ctx),
    "5.1.4":
      models.length > 0
        ? yes(models.join("; "), "model runs and agents (names as imported or made)")
        : yes("no model answered the study", "model runs and agents", "N/A"),
    "5.1.5":
      started.length > 0
        ? yes(`${percent(finished.length, started.length)} of people who started finished; ${byStatus.join(", ")}`, "participants' statuses")
        : notReported("nobody has started", "participants' statuses"),
    "5.2": withNote(ctx, "5.2.2", yes(exportsLine, "exports (docs/exports.md)")),
    "5.2.1": yes(`per answer and per person: the responses, events and annotators exports`, "exports (docs/exports.md)"),
    "5.2.2": asked(ctx, "5.2.2"),
    "5.3": yes(
      `the items (public views and keys), the study's settings, instructions${tutorialPages(ctx) > 0 ? " and tutorial" : ""}: the items export and the study's settings`,
      "exports; study settings",
    ),
    "5.4": yes(
      `Yardstick ${yardstick.version}${yardstick.commit ? ` (commit ${yardstick.commit})` : ""}: the figures are its own code (lib/dashboard, lib/stats)`,
      "Yardstick version",
    ),
  };
}

/** The Plan panel's inputs from people's answers only: the dashboard's people (excluded participants and agents left out). */
export async function peoplePlan(studyId: string, design: { k: number; itemsPerPerson: number | null }, leftOut: ReadonlySet<string>): Promise<StudyPlanData> {
  return planFromSnapshot(snapshotWithoutAnnotators(await getSnapshot(studyId), leftOut), design);
}

async function dashboardOf(slug: string): Promise<StudyDashboard | null> {
  const view = await visitStudyDashboard(slug, {});
  return "pending" in view ? null : view;
}

/** The report of a study (NOT_FOUND without one). */
export async function studyReport(slug: string, now = new Date()): Promise<StudyReport> {
  const study = await findStudyForReport(slug);
  if (!study) throw new AppError("NOT_FOUND", `No study with the slug "${slug}"`);
  const [items, batches, people, answersPerItem, models, judges, reviewExcluded, compensation, dashboard] = await Promise.all([
    countReportItems(study.id),
    countReportBatches(study.id),
    listReportPeople(study.id),
    countHumanAnswersPerItem(study.id),
    listReportModels(study.id),
    listReportJudges(study.id),
    excludedItemIdsForStudy(study.id),
    compensationFacts(study.id),
    dashboardOf(slug),
  ]);
  const leftOut = new Set([...models.filter((m) => m.agent).map((m) => m.id), ...people.filter((p) => p.status === "EXCLUDED").map((p) => p.userId)]);
  const plan = await peoplePlan(study.id, { k: study.overlap, itemsPerPerson: study.itemsPerParticipant }, leftOut);
  const ctx: Context = {
    study,
    answers: reportingAnswersOf(study.reportingAnswers),
    items,
    batches,
    people,
    answersPerItem,
    models,
    judges,
    reviewExcludedItems: reviewExcluded.length,
    compensation,
    dashboard,
    plan,
  };
  const yardstick = { version: packageJson.version, commit: process.env.YARDSTICK_COMMIT?.trim() || null };
  const fills: Record<string, Fill> = {
    ...paperEntries(ctx),
    ...designEntries(ctx),
    ...recruitmentEntries(ctx),
    ...executionEntries(ctx),
    ...analysisEntries(ctx),
    ...documentationEntries(ctx, yardstick),
  };
  const entries = CHECKLIST.map((entry) => {
    const fill = fills[entry.number];
    if (!fill) throw new Error(`the report has no fill for checklist entry ${entry.number}`);
    return { ...entry, ...fill };
  });
  return {
    study: { slug: study.slug, title: study.title },
    generatedAt: now.toISOString(),
    yardstick,
    entries,
    comparison: comparisonRowsOf(dashboard),
    methodLine: dashboard?.method.line ?? null,
  };
}
