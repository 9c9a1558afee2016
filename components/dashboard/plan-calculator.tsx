"use client";

import { useState } from "react";
import { inputClass } from "@/components/ui/field";
import { bernoulliItemVariance, peopleForDifference, peopleForHalfWidth, predictedHalfWidth, type Components } from "@/lib/stats/study-planner";

/** One kind's inputs to the plan: its items and the components of its answers (measured, or assumed). */
export interface PlanKind {
  kind: string;
  title: string;
  metricLabel: string;
  items: number;
  answers?: number;
  people?: number;
  components: Components | null;
  reason?: string;
  unitScale: boolean;
}

/** Assumed components without a pilot: a 0/1 figure near 0.6 whose people and items each spread with sd 0.14, the rest residual. */
export const ASSUMED_COMPONENTS: Components = { items: 0.02, people: 0.02, residual: 0.2 };

const fmt = (x: number | null | undefined, digits = 3) => (x === null || x === undefined || !Number.isFinite(x) ? "—" : x.toFixed(digits));
const whole = (x: number) => x.toLocaleString("en");

function NumberInput({
  label,
  value,
  onChange,
  step,
  min,
  max,
  testId,
}: {
  label: string;
  value: number;
  onChange: (v: number) => void;
  step: number;
  min: number;
  max?: number;
  testId: string;
}) {
  return (
    <label className="block text-sm">
      <span className="mb-1 block font-medium text-slate-700">{label}</span>
      <input
        type="number"
        data-testid={testId}
        className={inputClass}
        value={Number.isFinite(value) ? value : ""}
        step={step}
        min={min}
        max={max}
        onChange={(e) => {
          const v = Number(e.target.value);
          if (e.target.value !== "" && Number.isFinite(v)) onChange(v);
        }}
      />
    </label>
  );
}

function KindPlan({ plan, k, m, h, d, s, assumed }: { plan: PlanKind; k: number; m: number; h: number; d: number; s: number; assumed: Components | null }) {
  const c = assumed ?? plan.components;
  const I = plan.items;
  const perPerson = Math.max(1, Math.min(m, I));
  const places = I * k;
  const peopleNeeded = Math.ceil(places / perPerson - 1e-9);
  if (!c || I < 1) {
    return (
      <div className="space-y-1 text-sm text-slate-600">
        <p>
          Places = {whole(I)} items x k {k} = <strong>{whole(places)}</strong>; people needed = places / {perPerson} items per person ={" "}
          <strong>{whole(peopleNeeded)}</strong>.
        </p>
        <p className="text-slate-500">No half-width yet: {plan.reason ?? "no components"}.</p>
      </div>
    );
  }
  const valid = h > 0 && k > 0 && m >= 1;
  const reached = valid && peopleNeeded >= 2 ? predictedHalfWidth(c, { items: I, people: (I * k) / perPerson, itemsPerPerson: perPerson }) : null;
  const forH = valid ? peopleForHalfWidth(c, I, perPerson, h) : null;
  let forD: ReturnType<typeof peopleForDifference> | null = null;
  if (valid && d !== 0 && Number.isFinite(d) && (!plan.unitScale || (s >= 0 && s <= 1))) {
    forD = peopleForDifference(c, I, perPerson, d, plan.unitScale ? bernoulliItemVariance(s) : c.items + c.residual);
  }
  return (
    <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
      <div>
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Components{assumed ? " (assumed)" : ""}</dt>
        <dd className="mt-0.5 tabular-nums" data-testid={`plan-components-${plan.kind}`}>
          items {fmt(c.items, 4)}, people {fmt(c.people, 4)}, residual {fmt(c.residual, 4)}
        </dd>
      </div>
      <div>
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">The design when complete</dt>
        <dd className="mt-0.5">
          places = {whole(I)} items x k {k} = {whole(places)}; people = places / {perPerson} = <strong>{whole(peopleNeeded)}</strong>; half-width{" "}
          <strong data-testid={`plan-reached-${plan.kind}`}>{reached === null ? "n/a (one person: no spread between people)" : fmt(reached)}</strong>
        </dd>
      </div>
      <div>
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">People for half-width &le; {h}</dt>
        <dd className="mt-0.5" data-testid={`plan-people-h-${plan.kind}`}>
          {forH?.people ? (
            <>
              <strong>{whole(forH.people)}</strong> ({fmt(forH.k, 1)} answers per item)
            </>
          ) : (
            <span className="text-slate-500">{forH?.reason ?? "—"}</span>
          )}
        </dd>
      </div>
      <div>
        <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">
          People to detect {d} vs a model at {s}, power 0.8
        </dt>
        <dd className="mt-0.5" data-testid={`plan-people-d-${plan.kind}`}>
          {forD?.people ? <strong>{whole(forD.people)}</strong> : <span className="text-slate-500">{forD?.reason ?? "—"}</span>}
        </dd>
      </div>
    </dl>
  );
}

