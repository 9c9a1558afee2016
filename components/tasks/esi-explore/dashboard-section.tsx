import type { EsiSection } from "@/lib/tasks/esi-explore/figures";
import type { CountMetric, TrajectorySummary } from "@/lib/tasks/esi-explore/metrics";
import type { CalibrationResult } from "@/lib/dashboard/calibration";
import { conditionLabel } from "@/lib/tasks/esi-explore/conditions";
import { MetricLineChart } from "@/components/charts/line-chart";
import { ReliabilityDiagram } from "@/components/charts/reliability-diagram";
import { CsvDownload } from "@/components/charts/csv-download";
import { count, fixed, pct, pctInterval } from "@/components/dashboard/format";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";

/**
 * The ESI-Bench section of the study dashboard (lib/tasks/esi-explore/figures.ts): always split by condition.
 * Accuracy in the shape of the paper's table (people beside each imported model run), the
 * trajectory measures of active exploration, per person, calibration of final and intermediate
 * confidence with confidence against step, and the researchers' step labels with their alpha.
 */

const SHORT: Record<string, string> = { "passive-single": "Single", "passive-multi": "Multi", active: "Active", "passive-gt": "GT" };
const shortCondition = (condition: string) => SHORT[condition] ?? condition;

function Metric({ metric, digits = 1 }: { metric: CountMetric | undefined; digits?: number }) {
  if (!metric || metric.value === null) return <span className="text-slate-300">–</span>;
  return (
    <span
      title={`${metric.successes} of ${metric.trials}${metric.items !== undefined ? ` from ${metric.items} question${metric.items === 1 ? "" : "s"}` : ""}${metric.people !== undefined ? ` and ${metric.people} ${metric.people === 1 ? "person" : "people"}` : ""}; Wilson 95%${metric.effectiveN !== undefined ? ` at the effective n ${metric.effectiveN.toFixed(1)}` : metric.items === undefined ? " over trajectories" : ""} ${pctInterval(metric.ci, 1, metric.reason)}`}
    >
      <span className="font-semibold text-slate-900">{pct(metric.value, digits)}</span>
      <span className="block text-[10px] leading-tight text-slate-500">
        {pctInterval(metric.ci, 0, metric.reason)} n={metric.trials}
      </span>
    </span>
  );
}

/** The mean over subcategories, flagged when it is over fewer than the table's subcategories (not comparable with a full one). */
function SubcategoryMean({ value, coverage }: { value: number | null; coverage: { covered: number; of: number; missing: string[] } | undefined }) {
  if (value === null) return <span className="text-slate-300">–</span>;
  if (!coverage || coverage.covered >= coverage.of) return <>{pct(value, 1)}</>;
  return (
    <span
      title={`over ${coverage.covered} of the table's ${coverage.of} subcategories; no answers in: ${coverage.missing.join("; ")}`}
      data-testid="esi-mean-partial"
    >
      {pct(value, 1)}
      <span className="block text-[10px] font-normal text-amber-700">
        {coverage.covered} of {coverage.of} subcategories
      </span>
    </span>
  );
}

