/** How reviewers see a rating item's key (ratingModule.reviewView): the rubric with the reference rating of each entry, when there is one. */
export function RatingKey({ view }: { view: unknown }) {
  const { rubric, reference } = view as {
    rubric: Array<{ id: string; label: string; dimension: string; type: string; min?: number; max?: number; pass?: string }>;
    reference: Record<string, unknown> | null;
  };
  return (
    <table className="min-w-full text-sm" aria-label="Rubric and reference ratings">
      <thead className="text-xs text-slate-600">
        <tr>
          <th className="px-2 py-1 text-left font-medium">Rubric entry</th>
          <th className="px-2 py-1 text-left font-medium">Dimension</th>
          <th className="px-2 py-1 text-left font-medium">Scale</th>
          <th className="px-2 py-1 text-left font-medium">Reference</th>
        </tr>
      </thead>
      <tbody>
        {rubric.map((entry) => (
          <tr key={entry.id} className="border-t border-slate-100">
            <td className="px-2 py-1">{entry.label}</td>
            <td className="px-2 py-1">{entry.dimension}</td>
            <td className="px-2 py-1">{entry.type === "likert" ? `${entry.min}–${entry.max}` : `yes / no (pass: ${entry.pass ?? "yes"})`}</td>
            <td className="px-2 py-1 font-mono">{reference && reference[entry.id] !== undefined ? String(reference[entry.id]) : "–"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
