import { describe, expect, it } from "vitest";
import { createAnnotationStore, type AnnotationInit, type AnnotationStore } from "@/lib/client/annotation-store";
import { replayItemEvents } from "@/lib/tasks/item-state";
import { emptyOrderingDraft, replayOrderingEvents } from "@/lib/tasks/shared/enact/ordering-draft";
import { trajectoryEventSchema, type ResponseCreateInput, type TrajectoryEvent } from "@/lib/validations/annotate";
import { orderingUi } from "@/components/tasks/shared/enact/ui";
import { orderingActions, slotsOf } from "@/components/tasks/shared/enact/ordering-store";
import { chooseAction } from "@/components/tasks/gridwm-next-obs/actions";
import { judgeActions } from "@/components/tasks/gridwm-judge/actions";
import { editSceneAction } from "@/components/tasks/gridwm-scene-json/actions";

/**
 * The store knows no kind; these tests drive it through kinds' own interactions (each dispatches
 * its event): ENACT's slots (3 of them) by default, GridWM's answer controls, explore's draft.
 */
const enact = orderingUi(() => 3);
const answerKind = { submittedFields: undefined };

function setup(overrides: Partial<AnnotationInit> = {}) {
  let clock = 1_700_000_000_000;
  const sent: TrajectoryEvent[] = [];
  const submissions: ResponseCreateInput[] = [];
  const store = createAnnotationStore({
    assignmentId: "asg1",
    kind: "enact-forward",
    initialAnswer: enact.initialAnswer({}),
    answerOf: (answer) => enact.answerOf(answer, {}),
    submittedFields: enact.submittedFields,
    confidenceScale: "LIKERT_5",
    idleCapMs: 60_000,
    sink: (event) => sent.push(event),
    onSubmit: (input) => submissions.push(input),
    now: () => clock,
    randomId: () => "6f1c1a52-3c1e-4d5e-9a43-2b0f7f0a9c11",
    ...overrides,
  });
  const tick = (ms: number) => {
    clock += ms;
  };
  /** runs an action and returns the events it recorded */
  const act = (fn: () => void) => {
    const before = sent.length;
    fn();
    return sent.slice(before);
  };
  return { store, sent, submissions, tick, act, o: orderingActions(store) };
}

const slots = (store: AnnotationStore) => slotsOf(store.getState());