function AccuracyTable({ section, slug }: { section: EsiSection; slug: string }) {
  const { conditions, groups } = section;
  const csvRows = section.table.flatMap((row) =>
    groups.flatMap((group) =>
      conditions.map((c) => [
        row.category,
        row.subcategory ?? "(all)",
        group.name,
        c,
        row.cells[group.id][c].successes,
        row.cells[group.id][c].trials,
        row.cells[group.id][c].value,
      ]),
    ),
  );
  return (
    <div>
      <div className="mb-1 flex items-baseline justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-800">Accuracy by condition</h3>
        <CsvDownload
          fileName={`${slug}-esi-accuracy`}
          header={["category", "subcategory", "who", "condition", "right", "answers", "accuracy"]}
          rows={csvRows}
        />
      </div>
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="min-w-full text-sm" data-testid="esi-accuracy-table">
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th rowSpan={2} className="px-2 py-1.5 text-left font-medium">
                Category
              </th>
              <th rowSpan={2} className="px-2 py-1.5 text-left font-medium">
                Subcategory
              </th>
              {groups.map((group) => (
                <th
                  key={group.id}
                  colSpan={conditions.length}
                  className={`border-l border-slate-200 px-2 py-1 text-center font-semibold ${group.kind === "humans" ? "text-brand-700" : "text-slate-700"}`}
                >
                  {group.name}
                </th>
              ))}
            </tr>
            <tr>
              {groups.flatMap((group) =>
                conditions.map((condition, i) => (
                  <th
                    key={`${group.id}-${condition}`}
                    title={conditionLabel(condition)}
                    className={`px-2 py-1 text-right font-medium ${i === 0 ? "border-l border-slate-200" : ""}`}
                  >
                    {shortCondition(condition)}
                  </th>
                )),
              )}
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {section.table.map((row) => (
              <tr key={`${row.category}|${row.subcategory ?? "*"}`} className={`border-t border-slate-100 ${row.subcategory === null ? "bg-slate-50/70" : ""}`}>
                <td className="whitespace-nowrap px-2 py-1.5 text-slate-700">{row.category}</td>
                <td className={`whitespace-nowrap px-2 py-1.5 ${row.subcategory === null ? "italic text-slate-500" : "text-slate-700"}`}>
                  {row.subcategory ?? "all subcategories"}
                </td>
                {groups.flatMap((group) =>
                  conditions.map((condition, i) => (
                    <td key={`${group.id}-${condition}`} className={`px-2 py-1.5 text-right ${i === 0 ? "border-l border-slate-100" : ""}`}>
                      <Metric metric={row.cells[group.id][condition]} />
                    </td>
                  )),
                )}
              </tr>
            ))}
            <tr className="border-t-2 border-slate-200 bg-brand-50/50 font-medium">
              <td colSpan={2} className="px-2 py-1.5 text-slate-800" title="The paper's headline: the mean over subcategories of each subcategory's accuracy">
                Mean over subcategories
              </td>
              {groups.flatMap((group) =>
                conditions.map((condition, i) => (
                  <td
                    key={`${group.id}-${condition}`}
                    className={`px-2 py-1.5 text-right font-semibold ${i === 0 ? "border-l border-slate-100" : ""}`}
                    data-testid={`esi-mean-${group.kind}-${condition}`}
                  >
                    <SubcategoryMean value={section.subcategoryMean[group.id][condition]} coverage={section.subcategoryCoverage[group.id]?.[condition]} />
                  </td>
                )),
              )}
            </tr>
            <tr className="border-t border-slate-100">
              <td colSpan={2} className="px-2 py-1.5 text-slate-600">
                All answers
              </td>
              {groups.flatMap((group) =>
                conditions.map((condition, i) => (
                  <td key={`${group.id}-${condition}`} className={`px-2 py-1.5 text-right ${i === 0 ? "border-l border-slate-100" : ""}`}>
                    <Metric metric={section.overall[group.id][condition]} />
                  </td>
                )),
              )}
            </tr>
          </tbody>
        </table>
      </div>
      <p className="mt-1 text-xs text-slate-500">
        Conditions: {section.conditions.map((c) => `${shortCondition(c)} = ${conditionLabel(c).toLowerCase()}`).join("; ")}. Cells: accuracy (%) with its Wilson
        95% interval ({section.method}; a model run&apos;s over its questions), and the number of answers. The mean over subcategories is over the table&apos;s
        subcategories; a group without answers in some of them shows how many it covers (its mean is not comparable with a full one). Imported model runs name
        their condition in each answer (&quot;condition&quot;) or in the run&apos;s name; a model agent&apos;s condition is its assignment&apos;s. Answers given
        for the agreement plan are left out unless the dashboard includes them.
      </p>
    </div>
  );
}

const TRAJECTORY_COLUMNS: Array<{ id: string; label: string; title: string; get: (s: TrajectorySummary) => CountMetric }> = [
  {
    id: "diversity",
    label: "View diversity",
    title:
      "trajectories visiting at least two distinct camera positions (the viewpoint a state or the simulator names); trajectories whose viewpoints are unknown are left out",
    get: (s) => s.viewDiversity,
  },
  {
    id: "contrastive",
    label: "Contrastive view",
    title:
      "trajectories reaching, by an accepted action, a state marked contrastive other than the initial one, or taking a step researchers labelled contrastive",
    get: (s) => s.contrastiveView,
  },
  {
    id: "revision",
    label: "Belief revision",
    title: "trajectories changing a part of the answer already given after at least one new observation (an accepted action that changed the state)",
    get: (s) => s.beliefRevision,
  },
];