/**
 * The Plan: per kind, the variance components (measured on the answers so far, or assumed and
 * editable before there are any), the plain arithmetic of the design (places = items x k; people
 * = places / items per person), the half-width it reaches when complete, and the people a target
 * half-width and a difference from a model need.
 */
export function PlanCalculator({
  kinds,
  estimator,
  k: initialK,
  itemsPerPerson,
  editable = false,
}: {
  kinds: PlanKind[];
  estimator?: string;
  k: number;
  itemsPerPerson: number | null;
  editable?: boolean;
}) {
  const [h, setH] = useState(0.05);
  const [d, setD] = useState(0.1);
  const [s, setS] = useState(0.5);
  const [k, setK] = useState(initialK);
  const [m, setM] = useState(itemsPerPerson ?? Math.max(1, ...kinds.map((p) => p.items)));
  const [items, setItems] = useState(kinds[0]?.items ?? 100);
  const [assumed, setAssumed] = useState<Components>(ASSUMED_COMPONENTS);
  const shown = editable ? kinds.map((p) => ({ ...p, items })) : kinds;
  return (
    <div className="space-y-4" data-testid="plan-panel">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {editable ? (
          <NumberInput label="Items" value={items} onChange={(v) => setItems(Math.max(1, Math.round(v)))} step={1} min={1} testId="plan-items" />
        ) : null}
        <NumberInput label="Answers per item (k)" value={k} onChange={(v) => setK(Math.max(1, Math.round(v)))} step={1} min={1} testId="plan-k" />
        <NumberInput label="Items per person (m)" value={m} onChange={(v) => setM(Math.max(1, Math.round(v)))} step={1} min={1} testId="plan-m" />
        <NumberInput label="Half-width h" value={h} onChange={setH} step={0.01} min={0.001} testId="plan-h" />
        <NumberInput label="Difference d" value={d} onChange={setD} step={0.01} min={0} testId="plan-d" />
        <NumberInput label="Model score s" value={s} onChange={setS} step={0.05} min={0} testId="plan-s" />
      </div>
      {editable ? (
        <div className="grid gap-3 sm:grid-cols-3">
          {(["items", "people", "residual"] as const).map((name) => (
            <NumberInput
              key={name}
              label={`Assumed ${name} variance`}
              value={assumed[name]}
              onChange={(v) => setAssumed({ ...assumed, [name]: Math.max(0, v) })}
              step={0.005}
              min={0}
              testId={`plan-assumed-${name}`}
            />
          ))}
        </div>
      ) : null}
      {shown.map((plan) => (
        <div key={plan.kind} className="rounded-md border border-slate-200 p-4">
          <div className="mb-3 text-sm font-semibold text-slate-800">
            {plan.title}: {plan.metricLabel}
            {plan.answers !== undefined ? (
              <span className="ml-2 font-normal text-slate-500">{`pilot: ${whole(plan.answers)} answers by ${whole(plan.people ?? 0)} people on ${whole(plan.items)} items`}</span>
            ) : null}
          </div>
          <KindPlan plan={plan} k={k} m={m} h={h} d={d} s={s} assumed={editable ? assumed : null} />
        </div>
      ))}
      <p className="text-xs text-slate-500">
        {estimator
          ? `Components: ${estimator}. `
          : `Components assumed (defaults: items ${ASSUMED_COMPONENTS.items}, people ${ASSUMED_COMPONENTS.people}, residual ${ASSUMED_COMPONENTS.residual}, a 0/1 figure near 0.6); replace them with a pilot's (yardstick plan, or this panel on the dashboard once answers arrive). `}
        Variance of people&apos;s figure = items/I + people/P + residual/(P m); half-width = t(min(I, P) - 1) x its square root. A difference from a model also
        counts the model&apos;s spread over items, assumed independent of people&apos;s: s(1 - s) for a 0/1 score (docs/intervals.md).
      </p>
    </div>
  );
}