describe("createAnnotationStore: each action records exactly one event", () => {
  it("records one valid event per interaction, with gapless seqs from 0", () => {
    const { store, sent, act, tick, o } = setup();
    const s = () => store.getState();
    const cases: Array<[string, () => void]> = [
      ["item_shown", () => s().show({ width: 1280, height: 720 })],
      ["image_zoomed", () => s().zoom("/api/assets/a", "initial", 0)],
      ["image_closed", () => s().closeZoom("escape")],
      ["candidate_picked", () => o.pick(2, null, "drag")],
      ["slot_filled", () => o.place(2, 0, "drag")],
      ["slot_filled", () => o.place(0, 1, "keyboard")],
      ["slots_swapped", () => o.moveSlot(0, 1, "drag")],
      ["slot_filled", () => o.moveSlot(1, 2, "drag")], // a move into an empty slot
      ["slot_cleared", () => o.clearSlot(2, "click")],
      ["candidate_picked", () => o.pick(1, null, "touch")],
      ["pick_cancelled", () => o.cancelPick()],
      ["page_hidden", () => s().pageHidden()],
      ["page_visible", () => s().pageVisible()],
      ["idle_shown", () => s().idleShown(61_000)],
      ["idle_dismissed", () => s().idleDismissed()],
      ["confidence_changed", () => s().setConfidence(4)],
    ];
    for (const [type, fn] of cases) {
      tick(1000);
      const events = act(fn);
      expect(
        events.map((e) => e.type),
        type,
      ).toEqual([type]);
    }
    expect(sent.map((e) => e.seq)).toEqual(sent.map((_, i) => i));
    for (const event of sent) expect(trajectoryEventSchema.safeParse(event).success, event.type).toBe(true);
  });

  it("records nothing for actions that change nothing", () => {
    const { store, act, o } = setup();
    const s = () => store.getState();
    s().show();
    expect(act(() => s().show())).toEqual([]); // React runs effects twice in development
    expect(act(() => o.clearSlot(0, "click"))).toEqual([]); // empty slot
    expect(act(() => o.cancelPick())).toEqual([]); // nothing picked
    expect(act(() => s().closeZoom("escape"))).toEqual([]); // nothing zoomed
    expect(act(() => s().pageVisible())).toEqual([]); // already visible
    expect(act(() => s().idleDismissed())).toEqual([]);
    expect(act(() => o.moveSlot(0, 1, "drag"))).toEqual([]); // empty source slot
    expect(act(() => s().setConfidence(7))).toEqual([]); // off the 1-5 scale
    expect(act(() => o.place(5, 0, "drag"))).toEqual([]); // no such candidate
    o.place(1, 0, "keyboard");
    expect(act(() => o.place(1, 0, "keyboard"))).toEqual([]); // already there
    s().setConfidence(3);
    expect(act(() => s().setConfidence(3))).toEqual([]);
    expect(act(() => s().submit())).toEqual([]); // incomplete
  });

  it("puts a replaced candidate back in the library and a moved one out of its old slot", () => {
    const { store, o } = setup();
    o.place(0, 0, "drag");
    o.place(1, 0, "drag");
    expect(slots(store)).toEqual([1, null, null]);
    o.place(1, 2, "drag");
    expect(slots(store)).toEqual([null, null, 1]);
  });

  it("submits once with the order, the confidence, the times and the seq of the submitted event", () => {
    const { store, sent, submissions, tick, act, o } = setup({ confidenceScale: "PERCENT" });
    const s = () => store.getState();
    s().show();
    tick(5_000);
    o.place(2, 0, "drag");
    tick(5_000);
    o.place(0, 1, "drag");
    tick(120_000); // a break: capped at 60 s
    o.place(1, 2, "drag");
    expect(s().canSubmit()).toBe(false); // no confidence yet: none is pre-selected
    s().setConfidence(80);
    tick(1_000);
    const events = act(() => s().submit());
    expect(events.map((e) => e.type)).toEqual(["submitted"]);
    expect(submissions).toHaveLength(1);
    expect(submissions[0]).toEqual({
      assignmentId: "asg1",
      clientId: "6f1c1a52-3c1e-4d5e-9a43-2b0f7f0a9c11",
      answer: { order: [2, 0, 1] },
      confidence: 80,
      wallMs: 131_000,
      activeMs: 5_000 + 5_000 + 60_000 + 1_000,
      submitSeq: sent[sent.length - 1].seq,
    });
    expect(act(() => s().submit())).toEqual([]);
    expect(act(() => o.place(0, 0, "drag"))).toEqual([]); // frozen after submitting
    expect(submissions).toHaveLength(1);
  });

  it("resumes from earlier events: the same slots, the next seq, a resumed item_shown", () => {
    const first = setup();
    const s1 = () => first.store.getState();
    s1().show();
    first.o.place(2, 0, "drag");
    s1().setConfidence(2);
    const history = first.sent.map((e) => ({ seq: e.seq, type: e.type, payload: e.payload, clientTime: e.clientTime }));
    const second = setup({ history: [...history].reverse() });
    const s2 = () => second.store.getState();
    expect(slots(second.store)).toEqual([2, null, null]);
    expect(s2().confidence).toBe(2);
    s2().show();
    expect(second.sent[0]).toMatchObject({ seq: 3, type: "item_shown", payload: { resumed: true } });
    // a saved cursor ahead of the history (events lost elsewhere) still wins
    const third = setup({ history, nextSeq: 10 });
    third.store.getState().show();
    expect(third.sent[0].seq).toBe(10);
  });

  it("does not count the time no tab was open: a reopened item starts counting at its item_shown", () => {
    const first = setup();
    const s1 = () => first.store.getState();
    s1().show();
    first.tick(5_000);
    first.o.place(2, 0, "drag");
    // the tab is closed here without any event; the person comes back 40 s later (under the idle cap)
    const history = first.sent.map((e) => ({ seq: e.seq, type: e.type, payload: e.payload, clientTime: e.clientTime }));
    const second = setup({ history, now: () => history[history.length - 1].clientTime + 40_000 });
    second.store.getState().show();
    expect(second.store.getState().tally?.activeMs).toBe(5_000);
  });

  it("read-only stores record nothing but show given states", () => {
    const { store, sent, o } = setup({ readOnly: true });
    const s = () => store.getState();
    s().show();
    o.place(0, 0, "drag");
    s().setConfidence(3);
    expect(sent).toEqual([]);
    s().showState({ answer: replayOrderingEvents(3, [{ type: "slot_filled", payload: { slot: 1, candidate: 2 } }]) });
    expect(slots(store)).toEqual([null, 2, null]);
  });

  it("replaying the recorded events gives the live state", () => {
    const { store, sent, o } = setup();
    const s = () => store.getState();
    s().show();
    o.place(2, 0, "drag");
    o.place(1, 1, "keyboard");
    o.moveSlot(0, 1, "drag");
    o.place(0, 2, "drag");
    o.clearSlot(0, "click");
    s().setConfidence(5);
    const replayed = replayItemEvents(sent, emptyOrderingDraft(3));
    expect(replayed.answer).toEqual(s().answer);
    expect(slots(store)).toEqual([null, 2, 0]);
    expect(replayed.confidence).toBe(s().confidence);
  });
});

