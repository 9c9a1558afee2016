/** How reviewers see a pairwise item's key (pairwiseModule.reviewView): the models behind A and B, the metric, and any reference preference per dimension. */
export function PairwiseKey({ view }: { view: unknown }) {
  const v = view as {
    dimensions: Array<{ id: string; label: string }>;
    models: { a: string; b: string } | null;
    metric: { name: string; a: number; b: number } | null;
    reference: Record<string, string> | null;
    source: string | null;
  };
  return (
    <div className="space-y-2 text-sm">
      <p>
        A: <span className="font-mono">{v.models?.a ?? "–"}</span> · B: <span className="font-mono">{v.models?.b ?? "–"}</span>
        {v.metric ? ` · ${v.metric.name}: A ${v.metric.a}, B ${v.metric.b}` : ""}
      </p>
      <ul>
        {v.dimensions.map((dimension) => (
          <li key={dimension.id}>
            {dimension.label}: <span className="font-mono">{v.reference?.[dimension.id] ?? "–"}</span>
          </li>
        ))}
      </ul>
      {v.source ? <p className="text-xs text-slate-500">Reference: {v.source}</p> : null}
    </div>
  );
}
