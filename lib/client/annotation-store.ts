import { createStore, type StateCreator, type StoreApi } from "zustand/vanilla";
import { allSlotsFilled, initialOrderingState } from "@/lib/annotate/ordering-state";
import { applyItemEvent, replayItemEvents, type ItemState } from "@/lib/annotate/item-state";
import { applySceneEdit, isSceneDraft, type SceneEditOp } from "@/lib/tasks/shared/gridwm/scene-form";
import type { Letter, Verdict } from "@/lib/tasks/shared/gridwm/common";
import { addToActiveTime, tallyWallMs, type ActiveTimeTally } from "@/lib/timing/active-time";
import { isValidPayload, type ResponseCreateInput, type TrajectoryEvent, type TrajectoryEventInput, type TrajectoryPayload } from "@/lib/validations/annotate";
import type { AssignmentCursor } from "@/lib/client/trajectory-queue";

/**
 * One item's annotation state (zustand vanilla store, STYLE.md section 4): created once per item
 * by AnnotationStoreProvider, never global. Three slices:
 * - trajectory: the per-assignment sequence number and `dispatch`, the one place events are made;
 * - response: the answer (the slots of an ordering task, or the `answer` object of any other
 *   kind), confidence, the lightbox, submitting;
 * - timer: visibility, the idle overlay and the running active-time tally.
 *
 * Every user-facing action records exactly one event (or none when it changes nothing), and the
 * state changes only through `applyItemEvent` of that event, so a replay of the recorded
 * trajectory gives the same states the person saw.
 */

export type ConfidenceScaleName = "LIKERT_5" | "PERCENT";
export type InputVia = "drag" | "keyboard" | "click" | "touch";
export type ImageRole = "initial" | "candidate" | "observation" | "slot" | "storyboard" | "composite";
export type ChoiceVia = "click" | "keyboard" | "touch";

/** A stored or queued event as the store needs it for resuming. */
export interface HistoryEvent {
  seq: number;
  type: string;
  payload: unknown;
  clientTime: number;
}

export interface AnnotationInit {
  assignmentId: string;
  kind: string;
  /** number of slots (= candidates) of an ordering kind; 0 (the default) for other kinds */
  length?: number;
  /**
   * Non-ordering kinds: the answer (or draft) before any answer event (e.g. the empty scene form),
   * and `answerOf`, the answer to submit from it, null while incomplete. Without `answerOf` the
   * kind is an ordering kind: its answer is `{ order }` once every slot is filled.
   */
  initialAnswer?: unknown;
  answerOf?: (answer: unknown) => unknown;
  confidenceScale: ConfidenceScaleName;
  idleCapMs: number;
  /** replay and review: nothing is recorded, actions do nothing */
  readOnly?: boolean;
  /** events recorded before (on the server and not yet acknowledged here), any order: the state resumes from them */
  history?: HistoryEvent[];
  /** the next seq at least (e.g. from this browser's saved cursor) */
  nextSeq?: number;
  /** the saved time tally, when it is at least as recent as the history */
  tally?: ActiveTimeTally | null;
  /** where recorded events go (the trajectory queue); called synchronously, in seq order */
  sink?: (event: TrajectoryEvent, cursor: AssignmentCursor) => void;
  /** where the submission goes (the trajectory queue), right after its `submitted` event */
  onSubmit?: (input: ResponseCreateInput) => void;
  /**
   * the history ends in a submission whose answer never reached the server (AssignmentView.reopened):
   * showing the item records `submission_reopened`, and the item can be answered again
   */
  reopen?: { submittedSeq: number; reason: string } | null;
  /** a fixed state for read-only stores (review of the answer key) */
  state?: Partial<ItemState>;
  now?: () => number;
  randomId?: () => string;
}

export interface TrajectorySlice {
  assignmentId: string;
  kind: string;
  readOnly: boolean;
  nextSeq: number;
  /** events recorded by this store (this page view), in order */
  recorded: TrajectoryEvent[];
  shown: boolean;
  /**
   * The one way to record an event: checks its payload against the event type's schema (the
   * kind's, lib/tasks/<kind>/events.ts, or a common one), records and applies it; returns false
   * in read-only stores and for a payload its schema refuses (nothing is recorded then).
   */
  dispatch: (event: TrajectoryEventInput) => boolean;
  /** logs item_shown once per store (React may run effects twice in development) */
  show: (viewport?: { width: number; height: number }) => void;
}