describe("createAnnotationStore: answer kinds (GridWM)", () => {
  const letterAnswerOf = (answer: unknown) => ((answer as { choice?: string } | null)?.choice ? answer : null);

  it("records choice_made once per change and submits { choice } with `answer` in the submitted event", () => {
    const { store, sent, submissions, act } = setup({ kind: "gridwm-next-obs", ...answerKind, initialAnswer: null, answerOf: letterAnswerOf });
    const s = () => store.getState();
    const choose = chooseAction(store);
    s().show();
    expect(s().canSubmit()).toBe(false);
    expect(act(() => choose("B", "click")).map((e) => e.type)).toEqual(["choice_made"]);
    expect(act(() => choose("B", "keyboard"))).toEqual([]); // no change
    expect(act(() => choose("D", "keyboard"))[0].payload).toEqual({ choice: "D", previous: "B", via: "keyboard" });
    s().setConfidence(4);
    const submission = s().submit();
    expect(submission?.answer).toEqual({ choice: "D" });
    expect(submissions).toHaveLength(1);
    expect(sent.at(-1)).toMatchObject({ type: "submitted", payload: { answer: { choice: "D" }, confidence: 4 } });
    for (const event of sent) expect(trajectoryEventSchema.safeParse(event).success, event.type).toBe(true);
    expect(act(() => choose("A", "click"))).toEqual([]); // submitted
  });

  it("records verdicts and frame zooms, and resumes them from history", () => {
    const { store, sent } = setup({ kind: "gridwm-judge", ...answerKind, initialAnswer: null, answerOf: (a) => a });
    const s = () => store.getState();
    const { judge, zoomFrame } = judgeActions(store);
    s().show();
    zoomFrame("/api/assets/s", 2, "click");
    zoomFrame("/api/assets/s", 3, "keyboard");
    s().closeZoom("escape");
    judge("Fail", "keyboard");
    judge("Success", "click");
    expect(sent.map((e) => e.type)).toEqual(["item_shown", "frame_zoomed", "frame_zoomed", "image_closed", "verdict_made", "verdict_made"]);
    for (const event of sent) expect(trajectoryEventSchema.safeParse(event).success, event.type).toBe(true);
    const resumed = createAnnotationStore({
      assignmentId: "asg1",
      kind: "gridwm-judge",
      confidenceScale: "LIKERT_5",
      idleCapMs: 60_000,
      history: sent,
      initialAnswer: null,
      answerOf: (a) => a,
    });
    expect(resumed.getState().answer).toEqual({ verdict: "Success" });
    expect(resumed.getState().nextSeq).toBe(sent.length);
  });

  it("records scene edits only when they change the draft", async () => {
    const { initialSceneDraft, sceneAnswerOf, isSceneDraft } = await import("@/lib/tasks/shared/gridwm/scene-form");
    const { store, sent, act } = setup({
      kind: "gridwm-scene-json",
      ...answerKind,
      initialAnswer: initialSceneDraft(),
      answerOf: (a) => (isSceneDraft(a) ? sceneAnswerOf(a) : null),
    });
    const s = () => store.getState();
    const editScene = editSceneAction(store);
    expect(act(() => editScene("set", "agent.pos", [3, 3], "click")).map((e) => e.type)).toEqual(["scene_edited"]);
    expect(act(() => editScene("set", "agent.pos", [3, 3], "click"))).toEqual([]);
    expect(act(() => editScene("set", "agent.dir", 9, "keyboard"))).toEqual([]);
    expect(act(() => editScene("add", "objects", { type: "ball", pos: [3, 2], color: "red", state: 0 }, "click"))).toHaveLength(1);
    s().setConfidence(2);
    expect(s().submit()?.answer).toEqual({
      agent: { pos: [3, 3], dir: 0, carrying: null },
      front_cell: { pos: [3, 2], type: "empty", state: 0 },
      objects: [{ type: "ball", pos: [3, 2], color: "red", state: 0 }],
    });
    for (const event of sent) expect(trajectoryEventSchema.safeParse(event).success, event.type).toBe(true);
  });
});

