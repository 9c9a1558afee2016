"use client";

import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { usePlay } from "@/lib/client/play";
import { NOTE_CONFIDENCES, NOTE_SOURCES, type Note, type NoteField } from "@/lib/tasks/ego2world-play/notes";
import type { Ego2worldAction } from "@/lib/tasks/ego2world-play";
import type { TrajectoryPayload } from "@/lib/validations/annotate";
import { useAnnotationStore, useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";
import { TaskPanel } from "@/components/tasks/shared/panel";
import { useTaskKeys, viaOf } from "@/components/tasks/shared/task-keys";
import type { TaskUiProps } from "@/components/tasks/shared/types";
import {
  areaName,
  composeAction,
  draftOf,
  labelFromId,
  noteAreaOptions,
  notesToPrefill,
  pickerOptions,
  type EpisodeView,
  type PlayView,
} from "@/components/tasks/ego2world-play/player-view";

/**
 * Ego2World play (`ego2world-play`): the hidden kitchen runs on the server (lib/annotate/play.ts); this
 * page shows what the person observes (the current area's picture from the episode start, the
 * objects there, the hand, a summary of what changed, the feedback line) and sends one action at a
 * time: area buttons play `go_to(area)`, the palette composes `name(arg, ...)` with pickers
 * limited to what is here, in the hand, and the areas. Each acknowledged step is recorded as
 * `play_step`. The notes panel is the person's belief graph: rows pre-filled from what they saw
 * (`note_added` via "auto"), every edit a `note_edited` / `note_removed` event. "Done with this
 * task" (confirmed) moves on; the person is not told whether the goal holds unless the study says
 * so. Keyboard: 1-9 pick a palette action (focus goes to its first picker), Enter on "Do it".
 */

type Via = "click" | "keyboard" | "touch";
const selectClass =
  "h-10 min-w-0 lg:h-7 rounded border border-slate-300 bg-white px-1 text-xs focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500 disabled:bg-slate-50";
const smallButton =
  "h-10 shrink-0 lg:h-7 rounded px-2 text-xs font-medium outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:cursor-not-allowed";

export default function Ego2worldPlayTask({ view }: TaskUiProps) {
  const episode = view as EpisodeView;
  const readOnly = useAnnotationStore((s) => s.readOnly);
  return readOnly ? <ReadOnlyEpisode episode={episode} /> : <LivePlayer episode={episode} />;
}

function LivePlayer({ episode }: { episode: EpisodeView }) {
  const api = useAnnotationStoreApi();
  const assignmentId = useAnnotationStore((s) => s.assignmentId);
  const submitted = useAnnotationStore((s) => s.submitted);
  const answer = useAnnotationStore((s) => s.answer);
  const draft = draftOf(answer);
  const areas = useMemo(() => Object.keys(episode.areas), [episode.areas]);
  const onStep = useCallback(
    (ack: { seq: number; valid: boolean }, action: unknown) => {
      api.getState().dispatch({ type: "play_step", payload: { seq: ack.seq, action: action as TrajectoryPayload<"play_step">["action"], valid: ack.valid } });
    },
    [api],
  );
  const play = usePlay<PlayView>(assignmentId, { onStep });
  const current = play.view;
  const locked = submitted || play.pending || current === null || current.finished;

  // notes pre-filled from what is seen, and the end of the episode, as the server reports them
  useEffect(() => {
    if (!current) return;
    const state = api.getState();
    if (state.readOnly || state.submitted) return;
    for (const row of notesToPrefill(current, draftOf(state.answer).notes)) {
      state.dispatch({ type: "note_added", payload: { object: row.object, area: row.area, state: "", confidence: "high", source: "seen", via: "auto" } });
    }
    if (current.finished && !draftOf(api.getState().answer).finished)
      api.getState().dispatch({ type: "episode_finished", payload: { tasks: current.taskCount } });
  }, [current, api]);

  const act = useCallback((action: Ego2worldAction) => (locked ? Promise.resolve(null) : play.act(action)), [locked, play]);

  if (play.status === "loading" || !current) {
    return (
      <div role="status" className="grid h-full place-items-center rounded-lg border border-slate-200 bg-white text-sm text-slate-600">
        {play.status === "error" ? (
          <div className="text-center">
            <p className="font-medium text-red-700">The kitchen could not be loaded: {play.error}</p>
            <button type="button" onClick={play.reload} className={`${smallButton} mt-2 bg-brand-600 text-white hover:bg-brand-700`}>
              Try again
            </button>
          </div>
        ) : (
          "Loading the kitchen…"
        )}
      </div>
    );
  }

  return (
    // below lg (phones): the scene, the actions, the notes, one under the other; the page scrolls
    <div
      className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-[minmax(0,1fr)_minmax(250px,290px)_minmax(300px,340px)]"
      data-testid="ego2world-player"
    >
      <SceneColumn episode={episode} view={current} areas={areas} act={act} locked={locked} error={play.error} pending={play.pending} />
      <ActionColumn episode={episode} view={current} areas={areas} act={act} locked={locked} steps={play.steps} />
      <NotesPanel notes={draft.notes} areas={areas} locked={submitted} labels={labelsOf(current)} />
    </div>
  );
}

function labelsOf(view: PlayView): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const object of view.objects) labels[object.id] = object.label;
  if (view.hand) labels[view.hand.id] = view.hand.label;
  return labels;
}

