"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { replayItemEvents } from "@/lib/tasks/item-state";
import { activeGapMs, AWAY_EVENT_TYPES, idleCapMs, VIEW_START_EVENT_TYPES } from "@/lib/timing/active-time";
import { AnnotationStoreProvider, useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";
import { getTaskUi, storeInitOf, TaskView } from "@/components/tasks/registry";
import type { SlotNote } from "@/components/tasks/shared/types";
import { describeEvent, formatClock, formatDuration } from "@/components/replay/describe-event";
import { buttonClass } from "@/components/ui/button";

/**
 * A researcher's replay of one annotator's trajectory on one item: the same task component, in a
 * read-only store whose state is the replay of events 0..position-1 (the same reducer that the
 * annotator's store used), stepped by hand or played in real or accelerated time.
 */

export interface ReplayEvent {
  seq: number;
  type: string;
  payload: unknown;
  clientTime: number;
}

export interface ReplayResponse {
  /** the stored answer */
  answer?: unknown;
  confidenceRaw: number;
  correct: boolean | null;
  score: unknown;
  wallMs: number;
  activeMs: number;
}

type Speed = "1" | "4" | "16" | "steps";
const speeds: Array<{ value: Speed; label: string }> = [
  { value: "1", label: "Real time" },
  { value: "4", label: "4×" },
  { value: "16", label: "16×" },
  { value: "steps", label: "One event per 0.7 s" },
];
/** longest wait between two events while playing (a coffee break is not worth watching) */
const MAX_PLAY_GAP_MS = 10_000;

export function ReplayPlayer(props: {
  kind: string;
  view: unknown;
  confidenceScale: "LIKERT_5" | "PERCENT";
  idleCapSeconds: number;
  events: ReplayEvent[];
  response: ReplayResponse | null;
  /** the key as an answer of the kind (its module's keyAnswer), null when the kind gives none */
  keyAnswer: unknown;
}) {
  const ui = getTaskUi(props.kind);
  if (!ui) return <p className="text-sm text-red-700">No interface is registered for the kind “{props.kind}”.</p>;
  return (
    <AnnotationStoreProvider
      init={{
        assignmentId: "replay",
        kind: props.kind,
        ...storeInitOf(ui, props.view),
        confidenceScale: props.confidenceScale,
        idleCapMs: idleCapMs(props.idleCapSeconds),
        readOnly: true,
      }}
    >
      <Player {...props} />
    </AnnotationStoreProvider>
  );
}

function Player({ kind, view, confidenceScale, idleCapSeconds, events, response, keyAnswer }: Parameters<typeof ReplayPlayer>[0]) {
  const ui = getTaskUi(kind)!;
  const api = useAnnotationStoreApi();
  const [position, setPosition] = useState(events.length > 0 ? 1 : 0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<Speed>("4");
  const timeline = useRef<HTMLOListElement>(null);
  const capMs = idleCapMs(idleCapSeconds);
  const start = events[0]?.clientTime ?? 0;
  const name = (candidate: number) => ui.candidateName(view, candidate);

  const [initialAnswer] = useState(() => ui.initialAnswer(view) ?? null);
  const state = useMemo(() => replayItemEvents(events.slice(0, position), initialAnswer), [events, position, initialAnswer]);
  useEffect(() => {
    // the annotator's lightbox is not re-opened over the player; the panel says what was large
    api.getState().showState({ ...state, zoomed: null, frame: null });
  }, [api, state]);

  useEffect(() => {
    if (!playing || position >= events.length) return;
    const gap = position === 0 ? 0 : events[position].clientTime - events[position - 1].clientTime;
    const delay = speed === "steps" ? 700 : Math.min(MAX_PLAY_GAP_MS, Math.max(0, gap) / Number(speed));
    const timer = window.setTimeout(() => setPosition((p) => Math.min(events.length, p + 1)), delay);
    return () => window.clearTimeout(timer);
  }, [playing, position, events, speed]);

  useEffect(() => {
    // scroll the timeline list only (scrollIntoView would scroll the whole page too)
    const list = timeline.current;
    const row = list?.querySelector<HTMLElement>(`[data-index="${position - 1}"]`);
    if (!list || !row) return;
    if (row.offsetTop < list.scrollTop) list.scrollTop = row.offsetTop;
    else if (row.offsetTop + row.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = row.offsetTop + row.offsetHeight - list.clientHeight;
  }, [position]);

  const rows = useMemo(() => {
    const result: Array<{ event: ReplayEvent; gap: number; counted: number; away: boolean; active: number }> = [];
    for (let i = 0; i < events.length; i++) {
      const previous = i > 0 ? events[i - 1] : null;
      const counted = previous ? activeGapMs(previous, events[i], capMs) : 0;
      result.push({
        event: events[i],
        gap: previous ? events[i].clientTime - previous.clientTime : 0,
        counted,
        away: previous ? AWAY_EVENT_TYPES.has(previous.type) || VIEW_START_EVENT_TYPES.has(events[i].type) : false,
        active: (result[i - 1]?.active ?? 0) + counted,
      });
    }
    return result;
  }, [events, capMs]);
  const atEnd = position >= events.length;
  const isPlaying = playing && !atEnd;

  const current = position > 0 ? events[position - 1] : null;
  // at the last event the kind may mark the answer against the key in the task (ENACT: each step)
  const notes: Array<SlotNote | null> | undefined =
    position === events.length && response && keyAnswer !== null && ui.keyNotes ? ui.keyNotes(response.answer, keyAnswer) : undefined;

  return (
    <div className="grid gap-4 2xl:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="flex min-w-0 flex-col gap-2">
        <div
          className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 shadow-sm"
          role="toolbar"
          aria-label="Replay controls"
        >
          <button type="button" className={buttonClass("secondary", "sm")} onClick={() => setPosition(0)} disabled={position === 0}>
            « Start
          </button>
          <button type="button" className={buttonClass("secondary", "sm")} onClick={() => setPosition((p) => Math.max(0, p - 1))} disabled={position === 0}>
            ◀ Previous
          </button>
          <button
            type="button"
            className={buttonClass("primary", "sm", "min-w-20")}
            onClick={() => {
              if (atEnd) setPosition(0);
              setPlaying(!isPlaying);
            }}
            disabled={events.length === 0}
          >
            {isPlaying ? "❚❚ Pause" : "▶ Play"}
          </button>
          <button
            type="button"
            className={buttonClass("secondary", "sm")}
            onClick={() => setPosition((p) => Math.min(events.length, p + 1))}
            disabled={position >= events.length}
          >
            Next ▶
          </button>
          <button type="button" className={buttonClass("secondary", "sm")} onClick={() => setPosition(events.length)} disabled={position >= events.length}>
            End »
          </button>
          <label className="ml-2 flex items-center gap-1 text-xs text-slate-600">
            Speed
            <select value={speed} onChange={(e) => setSpeed(e.target.value as Speed)} className="h-8 rounded-md border border-slate-300 bg-white px-1 text-xs">
              {speeds.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <span className="ml-auto text-xs tabular-nums text-slate-600" data-testid="replay-position">
            Event {position} of {events.length}
            {current ? ` · ${formatClock(current.clientTime - start)}` : ""}
          </span>
        </div>
        <div className="rounded-md bg-slate-100 px-3 py-1.5 text-sm text-slate-700" aria-live="polite" data-testid="replay-current">
          {current ? (
            <>
              <span className="font-mono text-xs text-slate-500">#{current.seq}</span> {describeEvent(current, name, confidenceScale === "PERCENT")}
            </>
          ) : (
            "Before the item was shown"
          )}
          {state.zoomed ? <span className="ml-2 rounded bg-violet-100 px-1.5 text-xs text-violet-800">viewing an image large</span> : null}
          {state.hidden ? <span className="ml-2 rounded bg-amber-100 px-1.5 text-xs text-amber-800">page hidden</span> : null}
          {state.idle ? <span className="ml-2 rounded bg-amber-100 px-1.5 text-xs text-amber-800">idle overlay</span> : null}
          <span className="ml-2 text-xs text-slate-500">
            confidence: {state.confidence === null ? "not set" : `${state.confidence}${confidenceScale === "PERCENT" ? "%" : " of 5"}`}
          </span>
        </div>
        <div className="h-[540px] min-h-0">
          <TaskView ui={ui} view={view} slotNotes={notes} />
        </div>
      </div>

      <aside className="grid min-w-0 content-start gap-4 lg:grid-cols-[20rem_minmax(0,1fr)] 2xl:grid-cols-1">
        <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
          <h2 className="border-b border-slate-100 px-3 py-2 text-sm font-semibold">Final answer</h2>
          {response ? (
            <div className="space-y-2 px-3 py-2 text-sm">
              <div className="flex items-center gap-2">
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold ${response.correct === null ? "bg-slate-100 text-slate-700" : response.correct ? "bg-emerald-50 text-emerald-700" : "bg-red-50 text-red-700"}`}
                >
                  {response.correct === null ? "not scored" : response.correct ? "correct" : "incorrect"}
                </span>
                <span className="text-slate-600">
                  confidence {response.confidenceRaw}
                  {confidenceScale === "PERCENT" ? "%" : " of 5"}
                </span>
              </div>
              {ui.ReplayAnswer ? (
                <ui.ReplayAnswer answer={response.answer} keyAnswer={keyAnswer} />
              ) : (
                <div className="flex items-start gap-2">
                  <span className="w-14 shrink-0 text-xs text-slate-500">Answer</span>
                  <code className="min-w-0 break-all rounded bg-slate-100 px-1.5 py-0.5 text-xs" data-testid="replay-answer">
                    {ui.describeAnswer ? ui.describeAnswer(response.answer) : JSON.stringify(response.answer)}
                  </code>
                </div>
              )}
              <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
                <dt className="text-slate-500">Wall time</dt>
                <dd className="tabular-nums">{formatDuration(response.wallMs)}</dd>
                <dt className="text-slate-500">Active time</dt>
                <dd className="tabular-nums">{formatDuration(response.activeMs)}</dd>
              </dl>
              <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-[11px] leading-snug text-slate-700" data-testid="replay-score">
                {JSON.stringify(response.score, null, 1)}
              </pre>
            </div>
          ) : (
            <p className="px-3 py-2 text-sm text-slate-500">Not submitted (yet).</p>
          )}
        </section>
        <section className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white shadow-sm">
          <h2 className="border-b border-slate-100 px-3 py-2 text-sm font-semibold">
            Timeline{" "}
            <span className="font-normal text-slate-500">
              ({events.length} events; gaps over {Math.round(capMs / 1000)} s count as {Math.round(capMs / 1000)} s)
            </span>
          </h2>
          <ol ref={timeline} className="relative max-h-[460px] overflow-y-auto text-xs" aria-label="Events">
            {rows.map(({ event, gap, counted, away, active }, i) => (
              <li key={event.seq} data-index={i}>
                <button
                  type="button"
                  onClick={() => {
                    setPlaying(false);
                    setPosition(i + 1);
                  }}
                  aria-current={i === position - 1 ? "step" : undefined}
                  className={`grid w-full grid-cols-[3.2rem_minmax(0,1fr)_3.6rem] gap-2 border-b border-slate-50 px-3 py-1 text-left hover:bg-slate-50 ${i === position - 1 ? "bg-brand-50" : i >= position ? "text-slate-400" : ""}`}
                >
                  <span className="font-mono tabular-nums">{formatClock(event.clientTime - start)}</span>
                  <span className="min-w-0">
                    {describeEvent(event, name, confidenceScale === "PERCENT")}
                    <span className="block text-[10px] text-slate-400">active so far {formatDuration(active)}</span>
                  </span>
                  <span
                    className={`text-right tabular-nums ${away ? "text-amber-700" : counted < gap ? "text-amber-700" : "text-slate-500"}`}
                    title={away ? "away: not counted" : counted < gap ? `capped at ${formatDuration(counted)}` : "gap since the previous event"}
                  >
                    {i === 0 ? "" : `+${formatDuration(Math.max(0, gap))}`}
                    {away ? " away" : counted < gap ? " cap" : ""}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        </section>
      </aside>
    </div>
  );
}
