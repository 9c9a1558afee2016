"use client";

import { useEffect, useRef } from "react";
import { GRIDWM_ACTION_WORDS, type GridwmAction, type Verdict } from "@/lib/tasks/shared/gridwm/common";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import { useJudgeActions } from "@/components/tasks/gridwm-judge/actions";
import { frameCrop, STORYBOARD_FRAMES, type JudgeView } from "@/components/tasks/shared/gridwm/views";
import { Lightbox } from "@/components/tasks/shared/lightbox";
import { TaskPanel } from "@/components/tasks/shared/panel";
import { useTaskKeys, viaOf } from "@/components/tasks/shared/task-keys";
import type { SlotNote, TaskUiProps } from "@/components/tasks/shared/types";

/**
 * GridWM-Judge Task C (`gridwm-judge`): the preamble first (when the item has one: the framing
 * probe), the storyboard of 8 key frames (one composite image, 4 x 2; each frame opens large, cut
 * out of the composite with CSS background placement, and the whole storyboard too), the mission
 * and the action list; the verdict Success / Fail by click or keys S / F (`verdict_made`).
 * `slotNotes` (practice feedback) are indexed 0 = Success, 1 = Fail.
 */
const VERDICT_OPTIONS: Array<{ verdict: Verdict; key: string; hint: string }> = [
  { verdict: "Success", key: "S", hint: "the agent completed the mission" },
  { verdict: "Fail", key: "F", hint: "it did not" },
];

