export function ProgressBar({ done, total, className = "w-40" }: { done: number; total: number; className?: string }) {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  return (
    <span role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done} className={`inline-block h-2 overflow-hidden rounded-full bg-slate-200 ${className}`}>
      <span className="block h-full rounded-full bg-brand-600" style={{ width: `${Math.round(share * 100)}%` }} />
    </span>
  );
}