export interface ResponseSlice {
  length: number;
  confidenceScale: ConfidenceScaleName;
  slots: Array<number | null>;
  picked: ItemState["picked"];
  /** the answer (or draft) of a non-ordering kind: { choice }, { verdict }, a scene draft; null before the first */
  answer: unknown;
  confidence: number | null;
  zoomed: string | null;
  /** the storyboard frame shown large (with `zoomed` = the storyboard), or null */
  frame: number | null;
  submitted: boolean;
  submission: ResponseCreateInput | null;
  pick: (candidate: number, fromSlot: number | null, via: InputVia) => void;
  cancelPick: () => void;
  /** put a candidate into a slot (from the library, or moved from another slot) */
  place: (candidate: number, slot: number, via: InputVia) => void;
  /** move a slot's candidate to another slot: a swap when that one is filled */
  moveSlot: (from: number, to: number, via: InputVia) => void;
  clearSlot: (slot: number, via: InputVia) => void;
  setConfidence: (value: number) => void;
  zoom: (image: string, role: ImageRole, index: number) => void;
  closeZoom: (via: "escape" | "backdrop" | "button") => void;
  /** one frame of a storyboard (a composite image) large */
  zoomFrame: (image: string, frame: number, via: "click" | "keyboard") => void;
  /** GridWM Task A: choose a candidate letter */
  choose: (choice: Letter, via: ChoiceVia) => void;
  /** GridWM Task C: give a verdict */
  judge: (verdict: Verdict, via: ChoiceVia) => void;
  /** GridWM Task B: one edit of the scene draft; records nothing when it changes nothing */
  editScene: (op: SceneEditOp, path: string, value: unknown, via: ChoiceVia) => void;
  /** the answer that would be submitted now, or null while incomplete */
  currentAnswer: () => unknown;
  canSubmit: () => boolean;
  /** records `submitted`, hands the submission to onSubmit and returns it; null when incomplete */
  submit: () => ResponseCreateInput | null;
  /** read-only stores: show a given state (replay steps, the answer key) */
  showState: (state: Partial<ItemState>) => void;
}

export interface TimerSlice {
  idleCapMs: number;
  hidden: boolean;
  idle: boolean;
  tally: ActiveTimeTally | null;
  pageHidden: () => void;
  pageVisible: () => void;
  idleShown: (idleMs: number) => void;
  idleDismissed: () => void;
  /** ms since the last recorded event (null before the first) */
  sinceLastEvent: (now?: number) => number | null;
}

export type AnnotationState = TrajectorySlice & ResponseSlice & TimerSlice;
export type AnnotationStore = StoreApi<AnnotationState>;

type Slice<T> = StateCreator<AnnotationState, [], [], T>;

function itemStateOf(state: AnnotationState): ItemState {
  return { slots: state.slots, confidence: state.confidence, picked: state.picked, zoomed: state.zoomed, hidden: state.hidden, idle: state.idle, submitted: state.submitted, answer: state.answer, frame: state.frame };
}

function defaultRandomId(): string {
  return globalThis.crypto.randomUUID();
}

function createTrajectorySlice(init: AnnotationInit, startSeq: number): Slice<TrajectorySlice> {
  const now = init.now ?? Date.now;
  return (set, get) => ({
    assignmentId: init.assignmentId,
    kind: init.kind,
    readOnly: init.readOnly ?? false,
    nextSeq: startSeq,
    recorded: [],
    shown: false,
    dispatch({ type, payload }) {
      const state = get();
      if (state.readOnly || !isValidPayload(type, payload)) return false;
      const event = { assignmentId: state.assignmentId, seq: state.nextSeq, clientTime: Math.round(now()), type, payload } as TrajectoryEvent;
      const tally = addToActiveTime(state.tally, event, state.idleCapMs);
      const next = applyItemEvent(itemStateOf(state), event);
      set({ ...next, nextSeq: state.nextSeq + 1, tally, recorded: [...state.recorded, event] });
      init.sink?.(event, { nextSeq: state.nextSeq + 1, tally });
      return true;
    },
    show(viewport) {
      const state = get();
      if (state.shown || state.readOnly) return;
      set({ shown: true });
      if (state.submitted && init.reopen) state.dispatch({ type: "submission_reopened", payload: { submittedSeq: init.reopen.submittedSeq, reason: init.reopen.reason.slice(0, 500) } });
      get().dispatch({ type: "item_shown", payload: { kind: state.kind, resumed: state.nextSeq > 0, ...(viewport ? { viewport } : {}) } });
    },
  });
}

