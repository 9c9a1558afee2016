/** How reviewers see a free-text item's key (its reviewView): the question and the reference answers. */
export function FreeTextKey({ view }: { view: unknown }) {
  const key = (view ?? {}) as { question?: string; references?: string[] };
  const references = key.references ?? [];
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="free-text-key">
      {key.question ? <p className="font-medium text-slate-900">{key.question}</p> : null}
      <div>
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">
          {references.length === 1 ? "Reference answer" : `Reference answers (${references.length}; the first is OpenEQA's answer, then its extra answers)`}
        </h3>
        <ol className="mt-1 list-decimal pl-5 text-slate-800">
          {references.map((reference, i) => (
            <li key={i}>{reference}</li>
          ))}
        </ol>
      </div>
    </div>
  );
}
