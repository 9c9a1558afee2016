"use client";

import { useEffect, useRef, useState } from "react";

/** Whether a sideways-scrolling element has more content past its left and right edges, kept up to date. */
export function useScrollEdges(ref: React.RefObject<HTMLElement | null>): { left: boolean; right: boolean } {
  const [more, setMore] = useState({ left: false, right: false });
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const update = () => {
      const left = box.scrollLeft > 1;
      const right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
      setMore((was) => (was.left === left && was.right === right ? was : { left, right }));
    };
    update();
    box.addEventListener("scroll", update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => {
      box.removeEventListener("scroll", update);
      observer.disconnect();
    };
  }, [ref]);
  return more;
}

/** Scrolls a sideways-scrolling bar (tabs, a nav) so that its current entry is in view, without moving the page. */
export function useCurrentInView(ref: React.RefObject<HTMLElement | null>, key: string) {
  useEffect(() => {
    const bar = ref.current;
    const current = bar?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!bar || !current) return;
    const start = current.getBoundingClientRect().left - bar.getBoundingClientRect().left + bar.scrollLeft;
    if (start < bar.scrollLeft || start + current.offsetWidth > bar.scrollLeft + bar.clientWidth)
      bar.scrollLeft = start - (bar.clientWidth - current.offsetWidth) / 2;
  }, [ref, key]);
}

/** A fade at the edges of a bar where more of it is scrolled away (a CSS mask: the bar's own background stays). */
export function edgeFadeStyle(more: { left: boolean; right: boolean }): React.CSSProperties | undefined {
  if (!more.left && !more.right) return undefined;
  const mask = `linear-gradient(to right, ${more.left ? "transparent, black 1.5rem" : "black"}, ${more.right ? "black calc(100% - 1.5rem), transparent" : "black"})`;
  return { maskImage: mask, WebkitMaskImage: mask };
}

/**
 * A box whose content (a wide table) scrolls sideways inside it instead of widening the page.
 * When there is more to either side, that edge fades and a line under the box says so: without
 * it, a phone shows the first columns as if they were all. Focusable while it scrolls, so that
 * the arrow keys scroll it too.
 */
export function ScrollBox({
  children,
  className = "",
  label = "Table",
  testId,
  edges = "both",
}: {
  children: React.ReactNode;
  className?: string;
  label?: string;
  testId?: string;
  /** "left" where a sticky last column draws its own edge on the right */
  edges?: "both" | "left";
}) {
  const ref = useRef<HTMLDivElement>(null);
  const more = useScrollEdges(ref);
  const scrolls = more.left || more.right;
  return (
    <div className="min-w-0 max-w-full">
      <div className="relative">
        <div
          ref={ref}
          className={`overflow-x-auto ${className}`}
          data-testid={testId}
          data-scrolls={scrolls ? "true" : undefined}
          tabIndex={scrolls ? 0 : undefined}
          role={scrolls ? "region" : undefined}
          aria-label={scrolls ? `${label} (scrolls sideways)` : undefined}
        >
          {children}
        </div>
        <div
          aria-hidden
          className={`pointer-events-none absolute inset-y-0 left-0 w-5 rounded-l-[inherit] bg-gradient-to-r from-slate-500/20 to-transparent transition-opacity ${more.left ? "opacity-100" : "opacity-0"}`}
        />
        {edges === "both" ? (
          <div
            aria-hidden
            className={`pointer-events-none absolute inset-y-0 right-0 w-5 bg-gradient-to-l from-slate-500/20 to-transparent transition-opacity ${more.right ? "opacity-100" : "opacity-0"}`}
          />
        ) : null}
      </div>
      {scrolls ? (
        <p aria-hidden className="mt-1 text-right text-[11px] text-slate-500">
          {more.left && more.right ? "← more columns to both sides →" : more.right ? "more columns: scroll sideways →" : "← more columns to the left"}
        </p>
      ) : null}
    </div>
  );
}
