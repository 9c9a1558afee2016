import type { Outcome } from "@/lib/review/rules";
import type { ItemVotes } from "@/lib/review/results";

const outcomeStyle: Record<Outcome, { label: string; className: string }> = {
  PENDING: { label: "pending", className: "bg-slate-100 text-slate-600" },
  KEPT: { label: "kept", className: "bg-emerald-50 text-emerald-700 ring-1 ring-emerald-200" },
  EXCLUDED: { label: "excluded", className: "bg-red-50 text-red-700 ring-1 ring-red-200" },
  CONTESTED: { label: "contested", className: "bg-amber-50 text-amber-800 ring-1 ring-amber-200" },
};

export function OutcomeBadge({ outcome }: { outcome: Outcome }) {
  const style = outcomeStyle[outcome];
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${style.className}`} data-outcome={outcome}>
      {style.label}
    </span>
  );
}

export function pct(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined ? "–" : `${(value * 100).toFixed(digits)}%`;
}

/** "✓2 ✗1" for one axis of one item; the reasons of the fails in its tooltip. */
export function VoteChip({ votes, label }: { votes: ItemVotes; label: string }) {
  const reasons = votes.verdicts.filter((v) => v.reason).map((v) => `${v.reviewer} ${v.pass ? "pass" : "fail"}: ${v.reason}`);
  const split = votes.pass > 0 && votes.fail > 0;
  return (
    <span
      className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs tabular-nums ${votes.pass + votes.fail === 0 ? "bg-slate-50 text-slate-400" : split ? "bg-amber-50 text-amber-900" : votes.fail > 0 ? "bg-red-50 text-red-800" : "bg-emerald-50 text-emerald-800"}`}
      title={`${label}: ${votes.pass} pass, ${votes.fail} fail${reasons.length ? `\n${reasons.join("\n")}` : ""}`}
      data-axis={votes.axis}
    >
      <span aria-label="passes">✓{votes.pass}</span>
      <span aria-label="fails">✗{votes.fail}</span>
    </span>
  );
}
