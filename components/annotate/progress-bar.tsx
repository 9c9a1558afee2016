export function ProgressBar({ done, total, className = "w-40" }: { done: number; total: number; className?: string }) {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  return (
    <span
      role="progressbar"
      aria-label="Progress"
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={done}
      className={`inline-block overflow-hidden rounded-full bg-slate-200 ${className.includes("h-") ? "" : "h-2"} ${className}`}
    >
      <span className="block h-full rounded-full bg-brand-600" style={{ width: `${Math.round(share * 100)}%` }} />
    </span>
  );
}
