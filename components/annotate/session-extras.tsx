"use client";

import { useEffect, useId, useRef, useState } from "react";
import { getTaskUi } from "@/components/tasks/registry";
import { shortcutsFor } from "@/components/annotate/task-shortcuts";

/** "1:05", "12:00", "1:02:03" */
export function clock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}` : `${m}:${String(s).padStart(2, "0")}`;
}

function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * The per-item timer (the study's item time limit): counts down from when the item was first
 * shown (the server's start, or now for a new item). Amber in the last fifth, red when the time is
 * up; the server marks answers that come later (lib/responses/responses.ts), this only shows it.
 */
export function ItemTimer({ startedAt, limitSeconds }: { startedAt: number | null; limitSeconds: number }) {
  const [start] = useState(() => startedAt ?? Date.now());
  const now = useNow();
  const left = start + limitSeconds * 1000 - now;
  const tone =
    left <= 0
      ? "bg-red-100 text-red-800 ring-1 ring-red-300"
      : left <= limitSeconds * 200
        ? "bg-amber-50 text-amber-800 ring-1 ring-amber-200"
        : "bg-slate-100 text-slate-700";
  return (
    <span
      role="timer"
      aria-live={left <= 0 ? "assertive" : "off"}
      className={`rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums ${tone}`}
      data-testid="item-timer"
      data-expired={left <= 0 ? "true" : "false"}
      title={`Time for this item: ${clock(limitSeconds * 1000)}`}
    >
      {left <= 0 ? "Time is up: please submit" : `${clock(left)} left`}
    </span>
  );
}

/** The session's remaining time (the study's session time limit); calls onExpired once when it runs out. */
export function SessionTimer({ endsAt, onExpired }: { endsAt: number; onExpired: () => void }) {
  const now = useNow(5000);
  const left = endsAt - now;
  const fired = useRef(false);
  useEffect(() => {
    if (left <= 0 && !fired.current) {
      fired.current = true;
      onExpired();
    }
  }, [left, onExpired]);
  if (left > 15 * 60 * 1000) return null;
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs tabular-nums ${left <= 60_000 ? "bg-red-50 text-red-700" : "bg-amber-50 text-amber-800"}`}
      data-testid="session-timer"
      title="Time left for the whole study"
    >
      Session: {clock(left)}
    </span>
  );
}

const SHORTCUTS_KEY = "yardstick:shortcuts-open";

/**
 * "Keys": the keyboard shortcuts of the item's kind and of every page, in a panel over the
 * submit bar; `?` opens and closes it, Esc closes it. The choice (open or not) is remembered.
 */
export function ShortcutsButton({ kind }: { kind: string }) {
  // this component renders in the browser only (the work page is client-side), so storage is there
  const [open, setOpen] = useState(() => typeof window !== "undefined" && window.localStorage.getItem(SHORTCUTS_KEY) === "1");
  const panelId = useId();
  const list = shortcutsFor(kind, getTaskUi(kind));
  useEffect(() => {
    window.localStorage.setItem(SHORTCUTS_KEY, open ? "1" : "0");
  }, [open]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName))) return;
      if (event.key === "?") setOpen((o) => !o);
      else if (event.key === "Escape") setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    // no keyboard on a phone or tablet: the list would only confuse there
    <span className="relative pointer-coarse:hidden">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className="rounded-md px-1.5 py-0.5 text-xs font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        title="Keyboard shortcuts (?)"
      >
        ⌨ Keys
      </button>
      {open ? (
        <div
          id={panelId}
          role="region"
          aria-label="Keyboard shortcuts"
          className="absolute bottom-full left-0 z-40 mb-2 w-[22rem] max-w-[90vw] rounded-lg border border-slate-200 bg-white p-3 text-xs shadow-lg"
          data-testid="shortcuts"
        >
          <div className="mb-1.5 flex items-center">
            <span className="font-semibold text-slate-900">Keyboard shortcuts</span>
            <button
              type="button"
              onClick={() => setOpen(false)}
              className="ml-auto rounded px-1 text-slate-500 hover:bg-slate-100"
              aria-label="Close the shortcuts"
            >
              ✕
            </button>
          </div>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
            {list.map((shortcut) => (
              <div key={`${shortcut.keys}:${shortcut.action}`} className="contents">
                <dt>
                  <kbd className="whitespace-nowrap rounded border border-slate-300 bg-slate-50 px-1 font-mono text-[11px]">{shortcut.keys}</kbd>
                </dt>
                <dd className="text-slate-600">{shortcut.action}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-2 text-[11px] text-slate-400">Press ? to show or hide this list.</p>
        </div>
      ) : null}
    </span>
  );
}
