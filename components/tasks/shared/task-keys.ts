"use client";

import { useEffect, useRef } from "react";
import { useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";

/**
 * Page-wide single-key shortcuts of a task (1-4 / A-D, S / F, arrows). Ignored while typing in a
 * form field, with a modifier held (browser shortcuts), while a large image is open, and once the
 * item is submitted or read-only. `handle` returns true when it used the key (default prevented).
 */
export function useTaskKeys(handle: (key: string) => boolean) {
  const api = useAnnotationStoreApi();
  const latest = useRef(handle);
  useEffect(() => {
    latest.current = handle;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName))) return;
      const state = api.getState();
      if (state.readOnly || state.submitted || state.zoomed !== null || state.idle) return;
      if (latest.current(event.key)) event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [api]);
}

/** "keyboard" for a click made with Enter or Space on a focused button (detail 0), else "click". */
export function viaOf(event: React.MouseEvent): "click" | "keyboard" {
  return event.detail === 0 ? "keyboard" : "click";
}
