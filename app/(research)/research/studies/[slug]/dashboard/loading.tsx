import { Skeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <div role="status" aria-label="Computing the dashboard" className="space-y-4">
      <div className="flex gap-3">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-12 w-40" />
        ))}
      </div>
      <div className="grid gap-4 md:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
      <Skeleton className="h-72" />
      <p className="text-sm text-slate-500">
        Computing the dashboard: intervals are bootstrapped (1,000 resamples each); large studies take a few seconds the first time.
      </p>
    </div>
  );
}
