"use client";

import { useEffect, useRef, useState } from "react";

/** A thumbnail that opens large on click; Escape, the close button or a click beside it closes it. */
export function ZoomImage({ src, alt, className = "", caption }: { src: string; alt: string; className?: string; caption?: string }) {
  const [open, setOpen] = useState(false);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    close.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        setOpen(false);
      }
    };
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("keydown", onKey, true);
      previous?.focus?.();
    };
  }, [open]);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className={`group relative overflow-hidden rounded border border-slate-200 bg-white ${className}`}
        title={`${alt}: click to open large`}
        aria-label={`${alt}: open large`}
      >
        {/* eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching */}
        <img src={src} alt={alt} className="h-full w-full object-contain" draggable={false} />
      </button>
      {open ? (
        <div
          role="dialog"
          aria-modal="true"
          aria-label={alt}
          className="fixed inset-0 z-50 flex items-center justify-center bg-slate-950/80 p-4"
          onClick={() => setOpen(false)}
        >
          <figure className="flex max-h-full max-w-full flex-col items-center" onClick={(event) => event.stopPropagation()}>
            {/* eslint-disable-next-line @next/next/no-img-element -- see above */}
            <img src={src} alt={alt} className="max-h-[calc(100dvh-6rem)] max-w-[calc(100vw-2rem)] rounded-md bg-white object-contain shadow-2xl" />
            <figcaption className="mt-2 flex items-center gap-3 text-sm text-white">
              <span>{caption ?? alt}</span>
              <button
                ref={close}
                type="button"
                onClick={() => setOpen(false)}
                className="rounded-md bg-white/15 px-3 py-1 font-medium hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-white"
              >
                Close <kbd className="ml-1 rounded bg-white/20 px-1 text-xs">Esc</kbd>
              </button>
            </figcaption>
          </figure>
        </div>
      ) : null}
    </>
  );
}
