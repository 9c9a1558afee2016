import type { CountMetric, GridwmFigures, GridwmSection } from "@/lib/tasks/shared/gridwm/dashboard";
import { fixed, pct, pctInterval } from "@/components/dashboard/format";
import type { KindDashboardSection } from "@/components/tasks/shared/dashboard-section";

/**
 * GridWM-Judge figures (lib/tasks/shared/gridwm/dashboard.ts): per annotator and pooled, with Wilson
 * 95% intervals at the effective n of the two-way variance over people and items (or items only,
 * the study's setting; section.method names it), JCR's units the complete probe families,
 * "n/a (one item)" from one item and "n/a (one person)" from one person's answers, flip rates, the
 * near-random flag, and WMC across annotators. Shown only for studies with GridWM kinds.
 */
const columns: Array<{ id: string; label: string; title: string; get: (f: GridwmFigures) => CountMetric }> = [
  { id: "Acc_A", label: "Acc_A", title: "Task A: right next observation (chance 0.25)", get: (f) => f.Acc_A },
  { id: "Acc_B", label: "Acc_B exact", title: "Task B: every component right (the paper's Acc_B)", get: (f) => f.Acc_B },
  { id: "Acc_B_component", label: "Acc_B ≥ 0.90", title: "Task B: component score at least 0.90 (the released scorer)", get: (f) => f.Acc_B_component },
  {
    id: "readableFields",
    label: "B readable fields",
    title:
      "Task B: of the fields the frame shows (the agent's own view: what it carries, the front cell's type and state; a whole-grid frame: every field), the share answered right",
    get: (f) => f.readableFields,
  },
  {
    id: "Acc_B_ceiling",
    label: "Acc_B ceiling",
    title:
      "Task B: items whose frame shows every field of the gold: the best Acc_B reachable from the frame alone (0 on the agent's own view, which shows no world position)",
    get: (f) => f.Acc_B_ceiling,
  },
  { id: "JAcc_neu", label: "JAcc_neu", title: "Task C accuracy on full / orig / clean / neutral storyboards", get: (f) => f.JAcc_neu },
  { id: "JCR_temp", label: "JCR_temp", title: "complete orig/rev families (clean) with equal verdicts", get: (f) => f.JCR.temporal },
  { id: "JCR_vis", label: "JCR_vis", title: "complete clean/noisy/style families with equal verdicts", get: (f) => f.JCR.visual },
  { id: "JCR_frame", label: "JCR_frame", title: "complete neutral/positive/negative framing families with equal verdicts", get: (f) => f.JCR.framing },
];

function Cell({ metric }: { metric: CountMetric }) {
  if (metric.value === null) return <td className="px-2 py-1.5 text-right text-slate-400">–</td>;
  return (
    <td
      className="px-2 py-1.5 text-right tabular-nums"
      title={`${metric.successes} of ${metric.trials} from ${metric.items} item${metric.items === 1 ? "" : "s"}${metric.people !== undefined ? ` and ${metric.people} ${metric.people === 1 ? "person" : "people"}` : ""}; ${metric.ci ? `Wilson 95% at the effective n ${(metric.effectiveN ?? metric.trials).toFixed(1)} (deff ${(metric.deff ?? 1).toFixed(2)})` : "no interval"} ${pctInterval(metric.ci, 1, metric.reason)}`}
    >
      {pct(metric.value, 1)}
      <span className="block text-[10px] text-slate-500">
        {pctInterval(metric.ci, 1, metric.reason)} n={metric.trials}
      </span>
    </td>
  );
}

