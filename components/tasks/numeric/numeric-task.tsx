"use client";

import { useEffect, useRef } from "react";
import type { Media } from "@/lib/tasks/shared/media/schema";
import type { PlaybackMode } from "@/lib/tasks/shared/media/events";
import { NUMERIC_TEXT_MAX } from "@/lib/tasks/numeric/events";
import { readNumberInput } from "@/lib/tasks/numeric/input";
import { useAnnotationStore } from "@/components/annotate/annotation-store-provider";
import { Lightbox } from "@/components/tasks/shared/lightbox";
import { TaskPanel } from "@/components/tasks/shared/panel";
import { Stimulus, usePlaybackGate } from "@/components/tasks/shared/media/stimulus";
import type { TaskUiProps } from "@/components/tasks/shared/types";

export interface NumericView {
  question: string;
  unit?: string;
  media?: Media;
  playback?: PlaybackMode;
}

/**
 * `numeric`: the stimulus, the question and one number box with the unit beside it. Every edit of
 * the box is a numeric_value_typed event (its text); the answer submitted is the number read from
 * it (lib/tasks/numeric/input.ts), and the box says what is wrong while it reads none. On a
 * phone the box brings up the decimal keypad.
 */
export default function NumericTask({ view }: TaskUiProps) {
  const item = view as NumericView;
  const dispatch = useAnnotationStore((s) => s.dispatch);
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  const text = useAnnotationStore((s) => (s.answer as { text?: string } | null)?.text ?? "");
  const input = useRef<HTMLInputElement>(null);
  const gate = usePlaybackGate(item.playback ?? "free");
  useEffect(() => {
    // a hardware keyboard types straight away; phones open the keypad on a tap only
    if (!locked && gate.questionShown && window.matchMedia("(pointer: fine)").matches) input.current?.focus({ preventScroll: true });
  }, [locked, gate.questionShown]);
  const read = readNumberInput(text);
  const problem = text.trim() !== "" && "problem" in read ? read.problem : null;
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
      <TaskPanel title="Give a number" label="Question and answer" bodyClassName="flex flex-col gap-3">
        {gate.questionShown ? null : (
          <p className="text-sm text-slate-600" data-testid="question-hidden">
            Watch the video, then show the question (the video is hidden then).
          </p>
        )}
        <label
          hidden={!gate.questionShown}
          htmlFor="numeric-answer"
          className="whitespace-pre-wrap text-[15px] font-semibold leading-snug text-slate-900"
          data-testid="numeric-question"
        >
          {item.question}
        </label>
        <div className="flex items-center gap-2" hidden={!gate.questionShown}>
          <input
            ref={input}
            id="numeric-answer"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            spellCheck={false}
            maxLength={NUMERIC_TEXT_MAX}
            value={text}
            readOnly={locked}
            aria-invalid={problem !== null}
            aria-describedby={problem ? "numeric-problem" : undefined}
            onChange={(event) => dispatch({ type: "numeric_value_typed", payload: { text: event.target.value.slice(0, NUMERIC_TEXT_MAX) } })}
            className={`h-12 w-44 rounded-md border-2 px-3 font-mono text-xl outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${problem ? "border-red-400" : "border-slate-300 focus:border-brand-500"}`}
          />
          {item.unit ? (
            <span className="text-base font-medium text-slate-700" data-testid="numeric-unit">
              {item.unit}
            </span>
          ) : null}
        </div>
        <p hidden={!gate.questionShown} id="numeric-problem" role="status" className={`min-h-5 text-sm ${problem ? "text-red-700" : "text-slate-500"}`}>
          {problem ?? "Digits, with a point for decimals (e.g. 2.5)."}
        </p>
      </TaskPanel>
      <Lightbox describe={() => "Stimulus image"} />
    </div>
  );
}
