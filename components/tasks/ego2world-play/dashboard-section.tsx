import type { Ego2worldSection } from "@/lib/tasks/ego2world-play/dashboard";
import type { EgoMetric, EgoRow } from "@/lib/tasks/ego2world-play/dashboard-figures";
import { duration, fixed, pct, pValueText } from "@/components/dashboard/format";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";

/**
 * Ego2World figures (lib/dashboard/ego2world.ts) as the paper's Table 14: per person, pooled and
 * per imported agent run, pooled over task units; the paired difference humans - agent (over people and episodes, or episodes only)
 * on the tasks both played; and each task's success, steps and time. Shown only for studies with
 * ego2world-play items.
 */

const rateColumns: Array<{ id: "TSR" | "TCR" | "F1" | "WSR" | "validity"; label: string; title: string }> = [
  { id: "TSR", label: "TSR", title: "task success rate: goal predicates all hold right after the task" },
  { id: "TCR", label: "TCR", title: "task completion rate: share of key actions done (accepted primitives, skills expanded)" },
  { id: "F1", label: "F1", title: "multiset F1 of action names against the reference, per task" },
  { id: "WSR", label: "WSR", title: "world state recovery: share of the slots the reference changed that end equal" },
  { id: "validity", label: "Validity", title: "share of submitted actions the simulator accepted (a skill counts once)" },
];

const metricLabels: Record<EgoMetric, string> = {
  TSR: "TSR",
  TCR: "TCR",
  F1: "F1",
  WSR: "WSR",
  validity: "Validity",
  replan: "Replans / task",
  steps: "Steps / task",
};
const rateMetric = (metric: EgoMetric) => metric !== "replan" && metric !== "steps";

function Row({ row }: { row: EgoRow }) {
  const tone = row.group === "pooled" ? "bg-slate-50 font-medium" : row.group === "agent" ? "bg-violet-50/40" : "";
  return (
    <tr className={`border-t border-slate-100 ${tone}`} data-row={row.group}>
      <th scope="row" className="whitespace-nowrap px-2 py-1.5 text-left font-medium">
        {row.name}
        {row.group === "agent" ? <span className="ml-1.5 rounded bg-violet-100 px-1 text-[10px] font-semibold text-violet-800">agent run</span> : null}
      </th>
      <td className="px-2 py-1.5 text-right tabular-nums text-slate-600">
        {row.episodes} / {row.tasks}
      </td>
      {rateColumns.map((column) => (
        <td key={column.id} className="px-2 py-1.5 text-right tabular-nums">
          {pct(row[column.id], 1)}
        </td>
      ))}
      <td className="px-2 py-1.5 text-right tabular-nums">{fixed(row.replan, 2)}</td>
      <td className="px-2 py-1.5 text-right tabular-nums">{fixed(row.steps, 1)}</td>
      <td className="px-2 py-1.5 text-right tabular-nums">{row.group === "agent" ? <span className="text-slate-400">n/a</span> : duration(row.timeMs)}</td>
      <td className="px-2 py-1.5 text-right tabular-nums">{row.group === "agent" ? <span className="text-slate-400">n/a</span> : pct(row.belief, 1)}</td>
    </tr>
  );
}

function signed(value: number | null, rate: boolean): string {
  if (value === null) return "–";
  const text = rate ? (value * 100).toFixed(1) : value.toFixed(2);
  return value > 0 ? `+${text}` : text;
}

function interval(ci: [number, number] | null, rate: boolean, reason?: string): string {
  if (ci && ci[0] !== ci[1]) return `[${signed(ci[0], rate)}, ${signed(ci[1], rate)}]`;
  return ci || reason ? `n/a (${reason ?? "no spread"})` : "";
}