function Row({ name, figures, pooled }: { name: string; figures: GridwmFigures; pooled?: boolean }) {
  return (
    <tr className={`border-t border-slate-100 ${pooled ? "bg-slate-50 font-medium" : ""}`}>
      <th scope="row" className="whitespace-nowrap px-2 py-1.5 text-left font-medium">
        {name}
        {figures.nearRandom ? (
          <span className="ml-1.5 rounded bg-amber-100 px-1 text-[10px] font-semibold text-amber-800" title="Acc_A ≤ 0.28 or its Wilson 95% upper bound ≤ 0.30">
            near-random
          </span>
        ) : null}
      </th>
      {columns.map((c) => (
        <Cell key={c.id} metric={c.get(figures)} />
      ))}
      <td className="px-2 py-1.5 text-right tabular-nums text-slate-600">
        {(["temporal", "visual", "framing"] as const).map((d) => pct(figures.flip[d].value, 0)).join(" / ")}
      </td>
    </tr>
  );
}

export function GridwmDashboardSection({ section }: { section: GridwmSection }) {
  return (
    <div className="space-y-4" data-testid="gridwm-section">
      <div className="overflow-x-auto rounded-md border border-slate-200">
        <table className="min-w-full text-sm">
          <thead className="bg-slate-50 text-xs text-slate-600">
            <tr>
              <th className="px-2 py-1.5 text-left font-medium">Annotator</th>
              {columns.map((c) => (
                <th key={c.id} className="px-2 py-1.5 text-right font-medium" title={c.title}>
                  {c.label}
                </th>
              ))}
              <th className="px-2 py-1.5 text-right font-medium" title="1 - JCR along temporal / visual / framing">
                Flip % (temp / vis / frame)
              </th>
            </tr>
          </thead>
          <tbody>
            {section.annotators.map((a) => (
              <Row key={a.id} name={a.name} figures={a.figures} />
            ))}
            <Row name="Humans (pooled)" figures={section.pooled} pooled />
          </tbody>
        </table>
        <p className="px-2 py-1 text-[11px] text-slate-500" data-testid="gridwm-method">
          Intervals: {section.method}.
        </p>
      </div>
      <div>
        <h3 className="text-sm font-semibold text-slate-800">World-model consistency (WMC) across annotators</h3>
        <p className="text-xs text-slate-500">
          Correlation of each annotator&apos;s Acc_A with their JCR, over annotators who did both Task A and complete Task C probe families (at least 3 needed).
        </p>
        <table className="mt-2 text-sm" data-testid="gridwm-wmc">
          <thead className="text-xs text-slate-600">
            <tr>
              <th className="px-2 py-1 text-left font-medium">Acc_A against</th>
              <th className="px-2 py-1 text-right font-medium">Annotators</th>
              <th className="px-2 py-1 text-right font-medium">Pearson r</th>
              <th className="px-2 py-1 text-right font-medium">Spearman ρ</th>
            </tr>
          </thead>
          <tbody>
            {section.wmc.map((w) => (
              <tr key={w.dimension} className="border-t border-slate-100">
                <td className="px-2 py-1">JCR_{w.dimension === "temporal" ? "temp" : w.dimension === "visual" ? "vis" : "frame"}</td>
                <td className="px-2 py-1 text-right tabular-nums">{w.n}</td>
                <td className="px-2 py-1 text-right tabular-nums">{fixed(w.pearson, 3)}</td>
                <td className="px-2 py-1 text-right tabular-nums">{fixed(w.spearman, 3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export const gridwmDashboardSection: KindDashboardSection<GridwmSection> = {
  id: "gridwm",
  title: () => "GridWM-Judge: per annotator, pooled, and WMC",
  description:
    "Acc_A, Acc_B (exact and component score ≥ 0.90), JAcc_neu and JCR with Wilson 95% intervals at the effective n of the variance over people and items, or items only as the study's Generalise over says (one unit per complete probe family for JCR, clustered by its probe and its person; n/a from one item, and over people from one person's answers: an annotator's own row); flip rate = 1 − JCR. Per transition type and environment: the tag slicing above. Near-random: Acc_A ≤ 0.28 or its Wilson upper bound ≤ 0.30.",
  render: (section) => <GridwmDashboardSection section={section} />,
};
