"use client";

import { useState } from "react";
import { callApi } from "@/lib/client/api";
import { describeAction } from "@/lib/tasks/esi-explore/actions";
import type { EsiStepLabelSummary } from "@/lib/tasks/esi-explore/figures";
import type { EsiReplayPanel, LabelledStep, StepLabelName } from "@/lib/tasks/esi-explore/step-labels";
import type { ReplayPanelProps } from "@/components/tasks/shared/types";

/**
 * Researchers label each step of a replayed ESI-Bench trajectory as redundant, confirmatory or
 * contrastive (the paper's annotation): the frame the annotator saw, the action, the refusal if
 * any, one's own label (click again to remove it; keys 1-3 on a focused row) and the other
 * labellers'. Alpha over labellers (study-wide) is shown above. The panel's data comes from
 * the kind's replay hook (lib/tasks/esi-explore/replay.ts).
 */

type Label = StepLabelName;
const LABELS: Array<{ id: Label; key: string; tone: string; active: string }> = [
  { id: "redundant", key: "1", tone: "text-slate-700", active: "border-slate-600 bg-slate-600 text-white" },
  { id: "confirmatory", key: "2", tone: "text-sky-800", active: "border-sky-700 bg-sky-700 text-white" },
  { id: "contrastive", key: "3", tone: "text-emerald-800", active: "border-emerald-700 bg-emerald-700 text-white" },
];

/** ESI-Bench's panel below the replay player (components/tasks/replay-panels.ts). */
export function EsiReplayPanelView({ slug, assignmentId, panel }: ReplayPanelProps) {
  const { steps, agreement } = panel as EsiReplayPanel;
  return <EsiStepLabels slug={slug} assignmentId={assignmentId} steps={steps} agreement={agreement} />;
}

function EsiStepLabels({
  slug,
  assignmentId,
  steps: initial,
  agreement,
}: {
  slug: string;
  assignmentId: string;
  steps: LabelledStep[];
  agreement: EsiStepLabelSummary;
}) {
  const [steps, setSteps] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<number | null>(null);

  async function setLabel(seq: number, label: Label | null) {
    setSaving(seq);
    setError(null);
    const result = await callApi<{ label?: Label | null }>(`/api/studies/${encodeURIComponent(slug)}/step-labels`, { json: { assignmentId, seq, label } });
    if (result.ok) setSteps((previous) => previous.map((step) => (step.seq === seq ? { ...step, mine: result.data?.label ?? null } : step)));
    else setError(`Step ${seq}: ${result.error ?? (result.unreachable ? "the server could not be reached" : `HTTP ${result.status}`)}`);
    setSaving(null);
  }

  const labelled = steps.filter((step) => step.mine !== null).length;
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-sm" aria-label="Step labels" data-testid="esi-step-label-panel">
      <header className="flex flex-wrap items-baseline gap-x-4 gap-y-1 border-b border-slate-100 px-3 py-2">
        <h2 className="text-sm font-semibold">Label the steps</h2>
        <span className="text-xs text-slate-500">
          What did each step&apos;s new view do for the question? {labelled} of {steps.length} labelled by you.
        </span>
        <span className="ml-auto text-xs text-slate-600" data-testid="esi-replay-alpha">
          Krippendorff&apos;s alpha over labellers (study):{" "}
          <strong className="tabular-nums">{agreement.alpha === null ? "–" : agreement.alpha.toFixed(3)}</strong>
          <span className="text-slate-400">
            {" "}
            {agreement.alpha === null ? `(${agreement.reason ?? "not enough labels"})` : `(${agreement.units} steps, ${agreement.labellers} labellers)`}
          </span>
        </span>
      </header>
      {error ? (
        <p role="alert" className="border-b border-red-100 bg-red-50 px-3 py-1.5 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {steps.length === 0 ? (
        <p className="px-3 py-3 text-sm text-slate-500">No steps: the annotator answered without exploring.</p>
      ) : (
        <ol className="grid gap-2 p-2 sm:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-4">
          {steps.map((step) => (
            <li
              key={step.seq}
              tabIndex={0}
              aria-label={`Step ${step.seq}: ${describeAction((step.action ?? { name: "?" }) as { name: string; args?: string[] })}`}
              onKeyDown={(event) => {
                const choice = LABELS.find((l) => l.key === event.key);
                if (!choice) return;
                event.preventDefault();
                void setLabel(step.seq, step.mine === choice.id ? null : choice.id);
              }}
              className="flex gap-2 rounded-md border border-slate-200 p-1.5 outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
              data-seq={step.seq}
            >
              {step.image ? (
                // eslint-disable-next-line @next/next/no-img-element -- the frame the annotator saw, served by hash
                <img src={step.image} alt={`Frame after step ${step.seq}`} className="h-20 w-32 shrink-0 rounded bg-slate-100 object-cover" />
              ) : null}
              <div className="min-w-0 flex-1">
                <p className="truncate text-xs font-semibold text-slate-800">
                  <span className="mr-1 font-mono text-slate-400">{step.seq}</span>
                  {describeAction((step.action ?? { name: "?" }) as { name: string; args?: string[] })}
                </p>
                {!step.valid ? <p className="text-[11px] text-red-700">✗ {step.message ?? "cannot do that here"}</p> : null}
                <div className="mt-1 flex flex-wrap gap-1" role="radiogroup" aria-label={`Your label for step ${step.seq}`}>
                  {LABELS.map((label) => {
                    const selected = step.mine === label.id;
                    return (
                      <button
                        key={label.id}
                        type="button"
                        role="radio"
                        aria-checked={selected}
                        disabled={saving === step.seq}
                        onClick={() => void setLabel(step.seq, selected ? null : label.id)}
                        className={`rounded border px-1.5 py-0.5 text-[11px] font-medium ${selected ? label.active : `border-slate-300 bg-white hover:bg-slate-50 ${label.tone}`}`}
                      >
                        <span className="mr-0.5 font-mono opacity-60">{label.key}</span>
                        {label.id}
                      </button>
                    );
                  })}
                </div>
                {step.labels.length > 0 ? (
                  <p className="mt-0.5 truncate text-[10px] text-slate-500" title={step.labels.map((l) => `${l.labeller}: ${l.label}`).join(", ")}>
                    {step.labels.map((l) => `${l.labeller}: ${l.label}`).join(" · ")}
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
