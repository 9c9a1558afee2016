import { ZoomImage } from "@/components/review/zoom-image";

/** The choice key for reviewers (the kind's reviewView): every option in the item's order, the keyed one marked. */
export function ChoiceKey({ view }: { view: unknown }) {
  const key = view as {
    question: string;
    answer: string | null;
    options: Array<{ id: string; text?: string; image?: string }>;
    withheld: boolean;
    note: string | null;
  };
  return (
    <div className="space-y-2" data-testid="key-choice">
      <p className="text-sm font-semibold text-slate-800">{key.question}</p>
      {key.withheld ? (
        <p className="rounded border border-amber-200 bg-amber-50 px-2 py-1 text-xs text-amber-900">
          No key: the benchmark withholds this answer (answers are exported in its submission format).
        </p>
      ) : null}
      <ol className="space-y-1" aria-label="Options in the item's order">
        {key.options.map((option, index) => {
          const keyed = option.id === key.answer;
          return (
            <li
              key={option.id}
              data-key-option={option.id}
              data-keyed={keyed ? "true" : "false"}
              className={`flex items-center gap-2 rounded-md border px-2 py-1 text-sm ${keyed ? "border-emerald-300 bg-emerald-50 font-semibold" : "border-slate-200 bg-white"}`}
            >
              <span className="font-mono text-xs text-slate-500">{String.fromCharCode(65 + index)}</span>
              {option.image ? <ZoomImage src={option.image} alt={`Option ${option.id}`} className="h-14 w-20" /> : null}
              <span className="flex-1">{option.text ?? ""}</span>
              <span className="font-mono text-[11px] text-slate-400">id {option.id}</span>
              {keyed ? <span className="rounded bg-emerald-600 px-1.5 text-xs text-white">key</span> : null}
            </li>
          );
        })}
      </ol>
      {key.note ? <p className="text-xs text-slate-600">Note: {key.note}</p> : null}
    </div>
  );
}
