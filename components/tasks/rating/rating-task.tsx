"use client";

import { useRef, useState } from "react";
import { useAnnotationStore, useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";
import { TaskPanel } from "@/components/tasks/shared/panel";
import { useTaskKeys } from "@/components/tasks/shared/task-keys";
import { Stimulus, usePlaybackGate } from "@/components/tasks/shared/media/stimulus";
import type { TaskUiProps } from "@/components/tasks/shared/types";
import type { PlaybackMode } from "@/lib/tasks/shared/media/events";
import type { RatingPublic, RatingValue, RubricEntry } from "@/lib/tasks/rating";

/**
 * Rubric rating (`rating`): the stimulus (question, video or frames in the player, images) and the
 * rubric: each Likert entry a row of value buttons with its anchors, each check Yes / No. Keys:
 * ↑ / ↓ choose the rubric row (marked), digits rate a Likert row, Y / N answer a check; a rating
 * moves on to the next unrated row. Every rating is one `rating_set` event.
 */

export type RatingView = Pick<RatingPublic, "question" | "media" | "rubric"> & { playback?: PlaybackMode };

type Via = "click" | "keyboard" | "touch";

export function ratingsOf(answer: unknown): Record<string, RatingValue> {
  const ratings = answer && typeof answer === "object" ? (answer as { ratings?: unknown }).ratings : undefined;
  return ratings && typeof ratings === "object" ? (ratings as Record<string, RatingValue>) : {};
}

export default function RatingTask({ view }: TaskUiProps) {
  const item = view as RatingView;
  const mode = item.playback ?? "free";
  const gate = usePlaybackGate(mode);
  const api = useAnnotationStoreApi();
  const ratings = ratingsOf(useAnnotationStore((s) => s.answer));
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  const [row, setRow] = useState(0);
  const pointer = useRef<string | null>(null);

  const rate = (entry: RubricEntry, value: RatingValue, via: Via) => {
    const state = api.getState();
    if (state.readOnly || state.submitted) return;
    const previous = ratingsOf(state.answer)[entry.id] ?? null;
    if (previous === value) return;
    state.dispatch({ type: "rating_set", payload: { id: entry.id, value, previous, via } });
    // on to the next row without a rating (or stay on the last)
    const next = item.rubric.findIndex((other, index) => index > item.rubric.indexOf(entry) && ratingsOf(api.getState().answer)[other.id] === undefined);
    if (next >= 0) setRow(next);
  };

  useTaskKeys((key) => {
    if (!gate.questionShown) return false;
    const entry = item.rubric[row];
    if (key === "ArrowDown") setRow(Math.min(item.rubric.length - 1, row + 1));
    else if (key === "ArrowUp") setRow(Math.max(0, row - 1));
    else if (entry?.type === "likert" && /^[0-9]$/.test(key) && Number(key) >= entry.min && Number(key) <= entry.max) rate(entry, Number(key), "keyboard");
    else if (entry?.type === "check" && (key === "y" || key === "Y")) rate(entry, "yes", "keyboard");
    else if (entry?.type === "check" && (key === "n" || key === "N")) rate(entry, "no", "keyboard");
    else return false;
    return true;
  });

  const viaOf = (event: React.MouseEvent): Via => (event.detail === 0 ? "keyboard" : pointer.current === "touch" ? "touch" : "click");
  const done = item.rubric.filter((entry) => ratings[entry.id] !== undefined).length;

  return (
    <div
      className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-[minmax(0,1fr)_minmax(320px,420px)] lg:gap-3"
      onPointerDown={(event) => (pointer.current = event.pointerType)}
    >
      <TaskPanel title={item.question ?? "Watch, then rate"} label="Stimulus" className="min-h-0">
        <Stimulus media={item.media} mode={mode} gate={gate} label="Stimulus" />
      </TaskPanel>
      <TaskPanel
        title={`Rubric (${done} of ${item.rubric.length} rated)`}
        aside={<span className="pointer-coarse:hidden">↑ ↓ row · digits · Y / N</span>}
        label="Rubric"
        className="min-h-0"
      >
        {gate.questionShown ? (
          <ol className="flex flex-col gap-2" data-testid="rubric">
            {item.rubric.map((entry, index) => {
              const value = ratings[entry.id];
              const current = index === row && !locked;
              return (
                <li
                  key={entry.id}
                  className={`rounded-md border p-2 ${current ? "border-brand-500 ring-1 ring-brand-300" : "border-slate-200"}`}
                  data-rubric={entry.id}
                  data-current={current ? "true" : "false"}
                  onFocus={() => setRow(index)}
                >
                  <div className="mb-1 flex items-baseline justify-between gap-2">
                    <span className="text-sm font-medium text-slate-900">{entry.label}</span>
                    <span className="shrink-0 rounded bg-slate-100 px-1.5 text-[11px] text-slate-600">{entry.dimension}</span>
                  </div>
                  {entry.type === "likert" ? (
                    <div
                      role="radiogroup"
                      aria-label={entry.label}
                      className="grid gap-1"
                      style={{ gridTemplateColumns: `repeat(${entry.max - entry.min + 1}, minmax(0, 1fr))` }}
                    >
                      {Array.from({ length: entry.max - entry.min + 1 }, (_, k) => entry.min + k).map((n) => {
                        const selected = value === n;
                        const anchor = entry.anchors?.[String(n)];
                        return (
                          <button
                            key={n}
                            type="button"
                            role="radio"
                            aria-checked={selected}
                            aria-label={`${n}${anchor ? `: ${anchor}` : ""}`}
                            disabled={locked && !selected}
                            onClick={(event) => rate(entry, n, viaOf(event))}
                            className={`flex min-h-11 flex-col items-center justify-start rounded-md border px-1 py-1 text-center ${selected ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 bg-white text-slate-800 hover:border-brand-400"}`}
                          >
                            <span className="text-sm font-bold">{n}</span>
                            {anchor ? <span className={`text-[10px] leading-tight ${selected ? "text-white/90" : "text-slate-500"}`}>{anchor}</span> : null}
                          </button>
                        );
                      })}
                    </div>
                  ) : (
                    <div>
                      {entry.hint ? <p className="mb-1 text-xs text-slate-500">{entry.hint}</p> : null}
                      <div role="radiogroup" aria-label={entry.label} className="grid grid-cols-2 gap-1">
                        {(["yes", "no"] as const).map((answer) => {
                          const selected = value === answer;
                          return (
                            <button
                              key={answer}
                              type="button"
                              role="radio"
                              aria-checked={selected}
                              aria-label={answer === "yes" ? "Yes (key Y)" : "No (key N)"}
                              disabled={locked && !selected}
                              onClick={(event) => rate(entry, answer, viaOf(event))}
                              className={`min-h-11 rounded-md border px-2 py-1 text-sm font-semibold ${selected ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 bg-white text-slate-800 hover:border-brand-400"}`}
                            >
                              {answer === "yes" ? "Yes" : "No"}{" "}
                              <kbd className="ml-1 rounded border border-current/30 px-1 font-mono text-[10px] pointer-coarse:hidden">
                                {answer === "yes" ? "Y" : "N"}
                              </kbd>
                            </button>
                          );
                        })}
                      </div>
                    </div>
                  )}
                </li>
              );
            })}
          </ol>
        ) : (
          <p className="text-sm text-slate-600" data-testid="question-gated">
            Watch the video, then press <strong>Show the question</strong>: the rubric appears and the video is hidden.
          </p>
        )}
      </TaskPanel>
    </div>
  );
}