type Act = (action: Ego2worldAction) => Promise<unknown>;

// ---------------------------------------------------------------------------------------------
// The scene: task, picture, areas, feedback

function SceneColumn({
  episode,
  view,
  areas,
  act,
  locked,
  error,
  pending,
}: {
  episode: EpisodeView;
  view: PlayView;
  areas: string[];
  act: Act;
  locked: boolean;
  error: string | null;
  pending: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const yesButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) yesButton.current?.focus();
  }, [confirming]);
  const last = view.task >= view.taskCount - 1;
  return (
    <div className="flex min-h-0 min-w-0 flex-col gap-2">
      <section
        aria-label="Task"
        className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-slate-200 bg-white px-3 py-2 shadow-sm"
      >
        <span className="shrink-0 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700 tabular-nums" data-testid="task-counter">
          {view.finished ? `All ${view.taskCount} tasks done` : `Task ${view.task + 1} of ${view.taskCount}`}
        </span>
        <p className="min-w-0 flex-1 basis-48 text-sm font-semibold leading-snug text-slate-900" data-testid="task-instruction">
          {view.finished ? "Every task is done. Check your notes, give your confidence and submit." : view.instruction}
        </p>
        {view.finished ? null : confirming ? (
          <span className="flex shrink-0 flex-wrap items-center gap-1.5 text-xs text-slate-700">
            {last ? "Finish the last task?" : `Move on to task ${view.task + 2}?`}
            <button
              ref={yesButton}
              type="button"
              onClick={() => {
                setConfirming(false);
                void act({ type: "done" });
              }}
              className={`${smallButton} bg-brand-600 text-white hover:bg-brand-700`}
            >
              Yes, done
            </button>
            <button
              type="button"
              onClick={() => setConfirming(false)}
              className={`${smallButton} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}
            >
              Not yet
            </button>
          </span>
        ) : (
          <button
            type="button"
            disabled={locked}
            onClick={() => setConfirming(true)}
            className={`${smallButton} border border-brand-600 bg-white px-3 text-sm text-brand-700 hover:bg-brand-50 lg:h-8`}
          >
            Done with this task
          </button>
        )}
      </section>

      <figure className="relative min-h-0 flex-1 overflow-hidden rounded-lg border border-slate-200 bg-slate-100 shadow-sm max-lg:aspect-[4/3] lg:[container-type:size]">
        {view.image ? (
          // eslint-disable-next-line @next/next/no-img-element -- assets are served by hash with long caching
          <img
            src={view.image}
            alt={`${areaName(view.area)} at the start of the episode`}
            className="h-full w-full object-contain"
            draggable={false}
            data-testid="area-image"
            data-area={view.area}
          />
        ) : (
          <div className="grid h-full place-items-center text-sm text-slate-500">No picture of {areaName(view.area)}</div>
        )}
        <figcaption className="absolute bottom-2 right-2 max-w-[calc(100%-1rem)] rounded bg-slate-900/75 px-2 py-0.5 text-[11px] text-white">
          Picture from the start of the episode; what changed since is listed under “Here”
        </figcaption>
      </figure>

      <nav
        aria-label="Go to an area"
        className="flex shrink-0 flex-wrap items-center gap-1.5 rounded-lg border border-slate-200 bg-white px-2 py-1.5 shadow-sm"
      >
        <span className="text-xs font-semibold text-slate-600">Go to:</span>
        {areas.map((area) => {
          const here = area === view.area;
          return (
            <button
              key={area}
              type="button"
              disabled={locked || here}
              aria-current={here ? "location" : undefined}
              data-area={area}
              onClick={() => void act({ type: "act", action: `go_to(${area})` })}
              className={`${smallButton} ${here ? "bg-slate-800 text-white disabled:cursor-default" : "border border-slate-300 bg-white text-slate-800 hover:border-brand-400 hover:bg-brand-50 disabled:text-slate-400"}`}
            >
              {here ? `● ${areaName(area)} (here)` : areaName(area)}
            </button>
          );
        })}
      </nav>

      <Feedback view={view} error={error} pending={pending} />
      {episode.title ? <span className="sr-only">Episode: {episode.title}</span> : null}
    </div>
  );
}

function Feedback({ view, error, pending }: { view: PlayView; error: string | null; pending: boolean }) {
  const feedback = view.feedback;
  let tone = "border-slate-200 bg-white text-slate-600";
  let text: React.ReactNode = view.steps === 0 && view.task === 0 ? "Use Go to and the Actions; what happens shows here." : "No action yet in this task.";
  if (pending) text = "…";
  else if (error) {
    tone = "border-amber-300 bg-amber-50 text-amber-900";
    text = error;
  } else if (feedback) {
    tone = feedback.accepted ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-red-200 bg-red-50 text-red-900";
    text = feedback.accepted ? (
      <>
        <strong>✓ Done:</strong> <code>{feedback.action}</code>
      </>
    ) : (
      <>
        <strong>✗ Not possible:</strong> <code>{feedback.action}</code> needs <code className="font-semibold">{feedback.message}</code>
      </>
    );
  }
  return (
    <div className="flex shrink-0 flex-col gap-1">
      {view.lastTask ? (
        <p
          className={`rounded-md border px-2 py-1 text-xs ${view.lastTask.success ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-amber-200 bg-amber-50 text-amber-900"}`}
          data-testid="last-task"
        >
          Previous task: {view.lastTask.success ? "goal reached ✓" : "goal not reached ✗"}
        </p>
      ) : null}
      <p
        role="status"
        aria-live="polite"
        className={`min-h-8 break-words rounded-md sm:truncate border px-2 py-1.5 text-sm ${tone}`}
        data-testid="feedback"
        data-accepted={feedback ? String(feedback.accepted) : undefined}
      >
        {text}
      </p>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// What is here, the palette, the actions of this task

function ActionColumn({
  episode,
  view,
  areas,
  act,
  locked,
  steps,
}: {
  episode: EpisodeView;
  view: PlayView;
  areas: string[];
  act: Act;
  locked: boolean;
  steps: Array<{ seq: number; action: unknown; valid: boolean }>;
}) {
  const [selected, setSelected] = useState<number | null>(null);
  const [args, setArgs] = useState<Array<string | null>>([]);
  const firstPicker = useRef<HTMLSelectElement>(null);
  const doItButton = useRef<HTMLButtonElement>(null);
  const [focusPicker, setFocusPicker] = useState(0);
  const options = useMemo(() => pickerOptions(view, areas), [view, areas]);
  const palette = useMemo(() => episode.actions.filter((action) => action.name !== "go_to"), [episode.actions]);
  const chosen = selected === null ? null : palette[selected];
  // a chosen argument no longer in sight (the person moved) counts as not chosen
  const shownArgs = (chosen?.params ?? []).map((_, i) => {
    const arg = args[i] ?? null;
    return arg !== null && options.some((option) => option.value === arg) ? arg : null;
  });
  const text = chosen ? composeAction(chosen.name, shownArgs) : null;

  const choose = useCallback(
    (index: number) => {
      setSelected(index);
      setArgs(palette[index].params.map(() => null));
      setFocusPicker((count) => count + 1);
    },
    [palette],
  );
  useEffect(() => {
    if (focusPicker > 0) (firstPicker.current ?? doItButton.current)?.focus();
  }, [focusPicker]);

  useTaskKeys((key) => {
    if (locked || !/^[1-9]$/.test(key)) return false;
    const index = Number(key) - 1;
    if (index >= palette.length) return false;
    choose(index);
    return true;
  });

  const taskSteps = useMemo(() => {
    let task = 0;
    const rows: Array<{ seq: number; text: string; valid: boolean }> = [];
    for (const step of steps) {
      const action = step.action as Ego2worldAction;
      if (action?.type === "done") task++;
      else if (task === view.task && action?.type === "act") rows.push({ seq: step.seq, text: action.action, valid: step.valid });
    }
    return rows;
  }, [steps, view.task]);

  return (
    <div className="flex min-h-0 flex-col gap-2">
      <TaskPanel
        title={`Here: ${areaName(view.area)}`}
        label="What you see here"
        className="max-h-[46%] shrink-0"
        bodyClassName="flex flex-col gap-1.5 text-xs"
      >
        <div data-testid="hand">
          <span className="font-semibold text-slate-600">In your hand: </span>
          {view.hand ? <ObjectChip id={view.hand.id} label={view.hand.label} tone="hand" /> : <span className="text-slate-500">nothing</span>}
        </div>
        <ul className="flex flex-wrap gap-1" aria-label="Objects here" data-testid="objects-here">
          {view.objects.length === 0 ? (
            <li className="text-slate-500">No objects here.</li>
          ) : (
            view.objects.map((object) => (
              <li key={object.id}>
                <ObjectChip id={object.id} label={object.label} />
              </li>
            ))
          )}
        </ul>
        <div>
          <h3 className="font-semibold text-slate-600">Changed here since the start</h3>
          {view.changes.length === 0 ? (
            <p className="text-slate-500">Nothing yet.</p>
          ) : (
            <ul className="list-disc pl-4 text-slate-800" data-testid="changes">
              {view.changes.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      </TaskPanel>

      <TaskPanel
        title="Actions"
        aside={<span className="pointer-coarse:hidden">keys 1–{Math.min(9, palette.length)}</span>}
        label="Actions"
        className="min-h-0 flex-1"
        bodyClassName="flex flex-col gap-2"
      >
        <div className="flex flex-wrap gap-1" role="group" aria-label="Choose an action">
          {palette.map((action, index) => (
            <button
              key={`${action.name}/${action.params.length}`}
              type="button"
              disabled={locked}
              aria-pressed={selected === index}
              data-action={action.name}
              onClick={() => choose(index)}
              className={`${smallButton} font-mono ${selected === index ? "bg-brand-600 text-white" : "border border-slate-300 bg-white text-slate-800 hover:border-brand-400 hover:bg-brand-50"}`}
            >
              {index < 9 ? <span className={`mr-1 ${selected === index ? "text-white/70" : "text-slate-400"}`}>{index + 1}</span> : null}
              {action.name}
            </button>
          ))}
        </div>
        {chosen ? (
          <form
            className="flex flex-col gap-1.5 rounded-md border border-brand-200 bg-brand-50/50 p-2"
            aria-label={`Arguments of ${chosen.name}`}
            onSubmit={(event) => {
              event.preventDefault();
              if (!text || locked) return;
              void act({ type: "act", action: text }).then(() => {
                setArgs(chosen.params.map(() => null));
              });
            }}
          >
            {chosen.params.length === 0 ? <p className="text-xs text-slate-600">No arguments.</p> : null}
            {chosen.params.map((param, i) => (
              <label key={param} className="flex items-center gap-2 text-xs">
                <span className="w-10 shrink-0 text-right font-mono text-slate-500">{param}</span>
                <select
                  ref={i === 0 ? firstPicker : undefined}
                  value={shownArgs[i] ?? ""}
                  disabled={locked}
                  onChange={(event) => setArgs(shownArgs.map((arg, j) => (j === i ? event.target.value || null : arg)))}
                  className={`${selectClass} flex-1`}
                  aria-label={`${chosen.name}: ${param}`}
                  data-param={param}
                >
                  <option value="">choose…</option>
                  {(["hand", "here", "area"] as const).map((group) => {
                    const members = options.filter((option) => option.group === group);
                    if (members.length === 0) return null;
                    return (
                      <optgroup key={group} label={group === "hand" ? "In your hand" : group === "here" ? `Here (${areaName(view.area)})` : "Areas"}>
                        {members.map((option) => (
                          <option key={option.value} value={option.value}>
                            {option.label}
                          </option>
                        ))}
                      </optgroup>
                    );
                  })}
                </select>
              </label>
            ))}
            <div className="flex items-center gap-2">
              <code className="min-w-0 flex-1 truncate text-xs text-slate-700" data-testid="composed-action">
                {text ?? `${chosen.name}(${chosen.params.join(", ")})`}
              </code>
              <button
                ref={doItButton}
                type="submit"
                disabled={!text || locked}
                className={`${smallButton} bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-300`}
              >
                Do it ⏎
              </button>
            </div>
          </form>
        ) : (
          <p className="text-xs text-slate-500">Choose an action, then what it acts on. Only what is here, in your hand, and the areas can be picked.</p>
        )}
        <div className="min-h-0">
          <h3 className="text-xs font-semibold text-slate-600">Your actions in this task</h3>
          {taskSteps.length === 0 ? (
            <p className="text-xs text-slate-500">None yet.</p>
          ) : (
            <ol className="mt-0.5 flex flex-col gap-0.5 text-xs" data-testid="task-steps">
              {taskSteps.map((step) => (
                <li key={step.seq} className={`flex gap-1 font-mono ${step.valid ? "text-slate-800" : "text-red-700 line-through decoration-red-300"}`}>
                  <span aria-label={step.valid ? "accepted" : "refused"}>{step.valid ? "✓" : "✗"}</span>
                  <span className="truncate">{step.text}</span>
                </li>
              ))}
            </ol>
          )}
        </div>
      </TaskPanel>
    </div>
  );
}

function ObjectChip({ id, label, tone = "here" }: { id: string; label: string; tone?: "here" | "hand" }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded border px-1.5 py-0.5 ${tone === "hand" ? "border-amber-300 bg-amber-50" : "border-slate-200 bg-slate-50"}`}
      data-object={id}
    >
      <span className="font-mono font-semibold text-slate-900">{id}</span>
      {label !== labelFromId(id) ? <span className="text-slate-500">{label}</span> : null}
    </span>
  );
}

// ---------------------------------------------------------------------------------------------
// The notes: the person's belief graph

function NotesPanel({ notes, areas, locked, labels }: { notes: Note[]; areas: string[]; locked: boolean; labels: Record<string, string> }) {
  const api = useAnnotationStoreApi();
  const [newObject, setNewObject] = useState("");
  const listId = useId();
  const edit = useCallback(
    (object: string, field: NoteField, value: string | null, via: Via) => {
      const state = api.getState();
      if (state.readOnly || state.submitted) return;
      const note = draftOf(state.answer).notes.find((row) => row.object === object);
      if (!note || note[field] === value) return;
      state.dispatch({ type: "note_edited", payload: { object, field, value, via } });
    },
    [api],
  );
  const add = (via: Via) => {
    const object = newObject.trim();
    const state = api.getState();
    if (!object || state.readOnly || state.submitted || draftOf(state.answer).notes.some((note) => note.object === object)) return;
    state.dispatch({ type: "note_added", payload: { object, area: null, state: "", confidence: "low", source: "guess", via } });
    setNewObject("");
  };
  const areaOptions = noteAreaOptions(areas);
  return (
    <TaskPanel title="My notes" aside={<span>where things are, their state</span>} label="My notes" className="min-h-0" bodyClassName="flex flex-col gap-1.5">
      <p className="text-[11px] leading-snug text-slate-500">
        Rows fill in as you see things. Keep them up to date: where each object is now, its state as you believe it, how sure you are, and why.
      </p>
      <ul className="flex flex-col gap-1.5" data-testid="notes">
        {notes.map((note) => (
          <NoteRow
            key={note.object}
            note={note}
            label={labels[note.object] ?? labelFromId(note.object)}
            areaOptions={areaOptions}
            locked={locked}
            edit={edit}
          />
        ))}
      </ul>
      <form
        className="mt-auto flex items-center gap-1 border-t border-slate-100 pt-1.5"
        onSubmit={(event) => {
          event.preventDefault();
          add("keyboard");
        }}
      >
        <input
          value={newObject}
          onChange={(event) => setNewObject(event.target.value)}
          disabled={locked}
          list={listId}
          placeholder="another object, e.g. bread_slice_01"
          aria-label="Note another object"
          className={`${selectClass} flex-1 px-1.5`}
        />
        <datalist id={listId}>
          {Object.keys(labels)
            .filter((id) => !notes.some((note) => note.object === id))
            .map((id) => (
              <option key={id} value={id} />
            ))}
        </datalist>
        <button
          type="button"
          disabled={locked || newObject.trim() === ""}
          onClick={(event) => add(viaOf(event))}
          className={`${smallButton} bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-300`}
        >
          Add
        </button>
      </form>
    </TaskPanel>
  );
}

function NoteRow({
  note,
  label,
  areaOptions,
  locked,
  edit,
}: {
  note: Note;
  label: string;
  areaOptions: Array<{ value: string; label: string }>;
  locked: boolean;
  edit: (object: string, field: NoteField, value: string | null, via: Via) => void;
}) {
  const api = useAnnotationStoreApi();
  const [stateText, setStateText] = useState(note.state);
  // the stored state changed (a replayed or resumed edit): show it
  const [storedState, setStoredState] = useState(note.state);
  if (storedState !== note.state) {
    setStoredState(note.state);
    setStateText(note.state);
  }
  const commitState = (via: Via) => {
    if (stateText !== note.state) edit(note.object, "state", stateText.slice(0, 500), via);
  };
  return (
    <li className="rounded-md border border-slate-200 bg-slate-50/60 p-1.5" data-note={note.object}>
      <div className="flex items-center gap-1">
        <span className="min-w-0 flex-1 truncate text-xs">
          <span className="font-mono font-semibold text-slate-900">{note.object}</span>
          {label !== labelFromId(note.object) ? <span className="text-slate-500"> {label}</span> : null}
        </span>
        <select
          value={note.area ?? ""}
          disabled={locked}
          onChange={(event) => edit(note.object, "area", event.target.value || null, "click")}
          aria-label={`${note.object}: where`}
          className={`${selectClass} w-[7.5rem]`}
          data-field="area"
        >
          <option value="">where? (unknown)</option>
          {areaOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={locked}
          onClick={(event) => {
            const state = api.getState();
            if (!state.readOnly && !state.submitted) state.dispatch({ type: "note_removed", payload: { object: note.object, via: viaOf(event) } });
          }}
          aria-label={`Remove the note on ${note.object}`}
          className={`${smallButton} w-6 px-0 text-slate-400 hover:bg-slate-200 hover:text-slate-700`}
        >
          ×
        </button>
      </div>
      <div className="mt-1 flex items-center gap-1">
        <input
          value={stateText}
          disabled={locked}
          maxLength={500}
          onChange={(event) => setStateText(event.target.value)}
          onBlur={() => commitState("click")}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              commitState("keyboard");
            } else if (event.key === "Escape") setStateText(note.state);
          }}
          placeholder="state, e.g. empty"
          aria-label={`${note.object}: state`}
          className={`${selectClass} flex-1 px-1.5`}
          data-field="state"
        />
        <select
          value={note.confidence}
          disabled={locked}
          onChange={(event) => edit(note.object, "confidence", event.target.value, "click")}
          aria-label={`${note.object}: confidence`}
          className={`${selectClass} w-[5.25rem]`}
          data-field="confidence"
        >
          {NOTE_CONFIDENCES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <select
          value={note.source}
          disabled={locked}
          onChange={(event) => edit(note.object, "source", event.target.value, "click")}
          aria-label={`${note.object}: source`}
          className={`${selectClass} w-[5.25rem]`}
          data-field="source"
        >
          {NOTE_SOURCES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </div>
    </li>
  );
}

// ---------------------------------------------------------------------------------------------
// Replay, review and practice feedback: no live episode

function ReadOnlyEpisode({ episode }: { episode: EpisodeView }) {
  const answer = useAnnotationStore((s) => s.answer);
  const tasks = (answer as { tasks?: Array<{ id: string; actions: string[] }> } | null)?.tasks;
  const notes = draftOf(answer).notes;
  return (
    <div className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-2">
      <TaskPanel title={episode.title} label="Episode" bodyClassName="flex flex-col gap-2 text-sm">
        <p className="text-xs text-slate-500">This episode was played on the server, step by step; its steps are in the timeline.</p>
        <ol className="flex flex-col gap-2">
          {episode.tasks.map((task, i) => {
            const actions = tasks?.find((entry) => entry.id === task.id)?.actions;
            return (
              <li key={task.id}>
                <p className="font-medium text-slate-900">
                  {i + 1}. {task.instruction}
                </p>
                {actions ? <p className="font-mono text-xs text-slate-600">{actions.length === 0 ? "(no actions)" : actions.join(" → ")}</p> : null}
              </li>
            );
          })}
        </ol>
      </TaskPanel>
      <TaskPanel title="Notes" label="Notes" bodyClassName="text-xs">
        {notes.length === 0 ? (
          <p className="text-slate-500">No notes.</p>
        ) : (
          <ul className="flex flex-col gap-1">
            {notes.map((note) => (
              <li key={note.object}>
                <span className="font-mono font-semibold">{note.object}</span>: {note.area ?? "?"} · {note.state || "—"} · {note.confidence} · {note.source}
              </li>
            ))}
          </ul>
        )}
      </TaskPanel>
    </div>
  );
}
