"use client";

import { useEffect, useLayoutEffect, useRef, useState } from "react";

/**
 * The annotator's layout at about the size annotators work in (1080 x 560 for the task: a window a
 * little smaller than 1280 x 720), scaled down to fit the space beside the key, so that the
 * reviewer sees the item as laid out for the annotator, not squeezed into a narrow column.
 * "Full size" shows it unscaled.
 */
const LOGICAL_WIDTH = 1080;
const LOGICAL_HEIGHT = 560;

export function ScaledPreview({
  children,
  label,
  full,
  note,
  fit = "both",
}: {
  children: React.ReactNode;
  label: string;
  full: React.ReactNode;
  note?: React.ReactNode;
  /** "both": fit the box the layout gives (width and height); "width": fit the width, take the height that needs */
  fit?: "both" | "width";
}) {
  const box = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(0.7);
  const [open, setOpen] = useState(false);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      if (fit === "width" && width > 0) setScale(Math.min(1, width / LOGICAL_WIDTH));
      else if (width > 0 && height > 0) setScale(Math.min(1, width / LOGICAL_WIDTH, height / LOGICAL_HEIGHT));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [fit]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      // the task's own lightbox closes first
      if (event.key === "Escape" && document.querySelectorAll('[role="dialog"]').length === 1) {
        event.preventDefault();
        setOpen(false);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <section className="flex min-h-0 min-w-0 flex-col" aria-label={label}>
      <div className="mb-1 flex items-center justify-between gap-2">
        <h2 className="shrink-0 text-xs font-semibold uppercase tracking-wide text-slate-500">
          {label} <span className="font-normal normal-case tracking-normal text-slate-400">at {Math.round(scale * 100)}%</span>
        </h2>
        <div className="min-w-0 flex-1 truncate text-right">{note}</div>
        <button
          type="button"
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => setOpen(true)}
          className="shrink-0 rounded-md border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50"
        >
          Full size
        </button>
      </div>
      <div
        ref={box}
        className={`relative min-h-0 overflow-hidden ${fit === "both" ? "flex-1" : ""}`}
        style={fit === "width" ? { height: LOGICAL_HEIGHT * scale } : undefined}
        data-testid="scaled-preview"
      >
        <div style={{ width: LOGICAL_WIDTH, height: LOGICAL_HEIGHT, transform: `scale(${scale})`, transformOrigin: "top left" }}>{children}</div>
      </div>
      {open ? (
        <div role="dialog" aria-modal="true" aria-label={`${label}, full size`} className="fixed inset-0 z-40 flex flex-col bg-slate-100 p-4">
          <div className="mb-2 flex items-center justify-between">
            <h2 className="text-sm font-semibold text-slate-800">{label}</h2>
            <button
              type="button"
              onClick={() => setOpen(false)}
              className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm font-medium hover:bg-slate-50"
              autoFocus
            >
              Close <kbd className="ml-1 rounded bg-slate-100 px-1 text-xs">Esc</kbd>
            </button>
          </div>
          <div className="min-h-0 flex-1">{full}</div>
        </div>
      ) : null}
    </section>
  );
}
