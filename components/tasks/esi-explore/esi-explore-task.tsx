"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useAnnotationStore, useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";
import { TaskPanel } from "@/components/tasks/shared/panel";
import { useTaskKeys } from "@/components/tasks/shared/task-keys";
import type { TaskUiProps } from "@/components/tasks/shared/types";
import { CONDITION_TITLES, type EsiItemView, type EsiPlayView } from "@/components/tasks/esi-explore/esi-view";
import { usePlay, type PlayAck } from "@/lib/client/play";
import {
  ACTION_KEYS,
  ACTION_WORDS,
  MOVE_ACTIONS,
  OBJECT_ACTIONS,
  OBJECT_ACTION_NAMES,
  TURN_ACTIONS,
  actionOfKey,
  describeAction,
  type ActionName,
  type ObjectAction,
} from "@/lib/tasks/esi-explore/actions";
import { isEsiDraft, type EsiDraft, type EsiDraftChoice } from "@/lib/tasks/esi-explore/belief";
import type { TrajectoryPayload } from "@/lib/validations/annotate";
import { StudyContactHint } from "@/components/annotate/study-contact-context";

/**
 * The ESI-Bench player (`esi-explore`). Active condition: the current view large, the action
 * buttons (movement and looking with their keys: W A S D, R F, arrows; object actions with pickers
 * over the objects in view and in hand), the step counter against the budget; each action is one
 * round trip to the server (lib/client/play.ts), which answers with the next view only. Passive
 * conditions: the one view, or the gallery of views the condition gives. Always on screen: the
 * question, "my current answer" and the confidence; each change is a `belief_changed` event with
 * the step it was made at. Submitting (the bar below) ends the item; at the budget the actions
 * stop and the player asks for the final answer.
 */

type Via = "click" | "keyboard" | "touch" | "slider";

export default function EsiExploreTask({ view }: TaskUiProps) {
  const item = view as EsiItemView;
  const readOnly = useAnnotationStore((s) => s.readOnly);
  return readOnly ? <ReadOnlyPlayer item={item} /> : <LivePlayer item={item} />;
}

function LivePlayer({ item }: { item: EsiItemView }) {
  const api = useAnnotationStoreApi();
  const assignmentId = useAnnotationStore((s) => s.assignmentId);
  const onStep = (ack: PlayAck, action: unknown) => {
    api.getState().dispatch({ type: "play_step", payload: { seq: ack.seq, action: action as TrajectoryPayload<"play_step">["action"], valid: ack.valid } });
  };
  const play = usePlay<EsiPlayView>(assignmentId, { onStep });
  const last = play.steps.length > 0 ? play.steps[play.steps.length - 1] : null;
  const message = last && last.seq === play.seq ? (last.valid ? last.message : (last.message ?? "cannot do that here")) : null;

  if (play.status === "loading" || !play.view) {
    if (play.status === "error") return <PlayError message={play.error} onRetry={play.reload} />;
    return <div role="status" aria-label="Loading the scene" className="h-full animate-pulse rounded-lg bg-slate-200" />;
  }
  return (
    <Layout
      item={item}
      playView={play.view}
      seq={play.seq}
      steps={play.steps}
      pending={play.pending}
      error={play.error}
      message={message}
      lastValid={last?.seq === play.seq ? last.valid : true}
      act={(action) => void play.act(action)}
    />
  );
}

/**
 * Replay and practice feedback: the frame of the draft's step when the replay gives the recorded
 * views; practice feedback (no replay) shows the episode as it ended, from the server, so that an
 * item answered from one view shows that view, not an exploration at step 0.
 */
