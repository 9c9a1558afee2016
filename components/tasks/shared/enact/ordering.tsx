"use client";

import { useDrag, useDragLayer, useDrop } from "react-dnd";
import { useMemo } from "react";
import { useAnnotationStore, useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";
import { orderingActions, pickedOf, slotsOf } from "@/components/tasks/shared/enact/ordering-store";
import { usePointerKind } from "@/components/tasks/shared/enact/dnd";
import { letterOf, type SlotNote } from "@/components/tasks/shared/types";
import { slotKeysText, slotOfKey } from "@/components/tasks/shared/enact/layout";

/**
 * The slot-filling interaction shared by the ordering kinds (ENACT forward and inverse): a library
 * of lettered candidates, numbered slots, drag and drop (react-dnd), a keyboard path (focus a
 * candidate and press a slot's number; in a slot, a number moves it and Delete clears it) and
 * click-to-clear. Every action dispatches its event to the annotation store
 * (components/tasks/shared/enact/ordering-store.ts), which records it.
 */

export const CANDIDATE = "candidate";

interface DragItem {
  candidate: number;
  fromSlot: number | null;
}

/** A library candidate: draggable, focusable; digits place it; click runs `onActivate` (e.g. zoom). */
export function CandidateTile({
  candidate,
  label,
  onActivate,
  className = "",
  letterAt = "top",
  children,
}: {
  candidate: number;
  /** accessible name, e.g. "Candidate image C" */
  label: string;
  onActivate?: () => void;
  className?: string;
  /** where the letter badge sits (bottom: images whose top carries a label of their own) */
  letterAt?: "top" | "bottom";
  children: React.ReactNode;
}) {
  const api = useAnnotationStoreApi();
  const actions = useMemo(() => orderingActions(api), [api]);
  const pointer = usePointerKind();
  const readOnly = useAnnotationStore((s) => s.readOnly || s.submitted);
  const length = useAnnotationStore((s) => slotsOf(s).length);
  const slot = useAnnotationStore((s) => slotsOf(s).indexOf(candidate));
  const picked = useAnnotationStore((s) => pickedOf(s)?.candidate === candidate);
  const [{ dragging }, drag] = useDrag<DragItem, unknown, { dragging: boolean }>(
    () => ({
      type: CANDIDATE,
      item: () => {
        const fromSlot = slotsOf(api.getState()).indexOf(candidate);
        actions.pick(candidate, fromSlot >= 0 ? fromSlot : null, pointer);
        return { candidate, fromSlot: fromSlot >= 0 ? fromSlot : null };
      },
      canDrag: () => !api.getState().readOnly && !api.getState().submitted,
      end: (_item, monitor) => {
        if (!monitor.didDrop()) actions.cancelPick();
      },
      collect: (monitor) => ({ dragging: monitor.isDragging() }),
    }),
    [candidate, pointer],
  );
  const placed = slot >= 0;
  const touch = pointer === "touch";
  // touch: a tap selects (or deselects) the candidate, a tap on a step then places it; no drag needed
  const onTap = () => {
    const state = api.getState();
    if (state.readOnly || state.submitted) return onActivate?.();
    if (pickedOf(state)?.candidate === candidate) actions.cancelPick();
    else actions.pick(candidate, slot >= 0 ? slot : null, "touch");
  };
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (readOnly) return;
    const target = slotOfKey(event.key, length);
    if (target !== null) {
      event.preventDefault();
      actions.place(candidate, target, "keyboard");
    } else if ((event.key === "Enter" || event.key === " ") && onActivate) {
      event.preventDefault();
      onActivate();
    }
  };
  return (
    <div
      ref={(node) => {
        drag(node);
      }}
      role="button"
      tabIndex={0}
      aria-label={`${label}${placed ? `, placed in step ${slot + 1}` : ""}`}
      aria-pressed={touch && !readOnly ? picked : undefined}
      aria-keyshortcuts={readOnly ? undefined : slotKeysText(length).replace("–", "-")}
      data-candidate={candidate}
      data-placed={placed ? slot + 1 : undefined}
      onKeyDown={onKeyDown}
      onClick={touch ? onTap : onActivate}
      className={`group relative cursor-grab select-none rounded-md border bg-white outline-none transition focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-1 active:cursor-grabbing ${
        picked || dragging ? "border-brand-500 ring-2 ring-brand-300" : "border-slate-200 hover:border-slate-400"
      } ${placed ? "opacity-45" : ""} ${className}`}
    >
      {children}
      <span
        className={`pointer-events-none absolute left-1 grid h-5 min-w-5 place-items-center rounded bg-slate-900/80 px-1 text-xs font-semibold text-white ${letterAt === "top" ? "top-1" : "bottom-1"}`}
      >
        {letterOf(candidate)}
      </span>
      {placed ? (
        <span className="pointer-events-none absolute right-1 top-1 rounded bg-brand-600 px-1.5 text-xs font-semibold text-white">→ {slot + 1}</span>
      ) : null}

      {!readOnly ? (
        <span className="pointer-events-none absolute left-1/2 top-1/2 hidden -translate-x-1/2 -translate-y-1/2 whitespace-nowrap rounded bg-brand-600 px-1.5 py-0.5 text-center text-[11px] font-medium text-white shadow group-focus-visible:block">
          press {slotKeysText(length)} to place
        </span>
      ) : null}
    </div>
  );
}