export default function GridwmJudgeTask({ view, slotNotes }: TaskUiProps) {
  const item = view as JudgeView;
  const verdict = useAnnotationStore((s) => (s.answer as { verdict?: Verdict } | null)?.verdict ?? null);
  const { judge, zoomFrame } = useJudgeActions();
  const zoom = useAnnotationStore((s) => s.zoom);
  const frame = useAnnotationStore((s) => s.frame);
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  useTaskKeys((key) => {
    const k = key.toLowerCase();
    if (k === "s") judge("Success", "keyboard");
    else if (k === "f") judge("Fail", "keyboard");
    else return false;
    return true;
  });
  const actions = item.actions ?? [];

  return (
    // below lg (phones): one column, the page scrolls; the storyboard is as wide as the screen
    <div className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-[minmax(0,1fr)_minmax(270px,320px)] xl:grid-cols-[minmax(0,1fr)_minmax(300px,380px)] xl:gap-3">
      <div className="flex min-h-0 min-w-0 flex-col gap-2">
        {item.preamble ? (
          <p
            className="shrink-0 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-[13px] leading-snug text-amber-950"
            data-testid="gridwm-preamble"
          >
            {item.preamble}
          </p>
        ) : null}
        <TaskPanel
          title={`Storyboard: ${STORYBOARD_FRAMES} key frames in order`}
          aside={
            <button
              type="button"
              onClick={() => zoom(item.storyboard, "storyboard", 0)}
              className="rounded px-1.5 py-0.5 font-medium text-brand-700 hover:bg-brand-50"
            >
              ⤢ whole storyboard
            </button>
          }
          label="Storyboard"
          className="min-h-0 flex-1"
          bodyClassName="lg:[container-type:size]"
        >
          <div className="relative mx-auto aspect-[2/1] w-full lg:aspect-auto lg:h-[min(50cqw,100cqh)] lg:w-[min(100cqw,200cqh)]">
            {/* eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching */}
            <img
              src={item.storyboard}
              alt={`Storyboard of ${STORYBOARD_FRAMES} key frames`}
              draggable={false}
              className="h-full w-full rounded-md bg-black [image-rendering:pixelated]"
            />
            <div className="absolute inset-0 grid grid-cols-4 grid-rows-2">
              {Array.from({ length: STORYBOARD_FRAMES }, (_, i) => (
                <button
                  key={i}
                  type="button"
                  aria-label={`Frame ${i + 1}: open large`}
                  data-frame={i + 1}
                  onClick={(event) => zoomFrame(item.storyboard, i, viaOf(event))}
                  className="group relative outline-none hover:bg-white/10 focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-400"
                >
                  <span className="absolute left-1 top-1 rounded bg-slate-900/75 px-1.5 text-xs font-semibold text-white">{i + 1}</span>
                  <span
                    aria-hidden
                    className="absolute bottom-1 right-1 hidden rounded bg-slate-900/70 px-1 text-[11px] text-white group-hover:block group-focus-visible:block"
                  >
                    ⤢ zoom
                  </span>
                </button>
              ))}
            </div>
          </div>
        </TaskPanel>
      </div>

      <div className="flex min-h-0 flex-col gap-2">
        <TaskPanel title="Mission and actions" label="Mission and actions" className="min-h-0 flex-1" bodyClassName="flex flex-col gap-2">
          {item.mission ? (
            <p className="rounded-md bg-slate-50 px-2 py-1.5 text-sm font-medium text-slate-900" data-testid="gridwm-mission">
              {item.mission}
            </p>
          ) : null}
          {actions.length > 0 ? (
            <ol className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-0.5 text-xs text-slate-700" aria-label={`${actions.length} actions in order`}>
              {actions.map((action, i) => (
                <li key={i} className="contents">
                  <span className="text-right font-mono tabular-nums text-slate-400">{i + 1}.</span>
                  <span>
                    <span className="font-mono text-slate-900">{action}</span>
                    <span className="text-slate-500"> · {GRIDWM_ACTION_WORDS[action as GridwmAction] ?? ""}</span>
                  </span>
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-xs text-slate-500">No action list for this item.</p>
          )}
        </TaskPanel>
        <section aria-label="Verdict" className="shrink-0 rounded-lg border border-slate-200 bg-white p-2 shadow-sm">
          <h2 className="mb-1.5 text-sm font-semibold text-slate-800">
            Did the agent succeed? <span className="font-normal text-slate-500 pointer-coarse:hidden">(click, or press S / F)</span>
          </h2>
          <div role="radiogroup" aria-label="Verdict" className="grid grid-cols-2 gap-2">
            {VERDICT_OPTIONS.map((option, index) => {
              const selected = verdict === option.verdict;
              const note: SlotNote | null = slotNotes?.[index] ?? null;
              const good = option.verdict === "Success";
              return (
                <button
                  key={option.verdict}
                  type="button"
                  role="radio"
                  aria-checked={selected}
                  aria-label={`${option.verdict} (key ${option.key})`}
                  data-verdict={option.verdict}
                  data-selected={selected ? "true" : "false"}
                  disabled={locked && !selected}
                  onClick={(event) => judge(option.verdict, viaOf(event))}
                  className={`flex min-h-12 flex-col items-center rounded-md border-2 px-2 py-1.5 outline-none transition focus-visible:ring-2 focus-visible:ring-brand-500 ${
                    selected
                      ? good
                        ? "border-emerald-600 bg-emerald-600 text-white"
                        : "border-red-600 bg-red-600 text-white"
                      : "border-slate-300 bg-white text-slate-800 hover:border-brand-400"
                  }`}
                >
                  <span className="text-base font-bold">
                    {option.verdict}{" "}
                    <kbd className={`ml-1 rounded border px-1 font-mono text-xs ${selected ? "border-white/50" : "border-slate-300 bg-slate-50"}`}>
                      {option.key}
                    </kbd>
                  </span>
                  <span className={`text-[11px] ${selected ? "text-white/85" : "text-slate-500"}`}>{option.hint}</span>
                  {note ? (
                    <span
                      className={`mt-1 rounded px-1.5 text-[11px] font-semibold ${note.tone === "good" ? "bg-emerald-100 text-emerald-800" : "bg-red-100 text-red-800"}`}
                    >
                      {note.text}
                    </span>
                  ) : null}
                </button>
              );
            })}
          </div>
        </section>
      </div>

      {frame === null ? <Lightbox describe={() => "The whole storyboard"} /> : <FrameLightbox storyboard={item.storyboard} frame={frame} />}
    </div>
  );
}

/** One frame large, cut out of the storyboard; ← / → (or the buttons) go to the previous / next frame. */
function FrameLightbox({ storyboard, frame }: { storyboard: string; frame: number }) {
  const zoomed = useAnnotationStore((s) => s.zoomed);
  const closeZoom = useAnnotationStore((s) => s.closeZoom);
  const { zoomFrame } = useJudgeActions();
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (zoomed !== storyboard) return;
    const previous = document.activeElement as HTMLElement | null;
    closeButton.current?.focus();
    return () => previous?.focus?.();
  }, [zoomed, storyboard]);
  useEffect(() => {
    if (zoomed !== storyboard) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") closeZoom("escape");
      else if (event.key === "ArrowLeft" && frame > 0) zoomFrame(storyboard, frame - 1, "keyboard");
      else if (event.key === "ArrowRight" && frame < STORYBOARD_FRAMES - 1) zoomFrame(storyboard, frame + 1, "keyboard");
      else return;
      event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [zoomed, storyboard, frame, closeZoom, zoomFrame]);
  if (zoomed !== storyboard) return null;
  const label = `Frame ${frame + 1} of ${STORYBOARD_FRAMES}`;
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={label}
      className="fixed inset-0 z-50 flex items-center justify-center bg-slate-950/80 p-4"
      onClick={() => closeZoom("backdrop")}
    >
      <figure className="flex flex-col items-center" onClick={(event) => event.stopPropagation()}>
        <div
          role="img"
          aria-label={label}
          data-testid="frame-large"
          data-frame={frame + 1}
          className="rounded-md bg-black shadow-2xl [image-rendering:pixelated]"
          style={{
            width: "min(calc(100dvh - 7rem), calc(100vw - 2rem))",
            aspectRatio: "1 / 1",
            backgroundImage: `url("${storyboard}")`,
            backgroundRepeat: "no-repeat",
            ...frameCrop(frame),
          }}
        />
        <figcaption className="mt-2 flex items-center gap-2 text-sm text-white">
          <button
            type="button"
            disabled={frame === 0}
            onClick={(event) => zoomFrame(storyboard, frame - 1, viaOf(event))}
            className="rounded-md bg-white/15 px-2 py-1 hover:bg-white/25 disabled:opacity-40"
          >
            ← Previous
          </button>
          <span className="min-w-24 text-center tabular-nums">{label}</span>
          <button
            type="button"
            disabled={frame >= STORYBOARD_FRAMES - 1}
            onClick={(event) => zoomFrame(storyboard, frame + 1, viaOf(event))}
            className="rounded-md bg-white/15 px-2 py-1 hover:bg-white/25 disabled:opacity-40"
          >
            Next →
          </button>
          <button
            ref={closeButton}
            type="button"
            onClick={() => closeZoom("button")}
            className="ml-2 rounded-md bg-white/15 px-3 py-1 font-medium hover:bg-white/25"
          >
            Close <kbd className="ml-1 rounded bg-white/20 px-1 text-xs">Esc</kbd>
          </button>
        </figcaption>
      </figure>
    </div>
  );
}
