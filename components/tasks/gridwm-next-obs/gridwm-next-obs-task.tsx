"use client";

import type { Letter } from "@/lib/tasks/shared/gridwm/common";
import { useChoose } from "@/components/tasks/gridwm-next-obs/actions";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import { CHOICE_LETTERS, letterOfKey, type NextObsView } from "@/components/tasks/shared/gridwm/views";
import { Lightbox } from "@/components/tasks/shared/lightbox";
import { TaskPanel, ZoomableImage } from "@/components/tasks/shared/panel";
import { useTaskKeys, viaOf } from "@/components/tasks/shared/task-keys";
import type { SlotNote, TaskUiProps } from "@/components/tasks/shared/types";

/**
 * GridWM-Judge Task A (`gridwm-next-obs`): the observation o_t, the action a_t in words, and four
 * candidate next observations in a 2x2 grid (A B / C D), or the release's composite image with
 * the letters drawn in. Choose by click or keys 1-4 / A-D; each choice is a `choice_made` event.
 * `slotNotes` (practice feedback) are indexed by letter (0 = A).
 */
export default function GridwmNextObsTask({ view, slotNotes }: TaskUiProps) {
  const item = view as NextObsView;
  const choice = useAnnotationStore((s) => (s.answer as { choice?: Letter } | null)?.choice ?? null);
  const choose = useChoose();
  const zoom = useAnnotationStore((s) => s.zoom);
  useTaskKeys((key) => {
    const letter = letterOfKey(key);
    if (!letter) return false;
    choose(letter, "keyboard");
    return true;
  });

  const describe = (image: string) => {
    if (image === item.observation) return "Observation now (o_t)";
    if (image === item.image) return "The item (observation and candidates A–D)";
    const index = item.candidates?.indexOf(image) ?? -1;
    return index >= 0 ? `Candidate ${CHOICE_LETTERS[index]}` : "Image";
  };

  const actionPanel = (
    <div className="rounded-md border border-brand-200 bg-brand-50 px-3 py-2" data-testid="gridwm-action">
      <p className="text-[11px] font-semibold uppercase tracking-wide text-brand-700">Action</p>
      <p className="text-[15px] font-semibold leading-snug text-slate-900">{item.actionText}</p>
      <p className="mt-0.5 font-mono text-[11px] text-slate-500">{item.action}</p>
    </div>
  );

  return (
    // below lg (phones): one column, the page scrolls; the candidates are as wide as the screen
    <div className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-[minmax(250px,320px)_minmax(0,1fr)] xl:grid-cols-[minmax(280px,380px)_minmax(0,1fr)] xl:gap-3">
      <TaskPanel title={item.image ? "The transition" : "Now (o_t) and the action"} label="Observation and action" bodyClassName="flex flex-col gap-2">
        {item.observation ? (
          <ZoomableImage
            src={item.observation}
            alt="Observation now (o_t)"
            onZoom={() => zoom(item.observation!, "observation", 0)}
            className="mx-auto aspect-square w-full max-w-[60vw] shrink-0 [image-rendering:pixelated] lg:max-w-none"
          />
        ) : null}
        {actionPanel}
        {item.mission ? (
          <p className="text-xs leading-snug text-slate-600">
            <span className="font-semibold text-slate-700">Mission: </span>
            {item.mission}
          </p>
        ) : null}
        <p className="text-xs leading-snug text-slate-500">
          The agent is the red triangle; it sees the 7x7 cells in front of it. Which image shows what it sees right after the action?
        </p>
      </TaskPanel>

      <TaskPanel
        title="Which is the next observation?"
        aside={
          <span className="pointer-coarse:hidden">
            click, or press <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono">1</kbd>–
            <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono">4</kbd> or{" "}
            <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono">A</kbd>–
            <kbd className="rounded border border-slate-300 bg-slate-50 px-1 font-mono">D</kbd>
          </span>
        }
        label="Candidates"
        bodyClassName="flex flex-col gap-2 lg:[container-type:size]"
      >
        {item.image ? (
          <CompositeChoice item={item} choice={choice} notes={slotNotes} />
        ) : (
          // the square of candidates: as large as the panel allows (lg up), the screen's width below
          <div
            role="radiogroup"
            aria-label="Candidate next observations"
            className="mx-auto grid aspect-square w-full shrink-0 grid-cols-2 grid-rows-2 gap-2 lg:aspect-auto lg:h-[min(100cqw,100cqh)] lg:w-[min(100cqw,100cqh)]"
          >
            {CHOICE_LETTERS.map((letter, index) => (
              <CandidateChoice
                key={letter}
                letter={letter}
                index={index}
                src={item.candidates?.[index] ?? ""}
                selected={choice === letter}
                note={slotNotes?.[index] ?? null}
              />
            ))}
          </div>
        )}
      </TaskPanel>
      <Lightbox describe={describe} />
    </div>
  );
}