export function Ego2worldDashboardSection({ section }: { section: Ego2worldSection }) {
  return (
    <div className="space-y-5" data-testid="ego2world-section">
      <p className="text-xs text-slate-500">
        {section.items} episode{section.items === 1 ? "" : "s"}, {section.humanPlays} played by people. Rates in %, pooled over task units (episode × task);
        validity over all submitted actions. Replans: failed actions followed by a different action. Time: active time per task (gaps between steps capped at
        the idle cap). Belief: share of the areas in a person&apos;s notes that match the hidden world, at each step. Agents are imported runs scored by the
        same engine.
      </p>
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="min-w-full text-sm" aria-label="Ego2World results">
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th className="px-2 py-1.5 text-left font-medium">Who</th>
              <th className="px-2 py-1.5 text-right font-medium" title="episodes / task units">
                Episodes / tasks
              </th>
              {rateColumns.map((column) => (
                <th key={column.id} className="px-2 py-1.5 text-right font-medium" title={column.title}>
                  {column.label}
                </th>
              ))}
              <th className="px-2 py-1.5 text-right font-medium" title="failed actions followed by a different action, per task">
                Replans / task
              </th>
              <th className="px-2 py-1.5 text-right font-medium" title="submitted actions per task">
                Steps / task
              </th>
              <th className="px-2 py-1.5 text-right font-medium" title="active time per task">
                Time / task
              </th>
              <th className="px-2 py-1.5 text-right font-medium" title="share of noted areas that match the hidden world, per step">
                Belief acc.
              </th>
            </tr>
          </thead>
          <tbody>
            {section.rows.map((row) => (
              <Row key={row.id} row={row} />
            ))}
          </tbody>
        </table>
      </div>

      {section.differences.length > 0 ? (
        <div className="space-y-2">
          <h3 className="text-sm font-semibold">Humans − agent, on the tasks both played</h3>
          <p className="text-xs text-slate-500">
            Humans − agent over the (play, task) pairs both played, a unit&apos;s agent value paired with each person&apos;s play of it:{" "}
            {section.differences[0].metrics[0]?.method ?? "paired difference"}. An episode&apos;s task units stay together (they share one world and one play).
            Rates in percentage points; 95% interval (n/a from one episode, and over people from one person); two-sided p from the same t distribution.
          </p>
          <div className="overflow-x-auto rounded-md border border-slate-200">
            <table className="min-w-full text-sm" aria-label="Humans minus agent">
              <thead className="bg-slate-50 text-xs text-slate-600">
                <tr>
                  <th className="px-2 py-1.5 text-left font-medium">Agent</th>
                  {section.differences[0].metrics.map((metric) => (
                    <th key={metric.metric} className="px-2 py-1.5 text-right font-medium">
                      {metricLabels[metric.metric]}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {section.differences.map((difference) => (
                  <tr key={difference.agent.id} className="border-t border-slate-100" data-agent={difference.agent.name}>
                    <th scope="row" className="whitespace-nowrap px-2 py-1.5 text-left font-medium">
                      {difference.agent.name}
                    </th>
                    {difference.metrics.map((metric) => {
                      const rate = rateMetric(metric.metric);
                      const significant = metric.ci !== null && (metric.ci[0] > 0 || metric.ci[1] < 0);
                      return (
                        <td
                          key={metric.metric}
                          className="px-2 py-1.5 text-right tabular-nums"
                          title={`humans ${rate ? pct(metric.meanA, 1) : fixed(metric.meanA, 2)} vs agent ${rate ? pct(metric.meanB, 1) : fixed(metric.meanB, 2)} on ${metric.n} units of ${metric.clusters} episode${metric.clusters === 1 ? "" : "s"}`}
                        >
                          <span className={significant ? "font-semibold" : ""}>{signed(metric.difference, rate)}</span>
                          <span className="block text-[10px] text-slate-500">
                            {interval(metric.ci, rate, metric.reason)} n={metric.n}
                            {metric.pValue !== null ? ` ${pValueText(metric.pValue, metric.pBelow)}` : ""}
                          </span>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}

      <details className="rounded-md border border-slate-200">
        <summary className="cursor-pointer px-3 py-2 text-sm font-semibold">Per task: success, steps and time</summary>
        <div className="overflow-x-auto">
          <table className="min-w-full text-sm" aria-label="Ego2World per task">
            <thead className="bg-slate-50 text-xs text-slate-600">
              <tr>
                <th className="px-2 py-1.5 text-left font-medium">Task</th>
                <th className="px-2 py-1.5 text-right font-medium">People</th>
                <th className="px-2 py-1.5 text-right font-medium">TSR</th>
                <th className="px-2 py-1.5 text-right font-medium">Steps</th>
                <th className="px-2 py-1.5 text-right font-medium">Time</th>
                {section.rows
                  .filter((row) => row.group === "agent")
                  .map((row) => (
                    <th key={row.id} className="px-2 py-1.5 text-right font-medium">
                      {row.name}
                    </th>
                  ))}
              </tr>
            </thead>
            <tbody>
              {section.tasks.map((task) => (
                <tr key={`${task.item}|${task.task}`} className="border-t border-slate-100">
                  <td className="max-w-md px-2 py-1.5 text-xs">
                    <span className="font-mono text-slate-500">{task.task}</span> {task.instruction}
                  </td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{task.humans.plays}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{pct(task.humans.TSR, 0)}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{fixed(task.humans.steps, 1)}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{duration(task.humans.timeMs)}</td>
                  {task.agents.map((agent) => (
                    <td key={agent.id} className="px-2 py-1.5 text-right tabular-nums">
                      {agent.success === null ? "–" : `${agent.success ? "✓" : "✗"} ${agent.steps}`}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

export const ego2worldDashboardSection: KindDashboardSection<Ego2worldSection> = {
  id: "ego2world",
  title: () => "Ego2World: people beside agents (the paper's Table 14)",
  description:
    "TSR, TCR, F1, WSR and validity pooled over task units, replans, steps and time per task, and belief accuracy, per person, pooled and per imported agent run, all scored by the same engine; then humans − agent on the tasks both played, with intervals over people and episodes (or episodes only, as the study's Generalise over says).",
  render: (section) => <Ego2worldDashboardSection section={section} />,
};
