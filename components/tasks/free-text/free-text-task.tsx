"use client";

import { useEffect, useState } from "react";
import type { FreeTextView } from "@/lib/tasks/free-text";
import { isFreeTextDraft } from "@/lib/tasks/free-text/events";
import { useAnnotationStore, useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";
import { Lightbox } from "@/components/tasks/shared/lightbox";
import { TaskPanel } from "@/components/tasks/shared/panel";
import type { TaskUiProps } from "@/components/tasks/shared/types";
import { Stimulus, usePlaybackGate } from "@/components/tasks/shared/media/stimulus";

/**
 * `free-text`: the stimulus (the shared player: text, images, a video or frames, its events
 * recorded, the study's playback rule applied), the question, and a text box
 * (view.maxChars, at most 2,000 characters). What is typed is recorded as `free_text_edited` once
 * typing pauses and when the box loses focus; Esc leaves the box (Tab goes on to the confidence).
 * After a practice item `slotNotes[0]` holds the reference answer.
 */
const TEXT_AFTER_MS = 500;

export default function FreeTextTask({ view, slotNotes }: TaskUiProps) {
  const item = view as FreeTextView;
  const gate = usePlaybackGate(item.playback ?? "free");
  const stored = useAnnotationStore((s) => (isFreeTextDraft(s.answer) ? s.answer.text : ""));
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  const api = useAnnotationStoreApi();
  const [text, setText] = useState(stored);
  const [via, setVia] = useState<"keyboard" | "touch">("keyboard");
  const shown = locked ? stored : text;
  const words = shown.trim() === "" ? 0 : shown.trim().split(/\s+/).length;

  const record = (value: string) => {
    const state = api.getState();
    if (state.readOnly || state.submitted) return;
    if (isFreeTextDraft(state.answer) && state.answer.text === value) return;
    state.dispatch({ type: "free_text_edited", payload: { value, via } });
  };

  useEffect(() => {
    if (locked || text === stored) return;
    const timer = setTimeout(() => record(text), TEXT_AFTER_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- record reads the store when it runs
  }, [text, stored, locked]);

  const note = slotNotes?.[0] ?? null;
  const hasMedia = Boolean(item.media && (item.media.text || item.media.video || item.media.images?.length || item.media.frames?.length));

  return (
    <div
      className={`flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 ${hasMedia ? "lg:grid-cols-[minmax(0,1.4fr)_minmax(320px,1fr)]" : "lg:grid-cols-[minmax(0,720px)] lg:justify-center"} xl:gap-3`}
      data-testid="free-text-task"
    >
      {hasMedia && item.media ? (
        <TaskPanel title="What you see" label="Stimulus" bodyClassName="flex flex-col gap-2">
          <Stimulus media={item.media} mode={gate.mode} gate={gate} lightbox={false} />
        </TaskPanel>
      ) : null}
      <TaskPanel title="Question" label="Question and answer" aside={`${shown.length} / ${item.maxChars}`} bodyClassName="flex flex-col gap-2">
        {gate.questionShown ? (
          <>
            <p className="text-base font-medium leading-snug text-slate-900" data-testid="free-text-question">
              {item.question}
            </p>
            <label htmlFor="free-text-answer" className="text-xs text-slate-600">
              Your answer, in a few words or a sentence <span className="pointer-coarse:hidden">(Esc leaves the box)</span>
            </label>
            <textarea
              id="free-text-answer"
              data-testid="free-text-answer"
              aria-label="Your answer"
              className="min-h-32 flex-1 resize-none rounded border border-slate-300 bg-white p-2 text-base leading-relaxed focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500 disabled:bg-slate-50 lg:text-sm"
              value={shown}
              maxLength={item.maxChars}
              disabled={locked}
              onPointerDown={(event) => setVia(event.pointerType === "touch" ? "touch" : "keyboard")}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Escape") {
                  event.preventDefault();
                  event.currentTarget.blur();
                }
              }}
              onBlur={() => {
                if (!locked && text !== stored) record(text);
              }}
            />
            <p className="text-xs text-slate-500">
              {words} word{words === 1 ? "" : "s"}
            </p>
            {note ? (
              <p
                className={`rounded px-2 py-1 text-sm ${note.tone === "good" ? "bg-emerald-50 text-emerald-900" : "bg-slate-50 text-slate-800"}`}
                data-testid="free-text-reference"
              >
                {note.text}
              </p>
            ) : null}
          </>
        ) : (
          <p className="text-sm text-slate-600" data-testid="question-hidden">
            Watch the video, then show the question (the video is hidden then).
          </p>
        )}
      </TaskPanel>
      <Lightbox describe={() => "Image"} />
    </div>
  );
}
