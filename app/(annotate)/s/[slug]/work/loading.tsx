export default function Loading() {
  return <div role="status" aria-label="Loading" className="h-[calc(100dvh-3.5rem-1px-1.5rem)] animate-pulse rounded-lg bg-slate-200" />;
}