function ReadOnlyPlayer({ item }: { item: EsiItemView }) {
  const assignmentId = useAnnotationStore((s) => s.assignmentId);
  // only the practice feedback has an episode of its own (the review and replay pages' stores are not assignments)
  const episode = !item.replay && assignmentId !== "review" && assignmentId !== "replay";
  const play = usePlay<EsiPlayView>(assignmentId, { enabled: episode });
  const draft = useAnnotationStore((s) => (isEsiDraft(s.answer) ? s.answer : null));
  if (episode && play.status !== "error") {
    if (!play.view) return <div role="status" aria-label="Loading the scene" className="h-full animate-pulse rounded-lg bg-slate-200" />;
    return (
      <Layout item={item} playView={play.view} seq={play.seq} steps={play.steps} pending={false} error={null} message={null} lastValid act={() => undefined} />
    );
  }
  const step = draft?.step ?? 0;
  const recorded = item.replay ?? [];
  const frame = [...recorded].reverse().find((entry) => entry.seq <= step) ?? recorded[0];
  const playView: EsiPlayView = frame?.view ?? {
    mode: "active",
    source: "graph",
    image: item.initialImage,
    objects: item.initialObjects,
    holding: [],
    step: 0,
    maxSteps: item.maxSteps,
  };
  const steps = recorded
    .filter((entry) => entry.seq > 0 && entry.seq <= step)
    .map((entry) => ({ seq: entry.seq, action: entry.action ?? null, valid: entry.valid ?? true, message: entry.message ?? null }));
  const last = steps.length > 0 ? steps[steps.length - 1] : null;
  const message = last && last.seq === step && !last.valid ? (last.message ?? "cannot do that here") : null;
  return (
    <Layout
      item={item}
      playView={playView}
      seq={step}
      steps={steps}
      pending={false}
      error={null}
      message={message}
      lastValid={message === null}
      act={() => undefined}
    />
  );
}

function PlayError({ message, onRetry }: { message: string | null; onRetry: () => void }) {
  return (
    <div role="alert" className="grid h-full place-items-center rounded-lg border border-amber-200 bg-amber-50">
      <div className="max-w-md px-6 text-center">
        <h2 className="text-lg font-semibold text-amber-900">The scene could not be loaded</h2>
        <p className="mt-1 text-sm text-amber-900" data-testid="esi-play-error">
          {message ?? "Something went wrong."}
        </p>
        <button type="button" onClick={onRetry} className="mt-4 h-9 rounded-md bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700">
          Try again
        </button>
        {/* whom "tell the research team" means: the study's contact (the session provides it) */}
        <StudyContactHint className="mt-3 text-xs text-amber-900" />
      </div>
    </div>
  );
}

interface LayoutProps {
  item: EsiItemView;
  playView: EsiPlayView;
  seq: number;
  steps: Array<{ seq: number; action: unknown; valid: boolean; message: string | null }>;
  pending: boolean;
  error: string | null;
  message: string | null;
  lastValid: boolean;
  act: (action: { name: ActionName; args: string[] }) => void;
}