function createResponseSlice(init: AnnotationInit, resumed: ItemState, randomId: () => string): Slice<ResponseSlice> {
  return (set, get) => ({
    length: init.length ?? 0,
    confidenceScale: init.confidenceScale,
    slots: resumed.slots,
    picked: resumed.picked,
    answer: resumed.answer,
    confidence: resumed.confidence,
    zoomed: resumed.zoomed,
    frame: resumed.frame,
    submitted: resumed.submitted,
    submission: null,
    pick(candidate, fromSlot, via) {
      const state = get();
      if (state.submitted) return;
      state.dispatch({ type: "candidate_picked", payload: { candidate, fromSlot, via } });
    },
    cancelPick() {
      const state = get();
      if (!state.picked) return;
      state.dispatch({ type: "pick_cancelled", payload: { candidate: state.picked.candidate } });
    },
    place(candidate, slot, via) {
      const state = get();
      if (state.submitted || slot < 0 || slot >= state.length || candidate < 0 || candidate >= state.length) return;
      const fromSlot = state.slots.indexOf(candidate);
      if (fromSlot === slot) {
        // dropped where it already was: the drag ends, nothing changes
        if (state.picked) state.dispatch({ type: "pick_cancelled", payload: { candidate } });
        return;
      }
      if (fromSlot >= 0) {
        state.moveSlot(fromSlot, slot, via);
        return;
      }
      state.dispatch({ type: "slot_filled", payload: { slot, candidate, fromSlot: null, replaced: state.slots[slot], via } });
    },
    moveSlot(from, to, via) {
      const state = get();
      if (state.submitted || from === to) return;
      const candidate = state.slots[from];
      if (candidate === null || candidate === undefined || to < 0 || to >= state.length) return;
      const target = state.slots[to];
      if (target === null) state.dispatch({ type: "slot_filled", payload: { slot: to, candidate, fromSlot: from, replaced: null, via } });
      else state.dispatch({ type: "slots_swapped", payload: { from, to, fromCandidate: candidate, toCandidate: target, via } });
    },
    clearSlot(slot, via) {
      const state = get();
      const candidate = state.slots[slot];
      if (state.submitted || candidate === null || candidate === undefined) return;
      state.dispatch({ type: "slot_cleared", payload: { slot, candidate, via } });
    },
    setConfidence(value) {
      const state = get();
      const valid = state.confidenceScale === "LIKERT_5" ? Number.isInteger(value) && value >= 1 && value <= 5 : Number.isFinite(value) && value >= 0 && value <= 100;
      if (state.submitted || !valid || value === state.confidence) return;
      state.dispatch({ type: "confidence_changed", payload: { value, previous: state.confidence } });
    },
    zoom(image, role, index) {
      const state = get();
      if (state.zoomed === image) return;
      if (state.readOnly) {
        set({ zoomed: image });
        return;
      }
      state.dispatch({ type: "image_zoomed", payload: { image, role, index } });
    },
    closeZoom(via) {
      const state = get();
      if (state.zoomed === null) return;
      if (state.readOnly) {
        set({ zoomed: null });
        return;
      }
      state.dispatch({ type: "image_closed", payload: { image: state.zoomed, via } });
    },
    zoomFrame(image, frame, via) {
      const state = get();
      if (state.zoomed === image && state.frame === frame) return;
      if (state.readOnly) {
        set({ zoomed: image, frame });
        return;
      }
      state.dispatch({ type: "frame_zoomed", payload: { image, frame, via } });
    },
    choose(choice, via) {
      const state = get();
      const previous = (state.answer as { choice?: Letter } | null)?.choice ?? null;
      if (state.submitted || state.readOnly || previous === choice) return;
      state.dispatch({ type: "choice_made", payload: { choice, previous, via } });
    },
    judge(verdict, via) {
      const state = get();
      const previous = (state.answer as { verdict?: Verdict } | null)?.verdict ?? null;
      if (state.submitted || state.readOnly || previous === verdict) return;
      state.dispatch({ type: "verdict_made", payload: { verdict, previous, via } });
    },
    editScene(op, path, value, via) {
      const state = get();
      if (state.submitted || state.readOnly || !isSceneDraft(state.answer)) return;
      // an edit the draft refuses, or one that changes nothing, is not recorded
      const next = applySceneEdit(state.answer, { op, path, value });
      if (next === state.answer || JSON.stringify(next) === JSON.stringify(state.answer)) return;
      state.dispatch({ type: "scene_edited", payload: { op, path, value: (value ?? null) as TrajectoryPayload<"scene_edited">["value"], via } });
    },
    currentAnswer() {
      const state = get();
      if (init.answerOf) return state.answer === null ? null : (init.answerOf(state.answer) ?? null);
      return allSlotsFilled(state.slots) && state.slots.length > 0 ? { order: [...state.slots] } : null;
    },
    canSubmit() {
      const state = get();
      return !state.submitted && !state.readOnly && state.currentAnswer() !== null && state.confidence !== null;
    },
    submit() {
      const state = get();
      const answer = state.currentAnswer();
      if (!state.canSubmit() || state.confidence === null || answer === null) return null;
      const clientId = randomId();
      const confidence = state.confidence;
      const submitSeq = state.nextSeq;
      if (init.answerOf) state.dispatch({ type: "submitted", payload: { answer: answer as Record<string, TrajectoryPayload<"scene_edited">["value"]>, confidence, clientId } });
      else state.dispatch({ type: "submitted", payload: { order: (answer as { order: number[] }).order, confidence, clientId } });
      const tally = get().tally;
      const submission: ResponseCreateInput = {
        assignmentId: state.assignmentId,
        clientId,
        answer,
        confidence,
        wallMs: tallyWallMs(tally),
        activeMs: tally?.activeMs ?? 0,
        submitSeq,
      };
      set({ submission });
      init.onSubmit?.(submission);
      return submission;
    },
    showState(next) {
      if (!get().readOnly) return;
      set({ ...next });
    },
  });
}

