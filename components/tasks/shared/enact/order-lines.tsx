import { orderOf } from "@/lib/tasks/shared/enact/ordering-draft";
import { letterOf } from "@/components/tasks/shared/types";

/** The replay's final answer of an ordering item: the answer's order and the key's, step by step. */
export function OrderLines({ answer, keyAnswer }: { answer: unknown; keyAnswer: unknown }) {
  return (
    <>
      <OrderLine label="Answer" order={orderOf(answer)} />
      <OrderLine label="Key" order={orderOf(keyAnswer)} />
    </>
  );
}

function OrderLine({ label, order }: { label: string; order: number[] | null }) {
  return (
    <div className="flex items-center gap-2">
      <span className="w-14 text-xs text-slate-500">{label}</span>
      {order ? (
        <ol className="flex flex-wrap gap-1">
          {order.map((candidate, step) => (
            <li key={step} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs" title={`step ${step + 1}`}>
              {step + 1}:{letterOf(candidate)}
            </li>
          ))}
        </ol>
      ) : (
        <span className="text-xs text-slate-400">n/a</span>
      )}
    </div>
  );
}