function Layout(props: LayoutProps) {
  const { item, playView } = props;
  const [galleryIndex, setGalleryIndex] = useState(0);
  const choose = useBelief(props.seq);
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  const active = playView.mode === "active";
  const budgetUsed = active && playView.step >= playView.maxSteps;
  const singleOptions = Array.isArray(item.options) ? item.options : null;

  useTaskKeys((key) => {
    const digit = /^[1-9]$/.test(key) ? Number(key) - 1 : -1;
    if (singleOptions && digit >= 0 && digit < singleOptions.length) {
      choose.setChoice(singleOptions[digit], "keyboard");
      return true;
    }
    if (active) {
      const name = actionOfKey(key);
      if (!name) return false;
      if (!props.pending && !budgetUsed) props.act({ name, args: [] });
      return true;
    }
    if (playView.images.length > 1 && (key === "ArrowLeft" || key === "ArrowRight")) {
      setGalleryIndex((index) => (index + (key === "ArrowRight" ? 1 : playView.images.length - 1)) % playView.images.length);
      return true;
    }
    return false;
  });

  return (
    // below lg (phones): the view and its action buttons, then the question and answer; the page scrolls
    <div
      className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-[minmax(0,1fr)_minmax(300px,340px)] xl:gap-3"
      data-testid="esi-player"
      data-mode={playView.mode}
    >
      {active ? (
        <ExplorePanel {...props} playView={playView} budgetUsed={budgetUsed} locked={locked} />
      ) : (
        <GalleryPanel playView={playView} index={Math.min(galleryIndex, playView.images.length - 1)} onIndex={setGalleryIndex} />
      )}
      <TaskPanel title="Question" label="Question and your answer" bodyClassName="flex flex-col gap-3">
        <p className="text-[15px] font-medium leading-snug text-slate-900" data-testid="esi-question">
          {item.question}
        </p>
        {budgetUsed && !locked ? (
          <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-2.5 py-1.5 text-sm text-amber-900" data-testid="esi-budget-used">
            All {playView.mode === "active" ? playView.maxSteps : item.maxSteps} steps are used. Give your final answer and confidence, then submit.
          </p>
        ) : null}
        <BeliefPanel item={item} choose={choose} locked={locked} />
        {active ? <ObjectsInView objects={playView.objects} holding={playView.holding} /> : null}
        {active ? <StepList steps={props.steps} /> : null}
      </TaskPanel>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Belief: "my current answer" and confidence

interface Belief {
  choice: EsiDraftChoice;
  confidence: number | null;
  setChoice: (option: string, via: Via, part?: string) => void;
  setConfidence: (value: number, via: Via) => void;
}

function useBelief(step: number): Belief {
  const api = useAnnotationStoreApi();
  const choice = useAnnotationStore((s) => (isEsiDraft(s.answer) ? s.answer.choice : null));
  const confidence = useAnnotationStore((s) => s.confidence);
  const record = (next: EsiDraftChoice, nextConfidence: number | null, via: Via) => {
    const state = api.getState();
    if (state.readOnly || state.submitted) return;
    state.dispatch({ type: "belief_changed", payload: { choice: next, confidence: nextConfidence, step, via } });
  };
  return {
    choice,
    confidence,
    setChoice(option, via, part) {
      const current = (api.getState().answer as EsiDraft | null)?.choice ?? null;
      let next: EsiDraftChoice;
      if (part === undefined) next = option;
      else next = { ...(current !== null && typeof current === "object" ? current : {}), [part]: option };
      if (JSON.stringify(next) === JSON.stringify(current)) return;
      record(next, api.getState().confidence, via);
    },
    setConfidence(value, via) {
      if (value === api.getState().confidence) return;
      const current = (api.getState().answer as EsiDraft | null)?.choice ?? null;
      record(current, value, via);
    },
  };
}

function OptionButton({
  label,
  hint,
  selected,
  disabled,
  onChoose,
}: {
  label: string;
  hint?: string;
  selected: boolean;
  disabled: boolean;
  onChoose: (via: Via) => void;
}) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={selected}
      disabled={disabled && !selected}
      data-option={label}
      onClick={(event) => onChoose(event.detail === 0 ? "keyboard" : "click")}
      className={`flex min-h-11 items-center justify-between gap-2 rounded-md border-2 lg:min-h-9 px-2.5 py-1 text-left text-sm font-semibold transition ${
        selected ? "border-brand-600 bg-brand-600 text-white" : "border-slate-200 bg-white text-slate-800 hover:border-brand-500 hover:bg-brand-50"
      } disabled:cursor-default`}
    >
      <span className="min-w-0 break-words">{label}</span>
      {hint ? (
        <kbd
          className={`shrink-0 rounded border px-1 font-mono text-[10px] font-normal ${selected ? "border-white/40 text-white/90" : "border-slate-300 text-slate-500"}`}
        >
          {hint}
        </kbd>
      ) : null}
    </button>
  );
}