/**
 * A numbered slot: a drop target; when filled, its candidate can be dragged to another slot
 * (swap) and a click (or Enter/Delete) clears it; digits move it to that slot.
 */
export function SlotBox({
  slot,
  label,
  note,
  className = "",
  renderFilled,
  emptyText,
  letterAt = "top",
  style,
}: {
  slot: number;
  letterAt?: "top" | "bottom";
  style?: React.CSSProperties;
  /** accessible name, e.g. "Next state after action 2" */
  label: string;
  note?: SlotNote | null;
  className?: string;
  renderFilled: (candidate: number) => React.ReactNode;
  emptyText: string;
}) {
  const api = useAnnotationStoreApi();
  const actions = useMemo(() => orderingActions(api), [api]);
  const pointer = usePointerKind();
  const candidate = useAnnotationStore((s) => slotsOf(s)[slot] ?? null);
  const readOnly = useAnnotationStore((s) => s.readOnly || s.submitted);
  const length = useAnnotationStore((s) => slotsOf(s).length);
  const [{ over }, drop] = useDrop<DragItem, unknown, { over: boolean }>(
    () => ({
      accept: CANDIDATE,
      canDrop: () => !api.getState().readOnly && !api.getState().submitted,
      drop: (item) => {
        const state = api.getState();
        if (item.fromSlot === slot) actions.cancelPick();
        else if (item.fromSlot !== null && slotsOf(state)[item.fromSlot] === item.candidate) actions.moveSlot(item.fromSlot, slot, pointer);
        else actions.place(item.candidate, slot, pointer);
      },
      collect: (monitor) => ({ over: monitor.isOver() && monitor.canDrop() }),
    }),
    [slot, pointer],
  );
  const [{ dragging }, drag] = useDrag<DragItem, unknown, { dragging: boolean }>(
    () => ({
      type: CANDIDATE,
      item: () => {
        // canDrag lets only filled slots start a drag
        const current = slotsOf(api.getState())[slot] ?? -1;
        actions.pick(current, slot, pointer);
        return { candidate: current, fromSlot: slot };
      },
      canDrag: () => !api.getState().readOnly && !api.getState().submitted && slotsOf(api.getState())[slot] !== null,
      end: (_item, monitor) => {
        if (!monitor.didDrop()) actions.cancelPick();
      },
      collect: (monitor) => ({ dragging: monitor.isDragging() }),
    }),
    [slot, pointer],
  );
  const filled = candidate !== null;
  // a candidate selected by a tap (touch) waits for a step: this one takes it
  const waiting = useAnnotationStore((s) => (pickedOf(s) !== null && !s.readOnly && !s.submitted ? (pickedOf(s)?.candidate ?? null) : null));
  const target = pointer === "touch" && waiting !== null && waiting !== candidate;
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (readOnly || !filled) return;
    const target = slotOfKey(event.key, length);
    if (target !== null) {
      event.preventDefault();
      actions.moveSlot(slot, target, "keyboard");
    } else if (event.key === "Delete" || event.key === "Backspace" || event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      actions.clearSlot(slot, "keyboard");
    }
  };
  const noteTone = note
    ? { good: "border-emerald-500 ring-2 ring-emerald-200", bad: "border-red-500 ring-2 ring-red-200", neutral: "border-slate-300" }[note.tone]
    : "";
  return (
    <div className={`flex min-h-0 min-w-0 flex-col ${className}`} style={style}>
      <div
        ref={(node) => {
          drag(drop(node));
        }}
        role="button"
        tabIndex={readOnly && !filled ? -1 : 0}
        aria-label={`${label}: ${filled ? `${letterOf(candidate)}${readOnly ? "" : target ? ` (tap to put ${letterOf(waiting)} here)` : pointer === "touch" ? " (tap to clear)" : " (click to clear)"}` : target ? `empty (tap to put ${letterOf(waiting)} here)` : "empty"}`}
        data-slot={slot + 1}
        data-filled={filled ? letterOf(candidate) : undefined}
        onClick={(event) => {
          if (readOnly) return;
          const picked = pickedOf(api.getState());
          if (pointer === "touch" && picked !== null) actions.place(picked.candidate, slot, "touch");
          else if (filled) actions.clearSlot(slot, event.detail === 0 ? "keyboard" : "click");
        }}
        onKeyDown={onKeyDown}
        title={filled && !readOnly ? "Click to clear, drag to another step to swap" : undefined}
        className={`group relative h-full min-h-0 w-full overflow-hidden rounded-md border-2 outline-none transition focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-1 ${
          filled
            ? `border-solid bg-white ${readOnly ? "" : "cursor-pointer"} ${noteTone || "border-slate-300"}`
            : `border-dashed ${over ? "border-brand-500 bg-brand-50" : noteTone || "border-slate-300 bg-slate-50"}`
        } ${(over || target) && filled ? "ring-2 ring-brand-400" : ""} ${target && !filled ? "border-brand-500 bg-brand-50" : ""} ${dragging ? "opacity-40" : ""}`}
      >
        {filled ? (
          <>
            {renderFilled(candidate)}
            <span
              className={`pointer-events-none absolute left-1 ${letterAt === "top" ? "top-1" : "bottom-1"} grid h-5 min-w-5 place-items-center rounded bg-slate-900/80 px-1 text-xs font-semibold text-white`}
            >
              {letterOf(candidate)}
            </span>
            {!readOnly ? (
              <span
                aria-hidden
                className="pointer-events-none absolute right-1 top-1 hidden h-5 w-5 place-items-center rounded-full bg-red-600 text-xs font-bold text-white group-hover:grid"
              >
                ×
              </span>
            ) : null}
          </>
        ) : (
          <span className="pointer-events-none flex h-full w-full flex-col items-center justify-center p-1 text-center text-slate-400">
            <span className="text-lg font-semibold leading-none">{slot + 1}</span>
            <span className="mt-0.5 text-[11px] leading-tight">
              {target ? `tap to put ${letterOf(waiting)} here` : pointer === "touch" ? emptyText.replace(/^drop\b/, "tap") : emptyText}
            </span>
          </span>
        )}
      </div>
      {note ? (
        <div
          className={`mt-0.5 truncate text-[11px] font-medium ${note.tone === "good" ? "text-emerald-700" : note.tone === "bad" ? "text-red-700" : "text-slate-600"}`}
          title={note.text}
        >
          {note.text}
        </div>
      ) : null}
    </div>
  );
}

