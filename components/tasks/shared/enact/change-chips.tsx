/** A change set ("+f" became true, "-f" stopped being true) as coloured chips. */
export function ChangeChips({ changes, empty = "no visible change" }: { changes: string[] | null | undefined; empty?: string }) {
  if (!changes) return null;
  if (changes.length === 0) return <span className="text-xs italic text-slate-400">{empty}</span>;
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Changes">
      {changes.map((change) => {
        const added = change.startsWith("+");
        return (
          <li
            key={change}
            className={`rounded px-1.5 py-0.5 font-mono text-[11px] leading-tight ${added ? "bg-emerald-50 text-emerald-800 ring-1 ring-emerald-200" : "bg-red-50 text-red-800 ring-1 ring-red-200"}`}
          >
            <span aria-label={added ? "becomes true" : "stops being true"}>{added ? "+" : "−"}</span>
            {change.slice(1)}
          </li>
        );
      })}
    </ul>
  );
}

/** Facts true in a state, as grey chips. */
export function FactChips({ facts }: { facts: string[] }) {
  if (facts.length === 0) return <span className="text-xs italic text-slate-400">none</span>;
  return (
    <ul className="flex flex-wrap gap-1">
      {facts.map((fact) => (
        <li key={fact} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] leading-tight text-slate-700">
          {fact}
        </li>
      ))}
    </ul>
  );
}
