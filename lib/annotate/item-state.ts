import { applyOrderingEvent, initialOrderingState, type OrderingEventLike, type OrderingState } from "@/lib/annotate/ordering-state";
import { applySceneEdit, isSceneDraft, type SceneEditOp } from "@/lib/annotate/scene-form";
import { LETTERS, VERDICTS } from "@/lib/tasks/shared/gridwm/common";
import { applyEsiEvent, isEsiDraft } from "@/lib/esi/belief";
import { applyEgoEvent, isEgoDraft } from "@/lib/ego2world/notes";

/**
 * The state of any item as a pure function of its trajectory: the ordering state of slot-filling
 * kinds (ENACT; lib/annotate/ordering-state.ts, unchanged) plus `answer`, the answer (or draft) of
 * every other kind, changed only by answer events:
 * - `choice_made` (GridWM Task A): answer = { choice };
 * - `verdict_made` (GridWM Task C): answer = { verdict };
 * - `scene_edited` (GridWM Task B): answer = the scene draft after the edit (lib/annotate/scene-form.ts);
 * - `scene_object_added|removed|edited`, `relation_added|removed`, `actions_scrolled`,
 *   `actions_searched`, `scene_text_edited` (EXPLORE-Bench): answer = the explore draft after the change (`applyExploreEvent`);
 * - `note_added|edited|removed`, `episode_finished` (Ego2World): answer = the notes draft after the change (`applyEgoEvent`);
 * and `frame`, the storyboard frame shown large (`frame_zoomed`).
 *
 * The browser's store applies each event it logs through `applyItemEvent`, resume and replay run
 * `replayItemEvents` over the stored events: what was recorded is what was shown.
 */

export interface ItemState extends OrderingState {
  /** the kind's answer (or draft) for non-ordering kinds; null before the first answer event */
  answer: unknown;
  /** the frame of a storyboard shown large (with `zoomed` = the storyboard), or null */
  frame: number | null;
}

export function initialItemState(length: number, answer: unknown = null): ItemState {
  return { ...initialOrderingState(length), answer, frame: null };
}

function field(payload: unknown, name: string): unknown {
  return payload !== null && typeof payload === "object" ? (payload as Record<string, unknown>)[name] : undefined;
}

/** The state after one event; unknown or malformed events leave it unchanged. */
export function applyItemEvent(state: ItemState, event: OrderingEventLike): ItemState {
  const p = event.payload;
  // ESI-Bench: belief_changed sets "my current answer" and confidence, play_step its step (lib/esi/belief.ts)
  if (isEsiDraft(state.answer)) {
    const esi = applyEsiEvent(state.answer, state.confidence, event);
    if (esi) return esi.answer === state.answer && esi.confidence === state.confidence ? state : { ...state, ...esi };
  }
  switch (event.type) {
    case "choice_made": {
      const choice = field(p, "choice");
      return (LETTERS as readonly unknown[]).includes(choice) ? { ...state, answer: { choice } } : state;
    }
    case "verdict_made": {
      const verdict = field(p, "verdict");
      return (VERDICTS as readonly unknown[]).includes(verdict) ? { ...state, answer: { verdict } } : state;
    }
    case "scene_edited": {
      if (!isSceneDraft(state.answer)) return state;
      const op = field(p, "op");
      const path = field(p, "path");
      if ((op !== "set" && op !== "add" && op !== "remove") || typeof path !== "string") return state;
      const answer = applySceneEdit(state.answer, { op: op as SceneEditOp, path, value: field(p, "value") });
      return answer === state.answer ? state : { ...state, answer };
    }
    case "scene_object_added":
    case "scene_object_removed":
    case "scene_object_edited":
    case "relation_added":
    case "relation_removed":
    case "actions_scrolled":
    case "actions_searched":
    case "scene_text_edited": {
      if (!isExploreDraft(state.answer)) return state;
      const answer = applyExploreEvent(state.answer, event.type, p);
      return answer === state.answer ? state : { ...state, answer };
    }
    case "note_added":
    case "note_edited":
    case "note_removed":
    case "episode_finished": {
      // Ego2World notes (lib/ego2world/notes.ts)
      if (!isEgoDraft(state.answer)) return state;
      const answer = applyEgoEvent(state.answer, event.type, p);
      return answer === state.answer ? state : { ...state, answer };
    }
    case "frame_zoomed": {
      const image = field(p, "image");
      const frame = field(p, "frame");
      return typeof image === "string" && Number.isInteger(frame) ? { ...state, zoomed: image, frame: frame as number } : state;
    }
    case "image_zoomed":
    case "image_closed":
    case "item_shown":
      return { ...(applyOrderingEvent(state, event) as ItemState), frame: null };
    default:
      return applyOrderingEvent(state, event) as ItemState;
  }
}