/** The library as a drop target: a candidate dragged out of a step and dropped here leaves the step. */
export function LibraryDropZone({ className = "", children }: { className?: string; children: React.ReactNode }) {
  const api = useAnnotationStoreApi();
  const actions = useMemo(() => orderingActions(api), [api]);
  const pointer = usePointerKind();
  const [{ over }, drop] = useDrop<DragItem, unknown, { over: boolean }>(
    () => ({
      accept: CANDIDATE,
      canDrop: (item) => item.fromSlot !== null && !api.getState().readOnly && !api.getState().submitted,
      drop: (item) => {
        if (item.fromSlot !== null) actions.clearSlot(item.fromSlot, pointer);
      },
      collect: (monitor) => ({ over: monitor.isOver() && monitor.canDrop() }),
    }),
    [pointer],
  );
  return (
    <div
      ref={(node) => {
        drop(node);
      }}
      className={`${className} ${over ? "rounded-md bg-brand-50 ring-2 ring-brand-300" : ""}`}
    >
      {children}
    </div>
  );
}

/** The touch backend draws no drag image: this layer follows the finger with the candidate. */
export function DragPreviewLayer({ render, className = "w-28" }: { render: (candidate: number) => React.ReactNode; className?: string }) {
  const pointer = usePointerKind();
  const { item, offset, dragging } = useDragLayer((monitor) => ({
    item: monitor.getItem() as DragItem | null,
    offset: monitor.getSourceClientOffset(),
    dragging: monitor.isDragging(),
  }));
  if (pointer !== "touch" || !dragging || !item || !offset) return null;
  return (
    <div className="pointer-events-none fixed left-0 top-0 z-50" style={{ transform: `translate(${offset.x}px, ${offset.y}px)` }}>
      <div className={`rotate-2 rounded-md border border-brand-500 bg-white opacity-90 shadow-xl ${className}`}>{render(item.candidate)}</div>
    </div>
  );
}