describe("a submission that never reached the server", () => {
  const history = [
    { seq: 0, type: "item_shown", payload: { kind: "enact-forward", resumed: false }, clientTime: 1 },
    { seq: 1, type: "slot_filled", payload: { slot: 0, candidate: 1, via: "drag" }, clientTime: 2 },
    { seq: 2, type: "slot_filled", payload: { slot: 1, candidate: 2, via: "drag" }, clientTime: 3 },
    { seq: 3, type: "slot_filled", payload: { slot: 2, candidate: 0, via: "drag" }, clientTime: 4 },
    { seq: 4, type: "confidence_changed", payload: { value: 4, previous: null }, clientTime: 5 },
    { seq: 5, type: "submitted", payload: { order: [1, 2, 0], confidence: 4, clientId: "6f1c1a52-3c1e-4d5e-9a43-2b0f7f0a9c11" }, clientTime: 6 },
  ];

  it("without the server's word the item stays locked", () => {
    const { store } = setup({ history });
    store.getState().show();
    expect(store.getState().submitted).toBe(true);
    expect(store.getState().canSubmit()).toBe(false);
  });

  it("reopened: showing it records submission_reopened, keeps the answer, and Submit works again", () => {
    const { store, sent, submissions } = setup({ history, reopen: { submittedSeq: 5, reason: "never reached the server" } });
    store.getState().show();
    expect(sent.map((e) => [e.seq, e.type])).toEqual([
      [6, "submission_reopened"],
      [7, "item_shown"],
    ]);
    for (const event of sent) expect(trajectoryEventSchema.safeParse(event).success).toBe(true);
    expect(store.getState().submitted).toBe(false);
    expect(slots(store)).toEqual([1, 2, 0]);
    expect(store.getState().canSubmit()).toBe(true);
    store.getState().submit();
    expect(submissions).toHaveLength(1);
    expect(submissions[0]).toMatchObject({ submitSeq: 8, answer: { order: [1, 2, 0] } });
    // a replay of the whole trajectory ends submitted, and says what happened in between
    const replayed = replayItemEvents([...history, ...sent], emptyOrderingDraft(3));
    expect(replayed.submitted).toBe(true);
    expect(replayItemEvents([...history, sent[0]], emptyOrderingDraft(3)).submitted).toBe(false);
  });
});

describe("createAnnotationStore: dispatch, the one way to record an event", () => {
  it("records an event its type's schema accepts, and nothing for one it refuses or an unknown type", () => {
    const { store, sent, act } = setup({
      kind: "explore-scene",
      ...answerKind,
      initialAnswer: { draft: "explore", objects: [], nextId: 0, reading: null, query: "" },
      answerOf: () => null,
    });
    const s = () => store.getState();
    expect(
      act(() => s().dispatch({ type: "scene_object_added", payload: { object: 0, category: "bowl", description: "", via: "click" } })).map((e) => e.type),
    ).toEqual(["scene_object_added"]);
    expect((s().answer as { objects: unknown[] }).objects).toHaveLength(1);
    expect(act(() => s().dispatch({ type: "relation_added", payload: { subject: 0, relation: " ", object: 0, via: "click" } }))).toEqual([]);
    expect(act(() => s().dispatch({ type: "scene_object_added", payload: { object: -1, category: "cup", description: "", via: "click" } }))).toEqual([]);
    expect(s().dispatch({ type: "no_such_event", payload: {} } as never)).toBe(false);
    for (const event of sent) expect(trajectoryEventSchema.safeParse(event).success, event.type).toBe(true);
  });
});
