/** The numeric key for reviewers (the kind's reviewView): the answer with its unit and how it is scored. */
export function NumericKey({ view }: { view: unknown }) {
  const key = view as { question: string; answer: number; unit: string | null; metric: "mra" | "exact" | "abs"; tolerance: number | null; note: string | null };
  const scoring =
    key.metric === "mra" ? "MRA (VSI-Bench: relative error against 10 thresholds 0.5-0.95)" : key.metric === "abs" ? `within ±${key.tolerance ?? 0}` : "exact";
  return (
    <div className="space-y-1.5" data-testid="key-numeric">
      <p className="text-sm font-semibold text-slate-800">{key.question}</p>
      <p className="text-lg">
        <span className="rounded bg-emerald-50 px-2 py-0.5 font-mono font-semibold text-emerald-900" data-key-answer={key.answer}>
          {key.answer}
        </span>{" "}
        {key.unit ?? ""}
      </p>
      <p className="text-xs text-slate-600">Scored: {scoring}</p>
      {key.note ? <p className="text-xs text-slate-600">Note: {key.note}</p> : null}
    </div>
  );
}