function TrajectoryCells({ summary }: { summary: TrajectorySummary | null | undefined }) {
  if (!summary)
    return (
      <td colSpan={TRAJECTORY_COLUMNS.length + 4} className="px-2 py-1.5 text-center text-xs text-slate-400">
        no active trajectories
      </td>
    );
  return (
    <>
      <td className="px-2 py-1.5 text-right">{count(summary.trajectories)}</td>
      <td className="px-2 py-1.5 text-right" title={`median ${fixed(summary.stepsMedian, 1)}`}>
        <span className="font-semibold">{fixed(summary.stepsMean, 1)}</span>
        <span className="block text-[10px] text-slate-500">median {fixed(summary.stepsMedian, 1)}</span>
      </td>
      <td
        className="px-2 py-1.5 text-right"
        title={`${summary.correct} correct answers; median ${fixed(summary.stepsCorrectMedian, 1)}`}
        data-testid="esi-steps-correct"
      >
        <span className="font-semibold">{fixed(summary.stepsCorrectMean, 1)}</span>
        <span className="block text-[10px] text-slate-500">
          median {fixed(summary.stepsCorrectMedian, 1)}, n={summary.correct}
        </span>
      </td>
      <td className="px-2 py-1.5 text-right" title={`${summary.invalid} of ${summary.actions} actions refused`}>
        <span className="font-semibold">{pct(summary.invalidRate, 1)}</span>
        <span className="block text-[10px] text-slate-500">
          {summary.invalid} of {summary.actions}
        </span>
      </td>
      {TRAJECTORY_COLUMNS.map((column) => (
        <td key={column.id} className="px-2 py-1.5 text-right">
          <Metric metric={column.get(summary)} />
        </td>
      ))}
    </>
  );
}

const trajectoryHeader = (
  <>
    <th className="px-2 py-1.5 text-right font-medium">Trajectories</th>
    <th className="px-2 py-1.5 text-right font-medium" title="actions taken before answering, refused ones included, over all answers">
      Steps to answer
    </th>
    <th className="px-2 py-1.5 text-right font-medium" title="the same over correct answers only: the paper's Fig. 5 (steps to reach a correct answer)">
      Steps to a correct answer
    </th>
    <th className="px-2 py-1.5 text-right font-medium" title="actions the scene refused (cannot do that here), of all actions">
      Invalid actions
    </th>
    {TRAJECTORY_COLUMNS.map((column) => (
      <th key={column.id} className="px-2 py-1.5 text-right font-medium" title={column.title}>
        {column.label}
      </th>
    ))}
  </>
);