function BeliefPanel({ item, choose, locked }: { item: EsiItemView; choose: Belief; locked: boolean }) {
  const options = item.options;
  return (
    <section aria-label="My current answer" className="rounded-lg border border-brand-100 bg-brand-50/60 p-2.5" data-testid="esi-belief">
      <h3 className="text-[11px] font-semibold uppercase tracking-wide text-brand-700">My current answer</h3>
      <p className="mb-1.5 text-[11px] leading-snug text-slate-500">Change it whenever what you see changes your mind.</p>
      {Array.isArray(options) ? (
        <div role="radiogroup" aria-label="Answer" className={`grid gap-1.5 ${options.length > 2 ? "grid-cols-2" : "grid-cols-2"}`}>
          {options.map((option, index) => (
            <OptionButton
              key={option}
              label={option}
              hint={index < 9 ? String(index + 1) : undefined}
              selected={choose.choice === option}
              disabled={locked}
              onChoose={(via) => choose.setChoice(option, via)}
            />
          ))}
        </div>
      ) : (
        <div className="flex flex-col gap-2">
          {Object.entries(options).map(([part, list]) => {
            const current = choose.choice !== null && typeof choose.choice === "object" ? choose.choice[part] : undefined;
            return (
              <div key={part} role="radiogroup" aria-label={`Part ${part}${item.parts?.[part] ? `: ${item.parts[part]}` : ""}`} data-part={part}>
                <p className="mb-0.5 text-xs font-semibold text-slate-700">
                  <span className="mr-1 rounded bg-slate-800 px-1 font-mono text-[10px] text-white">{part}</span>
                  {item.parts?.[part] ?? `Part ${part}`}
                </p>
                <div className="grid grid-cols-2 gap-1.5">
                  {list.map((option) => (
                    <OptionButton
                      key={option}
                      label={option}
                      selected={current === option}
                      disabled={locked}
                      onChoose={(via) => choose.setChoice(option, via, part)}
                    />
                  ))}
                </div>
              </div>
            );
          })}
        </div>
      )}
      <BeliefConfidence choose={choose} locked={locked} />
    </section>
  );
}

const likertLabels = ["Guessing", "Unsure", "Fairly sure", "Sure", "Certain"];

