"use client";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <p className="text-sm font-semibold text-red-600">Error</p>
      <h1 className="mt-2 text-2xl font-semibold">Something went wrong</h1>
      <p className="mt-2 max-w-md text-sm text-slate-600">The server could not finish this page. Your work is saved; try again.</p>
      {error.digest ? <p className="mt-1 font-mono text-xs text-slate-400">ref {error.digest}</p> : null}
      <button type="button" onClick={reset} className="mt-6 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
        Try again
      </button>
    </main>
  );
}
