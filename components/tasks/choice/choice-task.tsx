"use client";

import { useEffect, useMemo, useRef } from "react";
import type { Media } from "@/lib/tasks/shared/media/schema";
import type { PlaybackMode } from "@/lib/tasks/shared/media/events";
import { positionOfKey, shownOrder } from "@/lib/tasks/choice/order";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import { Lightbox } from "@/components/tasks/shared/lightbox";
import { TaskPanel } from "@/components/tasks/shared/panel";
import { useTaskKeys } from "@/components/tasks/shared/task-keys";
import { Stimulus, usePlaybackGate } from "@/components/tasks/shared/media/stimulus";
import type { SlotNote, TaskUiProps } from "@/components/tasks/shared/types";

export interface ChoiceView {
  question: string;
  options: Array<{ id: string; text?: string; image?: string }>;
  media?: Media;
  shuffle: boolean;
  playback?: PlaybackMode;
}

type Via = "click" | "keyboard" | "touch";

/**
 * `choice`: the stimulus, the question and 2-9 options in the order this person sees them
 * (lib/tasks/choice/order.ts: shuffled per assignment where the item allows it, logged once shown
 * as choice_options_shown). Choose by click, tap, or keys 1-9 / A-I (the place shown); each choice
 * is a choice_option_chosen event with the option's id. Practice feedback notes are placed where
 * the shared feedback puts them (by letter), so only for items whose option ids are letters.
 */
export default function ChoiceTask({ view, slotNotes }: TaskUiProps) {
  const item = view as ChoiceView;
  const assignmentId = useAnnotationStore((s) => s.assignmentId);
  const shown = useAnnotationStore((s) => s.shown);
  const dispatch = useAnnotationStore((s) => s.dispatch);
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  const chosen = useAnnotationStore((s) => (s.answer as { choice?: string } | null)?.choice ?? null);
  const gate = usePlaybackGate(item.playback ?? "free");
  const order = useMemo(() => shownOrder(item.options, item.shuffle, assignmentId), [item.options, item.shuffle, assignmentId]);
  const logged = useRef(false);
  useEffect(() => {
    if (!shown || logged.current) return;
    logged.current = true;
    dispatch({ type: "choice_options_shown", payload: { order: order.map((option) => option.id), shuffled: item.shuffle } });
  }, [shown, dispatch, order, item.shuffle]);

  const choose = (position: number, via: Via) => {
    const option = order[position];
    if (!option || locked || option.id === chosen || !gate.questionShown) return;
    dispatch({ type: "choice_option_chosen", payload: { option: option.id, position, previous: chosen, via } });
  };
  useTaskKeys((key) => {
    const position = positionOfKey(key, order.length);
    if (position === null) return false;
    choose(position, "keyboard");
    return true;
  });

  const lettersAreIds = item.options.every((option) => /^[A-I]$/u.test(option.id));
  const noteOf = (id: string): SlotNote | null => (lettersAreIds ? (slotNotes?.[id.charCodeAt(0) - 65] ?? null) : null);
  const hasStimulus = Boolean(item.media && (item.media.text || item.media.video || item.media.images?.length || item.media.frames?.length));

  return (
    <div
      className={`flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 ${hasStimulus ? "lg:grid-cols-[minmax(0,1.2fr)_minmax(320px,1fr)]" : "lg:grid-cols-1"} xl:gap-3`}
    >
      {hasStimulus ? (
        <TaskPanel title="Look" label="Stimulus">
          <Stimulus media={item.media} mode={gate.mode} gate={gate} lightbox={false} />
        </TaskPanel>
      ) : null}
      <TaskPanel
        title="Choose one"
        label="Question and options"
        aside={
          <span className="pointer-coarse:hidden">
            click, or press <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono">1</kbd>–
            <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono">{order.length}</kbd> or{" "}
            <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono">A</kbd>–
            <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono">{String.fromCharCode(64 + order.length)}</kbd>
          </span>
        }
        bodyClassName="flex flex-col gap-2"
      >
        {gate.questionShown ? (
          <>
            <p className="whitespace-pre-wrap text-[15px] font-semibold leading-snug text-slate-900" data-testid="choice-question">
              {item.question}
            </p>
            <div role="radiogroup" aria-label="Options" className="flex flex-col gap-1.5">
              {order.map((option, position) => (
                <OptionButton
                  key={option.id}
                  option={option}
                  position={position}
                  selected={chosen === option.id}
                  locked={locked}
                  note={noteOf(option.id)}
                  onChoose={choose}
                />
              ))}
            </div>
          </>
        ) : (
          <p className="text-sm text-slate-600" data-testid="question-hidden">
            Watch the video, then show the question (the video is hidden then).
          </p>
        )}
      </TaskPanel>
      <Lightbox
        describe={(image) =>
          order.findIndex((o) => o.image === image) >= 0 ? `Option ${String.fromCharCode(65 + order.findIndex((o) => o.image === image))}` : "Stimulus image"
        }
      />
    </div>
  );
}