function noteClass(note: SlotNote): string {
  return note.tone === "good" ? "bg-emerald-600 text-white" : note.tone === "bad" ? "bg-red-600 text-white" : "bg-slate-700 text-white";
}

function CandidateChoice({ letter, index, src, selected, note }: { letter: Letter; index: number; src: string; selected: boolean; note: SlotNote | null }) {
  const choose = useChoose();
  const zoom = useAnnotationStore((s) => s.zoom);
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  return (
    <div className="relative min-h-0 min-w-0">
      <button
        type="button"
        role="radio"
        aria-checked={selected}
        aria-label={`Candidate ${letter} (key ${index + 1} or ${letter})`}
        data-choice={letter}
        data-selected={selected ? "true" : "false"}
        disabled={locked && !selected}
        onClick={(event) => choose(letter, viaOf(event))}
        className={`group relative block h-full w-full overflow-hidden rounded-lg border-2 bg-slate-100 outline-none transition focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-1 ${
          selected ? "border-brand-600 ring-2 ring-brand-300" : "border-slate-200 hover:border-brand-400"
        } disabled:cursor-default`}
      >
        {/* eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching */}
        <img src={src} alt={`Candidate ${letter}`} draggable={false} className="h-full w-full object-contain [image-rendering:pixelated]" />
        <span
          aria-hidden
          className={`absolute left-1.5 top-1.5 grid h-7 min-w-7 place-items-center rounded-md px-1 text-sm font-bold shadow ${selected ? "bg-brand-600 text-white" : "bg-white/95 text-slate-800"}`}
        >
          {letter}
        </span>
        <span aria-hidden className="absolute bottom-1.5 left-1.5 rounded bg-slate-900/60 px-1 font-mono text-[10px] text-white">
          {index + 1} · {letter}
        </span>
        {note ? (
          <span className={`absolute inset-x-1.5 top-10 rounded px-1.5 py-0.5 text-center text-xs font-semibold shadow ${noteClass(note)}`}>{note.text}</span>
        ) : null}
      </button>
      <button
        type="button"
        aria-label={`Candidate ${letter}: open large`}
        title="Open large"
        onClick={() => zoom(src, "candidate", index)}
        className="absolute bottom-1.5 right-1.5 grid h-8 w-8 place-items-center rounded bg-slate-900/70 text-xs text-white hover:bg-slate-900 lg:h-6 lg:w-6"
      >
        ⤢
      </button>
    </div>
  );
}

/** The release's composite image (letters drawn in) with four letter buttons under it. */
function CompositeChoice({ item, choice, notes }: { item: NextObsView; choice: Letter | null; notes?: Array<SlotNote | null> }) {
  const choose = useChoose();
  const zoom = useAnnotationStore((s) => s.zoom);
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  return (
    <>
      <ZoomableImage
        src={item.image!}
        alt="Observation and candidates A–D"
        onZoom={() => zoom(item.image!, "composite", 0)}
        className="min-h-0 max-lg:aspect-[4/3] lg:flex-1"
      />
      <div role="radiogroup" aria-label="Candidate next observations" className="grid shrink-0 grid-cols-4 gap-2">
        {CHOICE_LETTERS.map((letter, index) => {
          const selected = choice === letter;
          const note = notes?.[index] ?? null;
          return (
            <button
              key={letter}
              type="button"
              role="radio"
              aria-checked={selected}
              aria-label={`Candidate ${letter} (key ${index + 1} or ${letter})`}
              data-choice={letter}
              data-selected={selected ? "true" : "false"}
              disabled={locked && !selected}
              onClick={(event) => choose(letter, viaOf(event))}
              className={`flex h-11 items-center justify-center gap-2 rounded-md border-2 text-lg font-bold ${selected ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 bg-white text-slate-800 hover:border-brand-400"}`}
            >
              {letter}
              <span className={`font-mono text-[10px] font-normal ${selected ? "text-white/80" : "text-slate-500"}`}>key {index + 1}</span>
              {note ? <span className={`rounded px-1 text-[10px] ${noteClass(note)}`}>{note.text}</span> : null}
            </button>
          );
        })}
      </div>
    </>
  );
}