function createTimerSlice(init: AnnotationInit, resumed: ItemState, tally: ActiveTimeTally | null, now: () => number): Slice<TimerSlice> {
  return (_set, get) => ({
    idleCapMs: init.idleCapMs,
    hidden: resumed.hidden,
    idle: resumed.idle,
    tally,
    pageHidden() {
      const state = get();
      if (state.hidden || state.submitted) return;
      state.dispatch({ type: "page_hidden", payload: {} });
    },
    pageVisible() {
      const state = get();
      if (!state.hidden || state.submitted) return;
      state.dispatch({ type: "page_visible", payload: {} });
    },
    idleShown(idleMs) {
      const state = get();
      if (state.idle || state.submitted) return;
      state.dispatch({ type: "idle_shown", payload: { idleMs: Math.max(0, Math.round(idleMs)) } });
    },
    idleDismissed() {
      const state = get();
      if (!state.idle) return;
      state.dispatch({ type: "idle_dismissed", payload: {} });
    },
    sinceLastEvent(at) {
      const last = get().tally?.last.clientTime;
      return last === undefined ? null : Math.max(0, (at ?? now()) - last);
    },
  });
}

/**
 * The store of one item. Resumes from `history` (events recorded before, possibly on another
 * device): the slots and confidence are replayed, and the next seq continues after the highest
 * one seen, so a reload never reuses a sequence number.
 */
export function createAnnotationStore(init: AnnotationInit): AnnotationStore {
  const now = init.now ?? Date.now;
  const history = [...(init.history ?? [])].sort((a, b) => a.seq - b.seq);
  let resumed = replayItemEvents(init.length ?? 0, history, init.initialAnswer ?? null);
  if (init.state) resumed = { ...resumed, ...init.state };
  const historySeq = history.length > 0 ? history[history.length - 1].seq + 1 : 0;
  const startSeq = Math.max(historySeq, init.nextSeq ?? 0);
  let tally: ActiveTimeTally | null = null;
  for (const event of history) tally = addToActiveTime(tally, event, init.idleCapMs);
  // a saved tally is newer when it counted past the history (events queued but not yet sent are in the history too)
  if (init.tally && (!tally || init.tally.last.clientTime >= tally.last.clientTime)) tally = init.tally;
  const randomId = init.randomId ?? defaultRandomId;
  return createStore<AnnotationState>()((...args) => ({
    ...createTrajectorySlice(init, startSeq)(...args),
    ...createResponseSlice(init, resumed, randomId)(...args),
    ...createTimerSlice(init, resumed, tally, now)(...args),
  }));
}

export { initialOrderingState };