function noteClass(note: SlotNote): string {
  return note.tone === "good" ? "bg-emerald-600 text-white" : note.tone === "bad" ? "bg-red-600 text-white" : "bg-slate-700 text-white";
}

function OptionButton({
  option,
  position,
  selected,
  locked,
  note,
  onChoose,
}: {
  option: ChoiceView["options"][number];
  position: number;
  selected: boolean;
  locked: boolean;
  note: SlotNote | null;
  onChoose: (position: number, via: Via) => void;
}) {
  const zoom = useAnnotationStore((s) => s.zoom);
  const pointer = useRef<string | null>(null);
  const letter = String.fromCharCode(65 + position);
  return (
    <div className="relative">
      <button
        type="button"
        role="radio"
        aria-checked={selected}
        aria-label={`Option ${letter}: ${option.text ?? "picture"} (key ${position + 1} or ${letter})`}
        data-option={option.id}
        data-position={position}
        data-selected={selected ? "true" : "false"}
        disabled={locked && !selected}
        onPointerDown={(event) => (pointer.current = event.pointerType)}
        onClick={(event) => {
          const via: Via = event.detail === 0 ? "keyboard" : pointer.current === "touch" ? "touch" : "click";
          pointer.current = null;
          onChoose(position, via);
        }}
        className={`flex min-h-11 w-full items-center gap-3 rounded-md border-2 px-2 py-1.5 text-left outline-none transition focus-visible:ring-2 focus-visible:ring-brand-500 ${
          selected ? "border-brand-600 bg-brand-50 ring-2 ring-brand-300" : "border-slate-200 bg-white hover:border-brand-400"
        } disabled:cursor-default disabled:opacity-60`}
      >
        <span
          aria-hidden
          className={`grid h-8 min-w-8 shrink-0 place-items-center rounded-md text-sm font-bold ${selected ? "bg-brand-600 text-white" : "bg-slate-100 text-slate-800"}`}
        >
          {letter}
        </span>
        {option.image ? (
          // eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching
          <img
            src={option.image}
            alt={`Option ${letter}`}
            draggable={false}
            className="h-20 w-28 shrink-0 rounded border border-slate-200 bg-slate-50 object-contain"
          />
        ) : null}
        {option.text ? <span className="min-w-0 flex-1 text-sm leading-snug text-slate-900">{option.text}</span> : <span className="flex-1" />}
        <span aria-hidden className="shrink-0 font-mono text-[10px] text-slate-400 pointer-coarse:hidden">
          {position + 1}
        </span>
        {note ? <span className={`shrink-0 rounded px-1.5 py-0.5 text-xs font-semibold ${noteClass(note)}`}>{note.text}</span> : null}
      </button>
      {option.image ? (
        <button
          type="button"
          aria-label={`Option ${letter}: open large`}
          title="Open large"
          onClick={() => zoom(option.image!, "candidate", position)}
          className="absolute bottom-2 left-[6.6rem] grid h-7 w-7 place-items-center rounded bg-slate-900/70 text-xs text-white hover:bg-slate-900"
        >
          ⤢
        </button>
      ) : null}
    </div>
  );
}