function BeliefConfidence({ choose, locked }: { choose: Belief; locked: boolean }) {
  const scale = useAnnotationStore((s) => s.confidenceScale);
  const [draft, setDraft] = useState<number | null>(null);
  const latest = useRef<number | null>(null);
  const shown = draft ?? choose.confidence;
  if (scale === "LIKERT_5") {
    return (
      <div className="mt-2.5">
        <p className="mb-1 text-xs font-semibold text-slate-700">How sure are you?</p>
        <div role="radiogroup" aria-label="Confidence (1 = guessing, 5 = certain)" className="grid grid-cols-5 gap-1">
          {likertLabels.map((label, i) => (
            <button
              key={label}
              type="button"
              role="radio"
              aria-checked={choose.confidence === i + 1}
              aria-label={`${i + 1}: ${label}`}
              title={label}
              disabled={locked}
              onClick={(event) => choose.setConfidence(i + 1, event.detail === 0 ? "keyboard" : "click")}
              className={`flex h-10 flex-col items-center justify-center rounded-md border text-sm font-semibold leading-none ${choose.confidence === i + 1 ? "border-brand-600 bg-brand-600 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-brand-50"}`}
            >
              {i + 1}
              <span className="mt-0.5 text-[8px] font-normal">{label}</span>
            </button>
          ))}
        </div>
      </div>
    );
  }
  const commit = (via: Via) => {
    if (latest.current !== null) choose.setConfidence(latest.current, via);
    latest.current = null;
    setDraft(null);
  };
  return (
    <div className="mt-2.5">
      <div className="mb-0.5 flex items-baseline justify-between">
        <label htmlFor="esi-confidence" className="text-xs font-semibold text-slate-700">
          How sure are you?
        </label>
        <span className={`text-sm font-semibold tabular-nums ${shown === null ? "text-slate-400" : "text-slate-900"}`} data-testid="esi-confidence-value">
          {shown === null ? "not set" : `${shown}%`}
        </span>
      </div>
      <div className="relative flex h-6 items-center">
        {shown === null ? <span aria-hidden className="absolute inset-x-0 h-1.5 rounded-full bg-slate-300" /> : null}
        <input
          id="esi-confidence"
          type="range"
          min={0}
          max={100}
          step={5}
          disabled={locked}
          value={shown ?? 50}
          aria-valuetext={shown === null ? "not set" : `${shown}%`}
          data-empty={shown === null ? "true" : "false"}
          onChange={(event) => {
            latest.current = Number(event.target.value);
            setDraft(latest.current);
          }}
          onPointerUp={(event) => {
            commit("slider");
            // give the keys back to the player
            event.currentTarget.blur();
          }}
          onKeyUp={() => commit("keyboard")}
          onBlur={() => commit("slider")}
          className={`relative h-6 w-full cursor-pointer accent-brand-600 ${shown === null ? "opacity-0" : ""}`}
        />
      </div>
      <div className="flex justify-between text-[10px] text-slate-400">
        <span>guessing</span>
        <span>certain</span>
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Exploring

function Key({ children, light }: { children: React.ReactNode; light?: boolean }) {
  return (
    <kbd
      className={`inline-grid h-5 min-w-5 place-items-center rounded border px-1 font-mono text-[11px] font-semibold leading-none ${light ? "border-white/40 bg-white/10 text-white" : "border-slate-300 bg-slate-50 text-slate-600"}`}
    >
      {children}
    </kbd>
  );
}

function ActionButton({ name, disabled, onAct }: { name: ActionName; disabled: boolean; onAct: () => void }) {
  const shortcut = ACTION_KEYS[name];
  return (
    <button
      type="button"
      data-action={name}
      disabled={disabled}
      onClick={onAct}
      aria-label={`${ACTION_WORDS[name]}${shortcut ? ` (key ${shortcut.label})` : ""}`}
      aria-keyshortcuts={shortcut ? (shortcut.key.length === 1 ? shortcut.key.toUpperCase() : shortcut.key) : undefined}
      className="flex h-10 min-w-0 items-center justify-center gap-1.5 rounded-md border lg:h-8 border-slate-300 bg-white px-1.5 text-[13px] font-medium text-slate-800 shadow-sm transition hover:border-brand-500 hover:bg-brand-50 active:bg-brand-100 disabled:cursor-not-allowed disabled:opacity-40"
    >
      {shortcut ? <Key>{shortcut.label}</Key> : null}
      <span className="truncate">{ACTION_WORDS[name]}</span>
    </button>
  );
}

function ExplorePanel({
  playView,
  seq,
  pending,
  error,
  message,
  lastValid,
  act,
  budgetUsed,
  locked,
}: LayoutProps & { playView: Extract<EsiPlayView, { mode: "active" }>; budgetUsed: boolean; locked: boolean }) {
  const disabled = pending || budgetUsed || locked;
  const usedShare = Math.min(1, playView.step / Math.max(1, playView.maxSteps));
  return (
    <section aria-label="The scene" className="flex min-h-0 min-w-0 flex-col rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-100 px-3 py-1.5">
        <h2 className="text-sm font-semibold text-slate-800">{CONDITION_TITLES.active}</h2>
        <div className="flex items-center gap-2" aria-label="Steps used">
          <span className="text-xs font-semibold tabular-nums text-slate-700" data-testid="esi-step-counter">
            Step {playView.step} of {playView.maxSteps}
          </span>
          <span aria-hidden className="h-1.5 w-28 overflow-hidden rounded-full bg-slate-200">
            <span className={`block h-full rounded-full ${usedShare >= 0.8 ? "bg-amber-500" : "bg-brand-500"}`} style={{ width: `${usedShare * 100}%` }} />
          </span>
        </div>
        <span className="ml-auto text-xs text-slate-500" aria-live="polite">
          {pending ? "Moving…" : error ? <span className="text-amber-700">{error}</span> : seq === 0 ? "You are at the start." : null}
        </span>
        {/* a step the simulator failed: whom "tell the research team" means */}
        {error && !pending ? <StudyContactHint className="w-full text-right text-xs text-amber-700" /> : null}
      </header>
      <div className="relative min-h-0 flex-1 bg-slate-100 p-1.5 max-lg:aspect-[4/3]">
        {/* eslint-disable-next-line @next/next/no-img-element -- each view is served by hash */}
        <img
          src={playView.image}
          alt={`The current view, step ${playView.step}`}
          draggable={false}
          className={`h-full w-full rounded object-contain transition-opacity ${pending ? "opacity-70" : ""}`}
          data-testid="esi-view"
        />
        {message ? (
          <p
            role="status"
            data-testid="esi-step-message"
            data-valid={lastValid ? "true" : "false"}
            className={`absolute left-1/2 top-3 -translate-x-1/2 rounded-full px-3 py-1 text-sm font-semibold shadow ${lastValid ? "bg-slate-800/85 text-white" : "bg-red-600 text-white"}`}
          >
            {lastValid ? message : `✗ ${message}`}
          </p>
        ) : null}
        {playView.note ? <p className="absolute inset-x-3 bottom-3 rounded bg-white/90 px-2 py-1 text-xs text-slate-700">{playView.note}</p> : null}
      </div>
      <div className="flex flex-col gap-1.5 border-t border-slate-100 px-2 py-2" role="toolbar" aria-label="Actions">
        <div className="grid grid-cols-3 items-center gap-1 lg:grid-cols-[3.2rem_repeat(6,minmax(0,1fr))]">
          <span className="text-[11px] font-semibold uppercase tracking-wide text-slate-500 max-lg:col-span-full">Move</span>
          {MOVE_ACTIONS.map((name) => (
            <ActionButton key={name} name={name} disabled={disabled} onAct={() => act({ name, args: [] })} />
          ))}
        </div>
        <div className="grid grid-cols-2 items-center gap-1 lg:grid-cols-[3.2rem_repeat(4,minmax(0,1fr))_minmax(0,2fr)]">
          <span className="text-[11px] font-semibold uppercase tracking-wide text-slate-500 max-lg:col-span-full">Look</span>
          {TURN_ACTIONS.map((name) => (
            <ActionButton key={name} name={name} disabled={disabled} onAct={() => act({ name, args: [] })} />
          ))}
          <span
            className="truncate pl-1 text-[11px] text-slate-400 max-lg:col-span-full"
            title="An action the scene does not allow answers “cannot do that here” and still costs a step."
          >
            Refused actions cost a step too.
          </span>
        </div>
        <ObjectActions objects={playView.objects} holding={playView.holding} disabled={disabled} act={act} />
      </div>
    </section>
  );
}

function ObjectActions({ objects, holding, disabled, act }: { objects: string[]; holding: string[]; disabled: boolean; act: LayoutProps["act"] }) {
  const [name, setName] = useState<ObjectAction>("pick_up");
  const [args, setArgs] = useState<string[]>([]);
  const choices = useMemo(() => [...new Set([...holding, ...objects])], [objects, holding]);
  const slots = OBJECT_ACTIONS[name];
  const filled = slots.map((_, i) => (args[i] && choices.includes(args[i]) ? args[i] : ""));
  const ready = filled.every((value) => value !== "");
  return (
    <form
      className="grid grid-cols-1 items-center gap-1 lg:grid-cols-[3.2rem_minmax(0,1fr)]"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready && !disabled) act({ name, args: filled });
      }}
    >
      <span className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">Objects</span>
      <div className="flex min-w-0 flex-wrap items-center gap-1">
        <select
          aria-label="Object action"
          value={name}
          onChange={(event) => {
            setName(event.target.value as ObjectAction);
            setArgs([]);
          }}
          disabled={disabled}
          className="h-10 rounded-md border border-slate-300 bg-white px-1.5 text-[13px] lg:h-8"
        >
          {OBJECT_ACTION_NAMES.map((option) => (
            <option key={option} value={option}>
              {ACTION_WORDS[option]}
            </option>
          ))}
        </select>
        {slots.map((slot, i) => (
          <select
            key={`${name}-${slot}`}
            aria-label={`${ACTION_WORDS[name]}: ${slot}`}
            value={filled[i]}
            disabled={disabled || choices.length === 0}
            onChange={(event) => setArgs((previous) => slots.map((_, j) => (j === i ? event.target.value : (previous[j] ?? ""))))}
            className="h-10 max-w-40 rounded-md border border-slate-300 bg-white px-1.5 text-[13px] lg:h-8"
          >
            <option value="">{slot}…</option>
            {choices.map((object) => (
              <option key={object} value={object}>
                {object}
                {holding.includes(object) ? " (in hand)" : ""}
              </option>
            ))}
          </select>
        ))}
        <button
          type="submit"
          disabled={disabled || !ready}
          className="h-10 rounded-md bg-brand-600 lg:h-8 px-3 text-[13px] font-semibold text-white hover:bg-brand-700 disabled:bg-slate-300 disabled:text-slate-500"
        >
          Do it
        </button>
        {choices.length === 0 ? <span className="text-[11px] text-slate-400">No object in view.</span> : null}
      </div>
    </form>
  );
}

