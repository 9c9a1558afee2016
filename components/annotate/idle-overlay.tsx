"use client";

import { useEffect, useRef } from "react";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";

/** "Are you still working?" after the study's idle cap without an interaction. */
export function IdleOverlay() {
  const idle = useAnnotationStore((s) => s.idle);
  const idleDismissed = useAnnotationStore((s) => s.idleDismissed);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (idle) button.current?.focus();
  }, [idle]);
  if (!idle) return null;
  return (
    <div role="alertdialog" aria-modal="true" aria-labelledby="idle-title" className="fixed inset-0 z-40 grid place-items-center bg-slate-900/50 p-4">
      <div className="w-full max-w-sm rounded-lg bg-white p-6 text-center shadow-xl">
        <h2 id="idle-title" className="text-lg font-semibold">
          Are you still working?
        </h2>
        <p className="mt-2 text-sm text-slate-600">Nothing has happened on this item for a while. The time away is not counted as working time.</p>
        <button
          ref={button}
          type="button"
          onClick={idleDismissed}
          className="mt-4 inline-flex h-10 items-center rounded-md bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700"
        >
          I&apos;m back, continue
        </button>
      </div>
    </div>
  );
}