function TrajectoryTables({ section }: { section: EsiSection }) {
  const withTrajectories = section.conditions.filter((c) => section.trajectories[c]);
  // model agents' episodes, measured as people's (Table 11's model rows); imported runs record none
  const agentRows = section.groups.flatMap((group) =>
    section.conditions.filter((c) => section.modelTrajectories[group.id]?.[c]).map((condition) => ({ group, condition })),
  );
  return (
    <div className="space-y-3">
      <h3 className="text-sm font-semibold text-slate-800">Exploration</h3>
      {withTrajectories.length === 0 && agentRows.length === 0 ? (
        <p className="text-sm text-slate-500">No active trajectories yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-md border border-slate-200">
          <table className="min-w-full text-sm tabular-nums" data-testid="esi-trajectory-table">
            <thead className="bg-slate-50 text-xs text-slate-600">
              <tr>
                <th className="px-2 py-1.5 text-left font-medium">Condition / category</th>
                <th className="px-2 py-1.5 text-left font-medium">Subcategory</th>
                {trajectoryHeader}
              </tr>
            </thead>
            <tbody>
              {withTrajectories.map((condition) => (
                <tr key={condition} className="border-t border-slate-100 bg-brand-50/50 font-medium">
                  <td colSpan={2} className="px-2 py-1.5 text-slate-800">
                    {conditionLabel(condition)} (pooled)
                  </td>
                  <TrajectoryCells summary={section.trajectories[condition]} />
                </tr>
              ))}
              {agentRows.map(({ group, condition }) => (
                <tr key={`${group.id}-${condition}`} className="border-t border-slate-100 bg-slate-50/70" data-testid="esi-agent-trajectories">
                  <td colSpan={2} className="px-2 py-1.5 text-slate-800">
                    {group.name}: {conditionLabel(condition).toLowerCase()}
                  </td>
                  <TrajectoryCells summary={section.modelTrajectories[group.id]?.[condition]} />
                </tr>
              ))}
              {section.trajectoryTable.map((row) => (
                <tr
                  key={`${row.category}|${row.subcategory ?? "*"}`}
                  className={`border-t border-slate-100 ${row.subcategory === null ? "bg-slate-50/70" : ""}`}
                >
                  <td className="whitespace-nowrap px-2 py-1.5 text-slate-700">{row.category}</td>
                  <td className={`whitespace-nowrap px-2 py-1.5 ${row.subcategory === null ? "italic text-slate-500" : "text-slate-700"}`}>
                    {row.subcategory ?? "all subcategories"}
                  </td>
                  <TrajectoryCells summary={row.summary} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="text-xs text-slate-500" data-testid="esi-trajectory-definitions">
        Definitions (esi-bench App. K, made exact here): a <em>new observation</em> is an accepted action that changed the state (refused actions show nothing
        new; with a simulator, which names no states, every accepted action counts). <em>View diversity</em>: at least two distinct viewpoints, one definition
        for every item: the camera position a graph state or the simulator names (turning in place keeps it; a state without one is unknown, never its own
        viewpoint). <em>Contrastive view</em>: a state marked contrastive reached by acting, not the initial state, or a step at least half of its labellers
        labelled contrastive. <em>Belief revision</em>: a part already answered changes after a new observation (filling in another part, or a change after
        refused actions only, is not one). <em>Steps</em>: all actions, refused ones included; Fig. 5 reports them for correct answers. Model agents&apos;
        episodes (their rows, named) are measured the same way, as Table 11 does for GPT-5 and Gemini; imported runs record no episode. Differences from the
        paper: contrastive states are marked by the item&apos;s author or by researchers&apos; labels, where the paper&apos;s annotators judged each view; the
        paper does not say how it counted viewpoints.
      </p>
      <ModelSteps section={section} />
    </div>
  );
}

function ModelSteps({ section }: { section: EsiSection }) {
  const runs = section.groups.filter((group) => group.kind === "model" && section.conditions.some((c) => section.modelSteps[group.id]?.[c] != null));
  if (runs.length === 0) return null;
  const conditions = section.conditions.filter((c) => runs.some((run) => section.modelSteps[run.id]?.[c] != null));
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200">
      <table className="min-w-full text-sm tabular-nums" data-testid="esi-model-steps">
        <thead className="bg-slate-50 text-xs text-slate-600">
          <tr>
            <th className="px-2 py-1.5 text-left font-medium">Model run: steps as reported</th>
            {conditions.map((condition) => (
              <th key={condition} className="px-2 py-1.5 text-right font-medium" title="mean steps over all answers / over correct answers (Fig. 5)">
                {conditionLabel(condition)}: all / correct
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} className="border-t border-slate-100">
              <th scope="row" className="whitespace-nowrap px-2 py-1.5 text-left font-medium">
                {run.name}
              </th>
              {conditions.map((condition) => (
                <td key={condition} className="px-2 py-1.5 text-right">
                  {fixed(section.modelSteps[run.id]?.[condition] ?? null, 1)} / {fixed(section.modelStepsCorrect[run.id]?.[condition] ?? null, 1)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PerPerson({ section }: { section: EsiSection }) {
  if (section.perPerson.length === 0) return null;
  return (
    <div className="space-y-1">
      <h3 className="text-sm font-semibold text-slate-800">Per person</h3>
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="min-w-full text-sm tabular-nums" data-testid="esi-person-table">
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th rowSpan={2} className="px-2 py-1.5 text-left font-medium">
                Annotator
              </th>
              <th colSpan={section.conditions.length} className="border-l border-slate-200 px-2 py-1 text-center font-medium">
                Accuracy
              </th>
              <th colSpan={4} className="border-l border-slate-200 px-2 py-1 text-center font-medium">
                Active exploration
              </th>
            </tr>
            <tr>
              {section.conditions.map((condition, i) => (
                <th
                  key={condition}
                  className={`px-2 py-1 text-right font-medium ${i === 0 ? "border-l border-slate-200" : ""}`}
                  title={conditionLabel(condition)}
                >
                  {shortCondition(condition)}
                </th>
              ))}
              <th className="border-l border-slate-200 px-2 py-1 text-right font-medium" title="mean steps over all answers / over correct answers (Fig. 5)">
                Steps (all / correct)
              </th>
              {TRAJECTORY_COLUMNS.map((column) => (
                <th key={column.id} className="px-2 py-1 text-right font-medium" title={column.title}>
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {section.perPerson.map((person) => {
              const active = person.byCondition.active?.trajectories ?? null;
              return (
                <tr key={person.id} className="border-t border-slate-100">
                  <th scope="row" className="whitespace-nowrap px-2 py-1.5 text-left font-medium">
                    {person.name}
                  </th>
                  {section.conditions.map((condition, i) => (
                    <td key={condition} className={`px-2 py-1.5 text-right ${i === 0 ? "border-l border-slate-100" : ""}`}>
                      <Metric metric={person.byCondition[condition]?.accuracy} />
                    </td>
                  ))}
                  <td className="border-l border-slate-100 px-2 py-1.5 text-right">
                    {active ? `${fixed(active.stepsMean, 1)} / ${fixed(active.stepsCorrectMean, 1)}` : <span className="text-slate-300">–</span>}
                  </td>
                  {TRAJECTORY_COLUMNS.map((column) => (
                    <td key={column.id} className="px-2 py-1.5 text-right">
                      <Metric metric={active ? column.get(active) : undefined} digits={0} />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

const percentOrDash = (value: number | null) => (value === null ? "–" : `${pct(value, 0)}%`);

function CalibrationStats({ label, result, bins }: { label: string; result: CalibrationResult | null; bins: number }) {
  if (!result) return <p className="text-xs text-slate-400">{label}: no confidences yet.</p>;
  return (
    <dl className="grid grid-cols-4 gap-2 text-xs">
      <div className="col-span-4 text-[11px] font-semibold uppercase tracking-wide text-slate-500">
        {label} <span className="font-normal normal-case text-slate-400">({count(result.n)} ratings)</span>
      </div>
      <div>
        <dt
          className="text-slate-500"
          title={`expected calibration error over ${bins} equal-width bins of confidence, [0, ${fixed(1 / bins, 2)}) ... [${fixed(1 - 1 / bins, 2)}, 1]`}
        >
          ECE ({bins} bins)
        </dt>
        <dd className="text-sm font-semibold tabular-nums">{fixed(result.ece, 3)}</dd>
      </div>
      <div>
        <dt className="text-slate-500">Brier</dt>
        <dd className="text-sm font-semibold tabular-nums">{fixed(result.brier, 3)}</dd>
      </div>
      <div>
        <dt className="text-slate-500">Conf. right</dt>
        <dd className="text-sm font-semibold tabular-nums">{percentOrDash(result.meanConfidenceRight)}</dd>
      </div>
      <div>
        <dt className="text-slate-500">Conf. wrong</dt>
        <dd className="text-sm font-semibold tabular-nums">{percentOrDash(result.meanConfidenceWrong)}</dd>
      </div>
    </dl>
  );
}

function Metacognition({ section, slug }: { section: EsiSection; slug: string }) {
  const colors = ["#2358c4", "#0d9488", "#b45309", "#7c3aed"];
  const active = section.calibration.active;
  const steps = active?.byStep ?? [];
  return (
    <div className="space-y-3">
      <h3 className="text-sm font-semibold text-slate-800">Confidence</h3>
      <div className="text-xs text-slate-600" data-testid="esi-confidence-mapping">
        <p>{section.confidence.statement}</p>
        {section.confidence.points ? (
          <table className="mt-1 text-xs tabular-nums">
            <tbody>
              <tr>
                <th scope="row" className="pr-2 text-left font-medium text-slate-500">
                  1–5
                </th>
                {section.confidence.points.map((point) => (
                  <td key={point.value} className="px-2 text-right">
                    {point.value}
                  </td>
                ))}
              </tr>
              <tr>
                <th scope="row" className="pr-2 text-left font-medium text-slate-500">
                  c
                </th>
                {section.confidence.points.map((point) => (
                  <td key={point.value} className="px-2 text-right">
                    {point.c}
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        ) : null}
      </div>
      <p className="text-xs text-slate-500" data-testid="esi-ece-bins">
        ECE and the reliability diagrams use {section.calibrationBins} equal-width bins of confidence (ECE: Naeini et al. 2015; Guo et al. 2017); ESI-Bench
        reports no ECE (it discusses calibration in words), so the bins are this dashboard&apos;s.
      </p>
      <div className="grid gap-4 xl:grid-cols-2">
        {section.conditions.map((condition, i) => {
          const calibration = section.calibration[condition];
          return (
            <div key={condition} className="rounded-md border border-slate-200 p-3" data-testid={`esi-calibration-${condition}`}>
              <p className="mb-2 text-sm font-semibold" style={{ color: colors[i % colors.length] }}>
                {conditionLabel(condition)}
              </p>
              <div className="grid gap-3 md:grid-cols-[minmax(0,1fr)_minmax(0,16rem)]">
                {calibration?.final ? (
                  <ReliabilityDiagram bins={calibration.final.bins} fileName={`${slug}-esi-reliability-${condition}`} height={200} />
                ) : (
                  <p className="text-xs text-slate-400">No final confidences yet.</p>
                )}
                <div className="space-y-3">
                  <CalibrationStats label="Final answers" result={calibration?.final ?? null} bins={section.calibrationBins} />
                  {condition === "active" || calibration?.intermediate ? (
                    <CalibrationStats label="While exploring" result={calibration?.intermediate ?? null} bins={section.calibrationBins} />
                  ) : null}
                </div>
              </div>
            </div>
          );
        })}
      </div>
      {steps.length > 0 ? (
        <MetricLineChart
          title="Active exploration: confidence and accuracy of the answer held at each step"
          data={steps.map((point) => ({
            x: point.step,
            confidence: point.meanConfidence === null ? null : point.meanConfidence * 100,
            accuracy: point.accuracy === null ? null : point.accuracy * 100,
            n: point.n,
          }))}
          series={[
            { key: "confidence", label: "mean confidence", color: "#2358c4" },
            { key: "accuracy", label: "accuracy", color: "#0d9488", dashed: true },
          ]}
          xLabel="step"
          yLabel="%"
          fileName={`${slug}-esi-confidence-by-step`}
          height={240}
        />
      ) : null}
    </div>
  );
}

function StepLabels({ section }: { section: EsiSection }) {
  const labels = section.stepLabels;
  return (
    <div className="rounded-md border border-slate-200 p-3 text-sm" data-testid="esi-step-labels">
      <h3 className="text-sm font-semibold text-slate-800">Step labels</h3>
      <p className="mt-0.5 text-xs text-slate-500">
        Researchers label the steps of a replayed trajectory (Replay page) as redundant, confirmatory or contrastive, as in the paper. A step labelled
        contrastive by at least half of its labellers counts for the contrastive view rate.
      </p>
      <div className="mt-2 flex flex-wrap items-end gap-5">
        {(["redundant", "confirmatory", "contrastive"] as const).map((label) => (
          <div key={label}>
            <div className="text-xs capitalize text-slate-500">{label}</div>
            <div className="text-lg font-semibold tabular-nums">{count(labels.counts[label])}</div>
          </div>
        ))}
        <div className="border-l border-slate-200 pl-5">
          <div className="text-xs text-slate-500">Krippendorff&apos;s alpha (nominal, steps as units)</div>
          <div className="text-lg font-semibold tabular-nums" data-testid="esi-step-label-alpha">
            {fixed(labels.alpha, 3)}
          </div>
          <div className="text-[11px] text-slate-500">
            {labels.alpha === null ? (labels.reason ?? "") : `${labels.units} steps with two or more labels, ${labels.labellers} labellers`}
          </div>
        </div>
      </div>
    </div>
  );
}

export function EsiDashboardSection({ section, slug }: { section: EsiSection; slug: string }) {
  return (
    <div className="space-y-6" data-testid="esi-section">
      <AccuracyTable section={section} slug={slug} />
      <TrajectoryTables section={section} />
      <PerPerson section={section} />
      <Metacognition section={section} slug={slug} />
      <StepLabels section={section} />
    </div>
  );
}

export const esiDashboardSection: KindDashboardSection<EsiSection> = {
  id: "esi",
  title: (section) => `ESI-Bench: by condition, for ${section.groups[0]?.name.toLowerCase() ?? "people"} beside model runs`,
  description:
    "Accuracy in the shape of the paper's table (Wilson 95% intervals over people and questions, or questions only as the study's Generalise over says; the mean over subcategories is the paper's headline), what active exploration looked like (steps, invalid actions, view diversity, contrastive views, belief revision), per person, calibration of final and intermediate confidence, and the step labels. Results are always split by condition.",
  render: (section, slug) => <EsiDashboardSection section={section} slug={slug} />,
};
