import { createStore, type StateCreator, type StoreApi } from "zustand/vanilla";
import { applyItemEvent, replayItemEvents, type ItemState } from "@/lib/tasks/item-state";
import { addToActiveTime, tallyWallMs, type ActiveTimeTally } from "@/lib/timing/active-time";
import { isValidPayload, type ResponseCreateInput, type TrajectoryEvent, type TrajectoryEventInput, type TrajectoryPayload } from "@/lib/validations/annotate";
import type { AssignmentCursor } from "@/lib/client/trajectory-queue";

/**
 * One item's annotation state (zustand vanilla store, STYLE.md section 4): created once per item
 * by AnnotationStoreProvider, never global. Three slices:
 * - trajectory: the per-assignment sequence number and `dispatch`, the one place events are made;
 * - response: the kind's answer (or draft), confidence, the lightbox, submitting;
 * - timer: visibility, the idle overlay and the running active-time tally.
 *
 * The store knows no kind: a kind's interactions are its own events (lib/tasks/<kind>/events.ts),
 * which its task UI dispatches; the kind's reducer turns them into its draft answer. Every
 * user-facing action records exactly one event (or none when it changes nothing), and the state
 * changes only through `applyItemEvent` of that event, so a replay of the recorded trajectory
 * gives the same states the person saw.
 */

export type ConfidenceScaleName = "LIKERT_5" | "PERCENT";
export type ImageRole = "initial" | "candidate" | "observation" | "slot" | "storyboard" | "composite";

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
  /**
   * The kind's answer (or draft) before any of its events (e.g. the empty scene form, the empty
   * slots), and `answerOf`, the answer to submit from it, null while incomplete
   * (components/tasks/registry.ts storeInitOf gives both from the kind's UI).
   */
  initialAnswer: unknown;
  answerOf: (answer: unknown) => unknown;
  /** how the `submitted` event carries the answer: `{ answer }` unless the kind says otherwise (TaskUi.submittedFields) */
  submittedFields?: (answer: unknown) => SubmittedAnswerFields;
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
  confidenceScale: ConfidenceScaleName;
  /** the kind's answer (or draft), changed by its events only */
  answer: unknown;
  confidence: number | null;
  zoomed: string | null;
  /** the storyboard frame shown large (with `zoomed` = the storyboard), or null */
  frame: number | null;
  submitted: boolean;
  submission: ResponseCreateInput | null;
  setConfidence: (value: number) => void;
  zoom: (image: string, role: ImageRole, index: number) => void;
  closeZoom: (via: "escape" | "backdrop" | "button") => void;
  /** the answer that would be submitted now, or null while incomplete */
  currentAnswer: () => unknown;
  canSubmit: () => boolean;
  /** records `submitted`, hands the submission to onSubmit and returns it; null when incomplete */
  submit: () => ResponseCreateInput | null;
  /** read-only stores: show a given state (replay steps, the answer key, a part of an image shown large) */
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

/** The answer's part of the `submitted` event: `{ answer }`, or a kind's own form (TaskUi.submittedFields); its schema checks it. */
export interface SubmittedAnswerFields {
  order?: number[];
  answer?: Record<string, unknown>;
}

function itemStateOf(state: AnnotationState): ItemState {
  return {
    answer: state.answer,
    confidence: state.confidence,
    zoomed: state.zoomed,
    frame: state.frame,
    hidden: state.hidden,
    idle: state.idle,
    submitted: state.submitted,
  };
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
      if (state.submitted && init.reopen)
        state.dispatch({ type: "submission_reopened", payload: { submittedSeq: init.reopen.submittedSeq, reason: init.reopen.reason.slice(0, 500) } });
      get().dispatch({ type: "item_shown", payload: { kind: state.kind, resumed: state.nextSeq > 0, ...(viewport ? { viewport } : {}) } });
    },
  });
}

function createResponseSlice(init: AnnotationInit, resumed: ItemState, randomId: () => string): Slice<ResponseSlice> {
  return (set, get) => ({
    confidenceScale: init.confidenceScale,
    answer: resumed.answer,
    confidence: resumed.confidence,
    zoomed: resumed.zoomed,
    frame: resumed.frame,
    submitted: resumed.submitted,
    submission: null,
    setConfidence(value) {
      const state = get();
      const valid =
        state.confidenceScale === "LIKERT_5" ? Number.isInteger(value) && value >= 1 && value <= 5 : Number.isFinite(value) && value >= 0 && value <= 100;
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
    currentAnswer() {
      const state = get();
      return state.answer === null ? null : (init.answerOf(state.answer) ?? null);
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
      const fields: SubmittedAnswerFields = init.submittedFields ? init.submittedFields(answer) : { answer: answer as Record<string, unknown> };
      state.dispatch({ type: "submitted", payload: { ...fields, confidence, clientId } as TrajectoryPayload<"submitted"> });
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
 * device): the answer and confidence are replayed, and the next seq continues after the highest
 * one seen, so a reload never reuses a sequence number.
 */
export function createAnnotationStore(init: AnnotationInit): AnnotationStore {
  const now = init.now ?? Date.now;
  const history = [...(init.history ?? [])].sort((a, b) => a.seq - b.seq);
  let resumed = replayItemEvents(history, init.initialAnswer ?? null);
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