export function replayItemEvents(length: number, events: readonly OrderingEventLike[], initialAnswer: unknown = null, from: ItemState = initialItemState(length, initialAnswer)): ItemState {
  return events.reduce(applyItemEvent, from);
}

// ---------------------------------------------------------------------------------------------
// EXPLORE-Bench (`explore-scene`): the scene editor's draft

/** A relation of a draft object: `<subject> <relation> <target>`, the target by object id. */
export interface ExploreDraftRelation {
  relation: string;
  target: number;
}

/** One object of the draft; `id` is stable (relations point at it), the answer's ref is computed from the list order. */
export interface ExploreDraftObject {
  id: number;
  category: string;
  description: string;
  relations: ExploreDraftRelation[];
}

/**
 * The scene editor's state: the objects, the next free id, and the reading position in the action
 * list (the first and last action visible, the filter typed), kept so that a resumed item opens
 * where the person was reading. Only `objects` goes into the answer.
 */
export interface ExploreDraft {
  draft: "explore";
  objects: ExploreDraftObject[];
  nextId: number;
  reading: { first: number; last: number } | null;
  query: string;
  /** free-text mode (a study setting): the description as typed; unused by the scene editor */
  text?: string;
}

export function emptyExploreDraft(): ExploreDraft {
  return { draft: "explore", objects: [], nextId: 0, reading: null, query: "" };
}

export function isExploreDraft(value: unknown): value is ExploreDraft {
  return value !== null && typeof value === "object" && (value as { draft?: unknown }).draft === "explore" && Array.isArray((value as { objects?: unknown }).objects);
}

const isId = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/**
 * The draft after one EXPLORE event; the same draft (===) when the event is malformed or changes
 * nothing. Removing an object removes the relations pointing at it; relations need an existing
 * subject and another existing object, and a non-empty relation word.
 */
export function applyExploreEvent(draft: ExploreDraft, type: string, payload: unknown): ExploreDraft {
  const objectId = field(payload, "object");
  switch (type) {
    case "scene_object_added": {
      const category = text(field(payload, "category"));
      const description = text(field(payload, "description")) ?? "";
      if (!isId(objectId) || category === null || draft.objects.some((o) => o.id === objectId)) return draft;
      return { ...draft, objects: [...draft.objects, { id: objectId, category, description, relations: [] }], nextId: Math.max(draft.nextId, objectId + 1) };
    }
    case "scene_object_removed": {
      if (!draft.objects.some((o) => o.id === objectId)) return draft;
      const objects = draft.objects
        .filter((o) => o.id !== objectId)
        .map((o) => (o.relations.some((r) => r.target === objectId) ? { ...o, relations: o.relations.filter((r) => r.target !== objectId) } : o));
      return { ...draft, objects };
    }
    case "scene_object_edited": {
      const name = field(payload, "field");
      const value = text(field(payload, "value"));
      const target = draft.objects.find((o) => o.id === objectId);
      if (!target || value === null || (name !== "category" && name !== "description") || target[name] === value) return draft;
      return { ...draft, objects: draft.objects.map((o) => (o === target ? { ...o, [name]: value } : o)) };
    }
    case "relation_added": {
      const subject = field(payload, "subject");
      const relation = text(field(payload, "relation"))?.trim() ?? "";
      const owner = draft.objects.find((o) => o.id === subject);
      if (!owner || relation === "" || objectId === subject || !draft.objects.some((o) => o.id === objectId)) return draft;
      if (owner.relations.some((r) => r.relation === relation && r.target === objectId)) return draft;
      return { ...draft, objects: draft.objects.map((o) => (o === owner ? { ...o, relations: [...o.relations, { relation, target: objectId as number }] } : o)) };
    }
    case "relation_removed": {
      const subject = field(payload, "subject");
      const index = field(payload, "index");
      const owner = draft.objects.find((o) => o.id === subject);
      if (!owner || !isId(index) || index >= owner.relations.length) return draft;
      return { ...draft, objects: draft.objects.map((o) => (o === owner ? { ...o, relations: o.relations.filter((_, i) => i !== index) } : o)) };
    }
    case "actions_scrolled": {
      const first = field(payload, "first");
      const last = field(payload, "last");
      if (!isId(first) || !isId(last) || last < first) return draft;
      if (draft.reading?.first === first && draft.reading.last === last) return draft;
      return { ...draft, reading: { first, last } };
    }
    case "actions_searched": {
      const query = text(field(payload, "query"));
      return query === null || query === draft.query ? draft : { ...draft, query };
    }
    case "scene_text_edited": {
      const value = text(field(payload, "value"));
      return value === null || value === (draft.text ?? "") ? draft : { ...draft, text: value };
    }
    default:
      return draft;
  }
}