/**
 * The how-to line over the library, so the keyboard path is discoverable. On touch it follows the
 * selection, and `onZoom` adds a button that shows the selected candidate large: a zoom button
 * inside each tile would catch taps meant for the tile (the browser moves a tap to the nearest
 * real button).
 */
export function OrderingHint({ what, onZoom }: { what: string; onZoom?: (candidate: number) => void }) {
  const length = useAnnotationStore((s) => slotsOf(s).length);
  const readOnly = useAnnotationStore((s) => s.readOnly);
  const picked = useAnnotationStore((s) => pickedOf(s)?.candidate ?? null);
  const pointer = usePointerKind();
  if (readOnly) return null;
  if (pointer === "touch") {
    return (
      <p className="text-xs leading-snug text-slate-500" aria-live="polite" data-testid="ordering-hint">
        {picked !== null ? (
          <>
            <span className="font-medium text-brand-700">
              {letterOf(picked)} is selected: tap a numbered step to put it there (tap {letterOf(picked)} again to let go).
            </span>
            {onZoom ? (
              <button
                type="button"
                onClick={() => onZoom(picked)}
                className="ml-2 inline-flex h-9 items-center rounded-md border border-slate-300 bg-white px-2 font-medium text-slate-700"
              >
                ⤢ Show {letterOf(picked)} large
              </button>
            ) : null}
          </>
        ) : (
          <>Tap {what} to select it, then tap the numbered step it belongs to. Tap a filled step to clear it.</>
        )}
      </p>
    );
  }
  return (
    <p className="text-xs leading-snug text-slate-500">
      Drag {what} into a numbered step, or press <kbd className="rounded border border-slate-300 bg-white px-1">Tab</kbd> to reach a candidate and type its step
      number <kbd className="rounded border border-slate-300 bg-white px-1">{slotKeysText(length)}</kbd>. Click a filled step to clear it; drag between steps to
      swap.
    </p>
  );
}

/** "3 of 6 steps filled" */
export function FilledCount() {
  const filled = useAnnotationStore((s) => slotsOf(s).filter((v) => v !== null).length);
  const length = useAnnotationStore((s) => slotsOf(s).length);
  return (
    <span className="tabular-nums">
      {filled} of {length} steps filled
    </span>
  );
}
