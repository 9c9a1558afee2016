"use client";

import { useRef, useState } from "react";
import { useAnnotationStore, useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";
import { TaskPanel } from "@/components/tasks/shared/panel";
import { useTaskKeys } from "@/components/tasks/shared/task-keys";
import { SyncedPair, usePairSides, usePlaybackGate } from "@/components/tasks/shared/media/stimulus";
import type { TaskUiProps } from "@/components/tasks/shared/types";
import type { PlaybackMode } from "@/lib/tasks/shared/media/events";
import type { PairwisePublic, Preference } from "@/lib/tasks/pairwise";

/**
 * Pairwise preference (`pairwise`): the two stimuli in synced players (SyncedPair; the side on the
 * left, "Video 1", is A or B at random per person), then per dimension "1 better", "Tie" or
 * "2 better". Keys: ↑ / ↓ choose the dimension row, 1 / 2 prefer video 1 / 2, T (or 0) a tie; an
 * answer moves on to the next unanswered row. Each choice is one `preference_set` event, stored in
 * the item's terms (a / b / tie) with where it was on the screen.
 */

export type PairwiseView = Pick<PairwisePublic, "question" | "a" | "b" | "dimensions"> & { playback?: PlaybackMode };

type Via = "click" | "keyboard" | "touch";

export function prefsOf(answer: unknown): Record<string, Preference> {
  const prefs = answer && typeof answer === "object" ? (answer as { prefs?: unknown }).prefs : undefined;
  return prefs && typeof prefs === "object" ? (prefs as Record<string, Preference>) : {};
}

export default function PairwiseTask({ view }: TaskUiProps) {
  const item = view as PairwiseView;
  const mode = item.playback ?? "free";
  const gate = usePlaybackGate(mode);
  const sides = usePairSides();
  const api = useAnnotationStoreApi();
  const prefs = prefsOf(useAnnotationStore((s) => s.answer));
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  const [row, setRow] = useState(0);
  const pointer = useRef<string | null>(null);

  /** screen place ("1", "2", "tie") -> the item's side */
  const sideOf = (place: "1" | "2" | "tie"): Preference => (place === "tie" ? "tie" : place === "1" ? sides.left : sides.right);

  const choose = (index: number, place: "1" | "2" | "tie", via: Via) => {
    const state = api.getState();
    const dimension = item.dimensions[index];
    if (!dimension || state.readOnly || state.submitted) return;
    const value = sideOf(place);
    const previous = prefsOf(state.answer)[dimension.id] ?? null;
    if (previous === value) return;
    state.dispatch({ type: "preference_set", payload: { dimension: dimension.id, value, previous, shown: place, via } });
    const next = item.dimensions.findIndex((other, k) => k > index && prefsOf(api.getState().answer)[other.id] === undefined);
    if (next >= 0) setRow(next);
  };

  useTaskKeys((key) => {
    if (!gate.questionShown) return false;
    if (key === "ArrowDown") setRow(Math.min(item.dimensions.length - 1, row + 1));
    else if (key === "ArrowUp") setRow(Math.max(0, row - 1));
    else if (key === "1" || key === "2") choose(row, key, "keyboard");
    else if (key === "t" || key === "T" || key === "0") choose(row, "tie", "keyboard");
    else return false;
    return true;
  });

  const viaOf = (event: React.MouseEvent): Via => (event.detail === 0 ? "keyboard" : pointer.current === "touch" ? "touch" : "click");
  const done = item.dimensions.filter((dimension) => prefs[dimension.id] !== undefined).length;
  const places = [
    { place: "1" as const, label: "1 better", key: "1" },
    { place: "tie" as const, label: "Tie", key: "T" },
    { place: "2" as const, label: "2 better", key: "2" },
  ];

  return (
    <div
      className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-[minmax(0,1fr)_minmax(300px,380px)] lg:gap-3"
      onPointerDown={(event) => (pointer.current = event.pointerType)}
    >
      <TaskPanel title={item.question ?? "Compare the two videos"} label="Videos" className="min-h-0">
        <SyncedPair a={item.a} b={item.b} sides={sides} mode={mode} gate={gate} />
      </TaskPanel>
      <TaskPanel
        title={`Which is better? (${done} of ${item.dimensions.length})`}
        aside={<span className="pointer-coarse:hidden">↑ ↓ row · 1 / T / 2</span>}
        label="Preferences"
        className="min-h-0"
      >
        {gate.questionShown ? (
          <ol className="flex flex-col gap-2" data-testid="dimensions">
            {item.dimensions.map((dimension, index) => {
              const value = prefs[dimension.id];
              const current = index === row && !locked;
              return (
                <li
                  key={dimension.id}
                  className={`rounded-md border p-2 ${current ? "border-brand-500 ring-1 ring-brand-300" : "border-slate-200"}`}
                  data-dimension={dimension.id}
                  data-current={current ? "true" : "false"}
                  onFocus={() => setRow(index)}
                >
                  <p className="text-sm font-medium text-slate-900">{dimension.label}</p>
                  {dimension.hint ? <p className="text-xs text-slate-500">{dimension.hint}</p> : null}
                  <div role="radiogroup" aria-label={dimension.label} className="mt-1 grid grid-cols-3 gap-1">
                    {places.map(({ place, label, key }) => {
                      const selected = value !== undefined && value === sideOf(place);
                      return (
                        <button
                          key={place}
                          type="button"
                          role="radio"
                          aria-checked={selected}
                          aria-label={`${label} (key ${key})`}
                          data-place={place}
                          disabled={locked && !selected}
                          onClick={(event) => choose(index, place, viaOf(event))}
                          className={`min-h-11 rounded-md border px-1 py-1 text-sm font-semibold ${selected ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 bg-white text-slate-800 hover:border-brand-400"}`}
                        >
                          {label} <kbd className="ml-0.5 rounded border border-current/30 px-1 font-mono text-[10px] pointer-coarse:hidden">{key}</kbd>
                        </button>
                      );
                    })}
                  </div>
                </li>
              );
            })}
          </ol>
        ) : (
          <p className="text-sm text-slate-600" data-testid="question-gated">
            Watch the videos, then press <strong>Show the question</strong>: the choices appear and the videos are hidden.
          </p>
        )}
      </TaskPanel>
    </div>
  );
}