function ObjectsInView({ objects, holding }: { objects: string[]; holding: string[] }) {
  return (
    <section aria-label="Objects" className="text-xs" data-testid="esi-objects">
      <h3 className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-500">In view</h3>
      <ul className="flex flex-wrap gap-1">
        {objects.length === 0 ? <li className="text-slate-400">nothing you can act on</li> : null}
        {objects.map((object) => (
          <li key={object} className="rounded-full bg-slate-100 px-2 py-0.5 font-mono text-[11px] text-slate-700">
            {object}
          </li>
        ))}
      </ul>
      {holding.length > 0 ? (
        <p className="mt-1.5">
          <span className="text-[11px] font-semibold uppercase tracking-wide text-slate-500">In hand </span>
          {holding.map((object) => (
            <span key={object} className="ml-1 rounded-full bg-amber-100 px-2 py-0.5 font-mono text-[11px] text-amber-900">
              {object}
            </span>
          ))}
        </p>
      ) : null}
    </section>
  );
}

function StepList({ steps }: { steps: LayoutProps["steps"] }) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [steps.length]);
  if (steps.length === 0) return null;
  return (
    <section aria-label="Your steps" className="flex min-h-0 flex-col text-xs">
      <h3 className="mb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-500">Your steps</h3>
      <ol ref={list} className="max-h-28 overflow-y-auto rounded-md border border-slate-100" data-testid="esi-steps">
        {steps.map((step) => (
          <li key={step.seq} className={`flex gap-2 border-b border-slate-50 px-2 py-0.5 last:border-0 ${step.valid ? "text-slate-700" : "text-red-700"}`}>
            <span className="w-5 text-right font-mono tabular-nums text-slate-400">{step.seq}</span>
            <span className="min-w-0 flex-1 truncate">
              {step.action && typeof step.action === "object" ? describeAction(step.action as { name: string; args?: string[] }) : "step"}
            </span>
            <span aria-label={step.valid ? "done" : "refused"}>{step.valid ? "✓" : "✗"}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Passive conditions

function GalleryPanel({ playView, index, onIndex }: { playView: Exclude<EsiPlayView, { mode: "active" }>; index: number; onIndex: (index: number) => void }) {
  const images = playView.images;
  const many = images.length > 1;
  return (
    <section aria-label="The views" className="flex min-h-0 min-w-0 flex-col rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="flex items-center gap-3 border-b border-slate-100 px-3 py-1.5">
        <h2 className="text-sm font-semibold text-slate-800">{CONDITION_TITLES[playView.mode]}</h2>
        <span className="text-xs text-slate-500" data-testid="esi-gallery-position">
          {many ? `View ${index + 1} of ${images.length}` : "No exploring in this part of the study: answer from this view."}
        </span>
        {many ? (
          <span className="ml-auto flex items-center gap-1 text-xs text-slate-500">
            <Key>←</Key>
            <Key>→</Key> to browse
          </span>
        ) : null}
      </header>
      <div className="relative min-h-0 flex-1 bg-slate-100 p-1.5 max-lg:aspect-[4/3]">
        {/* eslint-disable-next-line @next/next/no-img-element -- each view is served by hash */}
        <img
          src={images[index]}
          alt={`View ${index + 1} of ${images.length}`}
          draggable={false}
          className="h-full w-full rounded object-contain"
          data-testid="esi-view"
        />
        {playView.note ? <p className="absolute inset-x-3 bottom-3 rounded bg-white/90 px-2 py-1 text-xs text-slate-700">{playView.note}</p> : null}
      </div>
      {many ? (
        <div className="flex gap-1.5 overflow-x-auto border-t border-slate-100 p-2" role="listbox" aria-label="Views">
          {images.map((image, i) => (
            <button
              key={`${image}-${i}`}
              type="button"
              role="option"
              aria-selected={i === index}
              aria-label={`View ${i + 1}`}
              onClick={() => onIndex(i)}
              className={`relative h-14 w-[5.6rem] shrink-0 overflow-hidden rounded border-2 ${i === index ? "border-brand-600" : "border-transparent hover:border-slate-300"}`}
            >
              {/* eslint-disable-next-line @next/next/no-img-element -- thumbnails of the same assets */}
              <img src={image} alt="" className="h-full w-full object-cover" />
              <span className="absolute bottom-0 left-0 rounded-tr bg-slate-900/70 px-1 font-mono text-[10px] text-white">{i + 1}</span>
            </button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
