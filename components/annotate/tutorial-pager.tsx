"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { callApi } from "@/lib/client/api";

/**
 * The tutorial, one page at a time (Back / Next, or the ← → keys); the last page marks it read
 * (POST /api/annotate/studies/<slug>/tutorial) and opens the work page, where the practice items
 * come first. Pages arrive rendered (Markdown on the server).
 */
export function TutorialPager({
  slug,
  pages,
  finishLabel,
  paused,
}: {
  slug: string;
  pages: Array<{ title: string; content: React.ReactNode }>;
  finishLabel: string;
  paused: boolean;
}) {
  const [index, setIndex] = useState(0);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const last = index === pages.length - 1;
  // data-keys-ready="true" once the arrow keys work (after hydration); tests wait for it before pressing them
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
      if (event.key === "ArrowRight") setIndex((i) => Math.min(pages.length - 1, i + 1));
      else if (event.key === "ArrowLeft") setIndex((i) => Math.max(0, i - 1));
    };
    document.addEventListener("keydown", onKey);
    container.current?.setAttribute("data-keys-ready", "true");
    return () => document.removeEventListener("keydown", onKey);
  }, [pages.length]);

  useEffect(() => {
    heading.current?.focus();
    window.scrollTo({ top: 0 });
  }, [index]);

  async function finish() {
    setPending(true);
    setError(null);
    const result = await callApi(`/api/annotate/studies/${encodeURIComponent(slug)}/tutorial`, { method: "POST" });
    if (!result.ok) {
      setPending(false);
      setError(result.error ?? "That did not work. Please try again.");
      return;
    }
    window.location.assign(paused ? `/s/${slug}` : `/s/${slug}/work`);
  }

  const page = pages[index];
  return (
    <div data-testid="tutorial" ref={container}>
      <div className="mb-3 flex items-center gap-3">
        <span className="text-xs font-semibold uppercase tracking-wide text-brand-700" data-testid="tutorial-position">
          Tutorial · page {index + 1} of {pages.length}
        </span>
        <span className="flex gap-1" aria-hidden>
          {pages.map((p, i) => (
            <span key={`${p.title}-${i}`} className={`h-1.5 w-6 rounded-full ${i <= index ? "bg-brand-600" : "bg-slate-200"}`} />
          ))}
        </span>
      </div>
      <h2 ref={heading} tabIndex={-1} className="text-xl font-semibold tracking-tight outline-none">
        {page.title}
      </h2>
      <div className="mt-3 min-h-[12rem]">{page.content}</div>
      {error ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-6 flex items-center gap-3 border-t border-slate-100 pt-4">
        <Button type="button" variant="secondary" disabled={index === 0} onClick={() => setIndex((i) => i - 1)}>
          ← Back
        </Button>
        <span className="text-xs text-slate-500">Keys: ← →</span>
        {last ? (
          <Button type="button" className="ml-auto" disabled={pending} onClick={() => void finish()}>
            {pending ? "One moment…" : finishLabel}
          </Button>
        ) : (
          <Button type="button" className="ml-auto" onClick={() => setIndex((i) => i + 1)}>
            Next →
          </Button>
        )}
      </div>
    </div>
  );
}
