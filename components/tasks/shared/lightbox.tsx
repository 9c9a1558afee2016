"use client";

import { useEffect, useRef } from "react";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";

/** The zoomed image, large; Escape, the close button or a click beside the image closes it. */
export function Lightbox({ describe, overlay }: { describe?: (image: string) => string; overlay?: (image: string) => React.ReactNode }) {
  const zoomed = useAnnotationStore((s) => s.zoomed);
  const closeZoom = useAnnotationStore((s) => s.closeZoom);
  const closeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!zoomed) return;
    const previous = document.activeElement as HTMLElement | null;
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        closeZoom("escape");
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [zoomed, closeZoom]);

  if (!zoomed) return null;
  const label = describe?.(zoomed) ?? "Image";
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={label}
      className="fixed inset-0 z-50 flex items-center justify-center bg-slate-950/80 p-4"
      onClick={() => closeZoom("backdrop")}
    >
      <figure className="relative flex max-h-full max-w-full flex-col items-center" onClick={(event) => event.stopPropagation()}>
        <div className="relative">
          {/* eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching; no optimisation wanted */}
          <img src={zoomed} alt={label} className="max-h-[calc(100dvh-6rem)] max-w-[calc(100vw-2rem)] rounded-md bg-white object-contain shadow-2xl" />
          {overlay?.(zoomed)}
        </div>
        <figcaption className="mt-2 flex items-center gap-3 text-sm text-white">
          <span>{label}</span>
          <button
            ref={closeButton}
            type="button"
            onClick={() => closeZoom("button")}
            className="rounded-md bg-white/15 px-3 py-1 font-medium hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-white"
          >
            Close <kbd className="ml-1 rounded bg-white/20 px-1 text-xs">Esc</kbd>
          </button>
        </figcaption>
      </figure>
    </div>
  );
}
