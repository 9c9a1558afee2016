import { z } from "zod";
import { oneBased, numberField, payloadField as field, pointerVia, viaSuffix } from "@/lib/tasks/shared/event-fields";
import type { KindEvents } from "@/lib/tasks/types";

/** EXPLORE-Bench: the scene editor's draft and the events that change it. */

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
  return (
    value !== null && typeof value === "object" && (value as { draft?: unknown }).draft === "explore" && Array.isArray((value as { objects?: unknown }).objects)
  );
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
      return {
        ...draft,
        objects: draft.objects.map((o) => (o === owner ? { ...o, relations: [...o.relations, { relation, target: objectId as number }] } : o)),
      };
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

const objectId = z.number().int().min(0).max(100_000);

const payloadSchemas = {
  /**
   * an object added to the scene draft with a new stable id (`object`), removed (with the
   * relations pointing at it), or one of its fields edited; attributes are the free-text `description`
   */
  scene_object_added: z.strictObject({ object: objectId, category: z.string().max(200), description: z.string().max(2000), via: pointerVia }),
  scene_object_removed: z.strictObject({ object: objectId, via: pointerVia }),
  scene_object_edited: z.strictObject({ object: objectId, field: z.enum(["category", "description"]), value: z.string().max(2000), via: pointerVia }),
  /** "<subject> <relation> <object>" added to the subject's relations (objects by id) */
  relation_added: z.strictObject({ subject: objectId, relation: z.string().trim().min(1).max(100), object: objectId, via: pointerVia }),
  /** the subject's relation at `index` removed */
  relation_removed: z.strictObject({ subject: objectId, index: z.number().int().min(0).max(999), via: pointerVia }),
  /** the reading position in the action list (0-based first and last visible action; at most one a second while scrolling) */
  actions_scrolled: z.strictObject({ first: objectId, last: objectId }),
  /** the action list's filter text (debounced) */
  actions_searched: z.strictObject({ query: z.string().max(200) }),
  /** free-text mode: the description as typed so far (debounced, and when the box loses focus) */
  scene_text_edited: z.strictObject({ value: z.string().max(20_000) }),
} as const;

export type ExploreEventType = keyof typeof payloadSchemas;

const isExploreEvent = (type: string): type is ExploreEventType => Object.hasOwn(payloadSchemas, type);

export const events = {
  payloadSchemas,
  reduce(state, event) {
    if (!isExploreEvent(event.type)) return null;
    if (!isExploreDraft(state.answer)) return {};
    return { answer: applyExploreEvent(state.answer, event.type, event.payload) };
  },
  describe(event) {
    const p = (event.payload ?? {}) as Record<string, unknown>;
    const via = viaSuffix(p);
    const object = (key: string) => numberField(p, key) ?? "?";
    switch (event.type) {
      case "scene_object_added":
        return `Added object #${object("object")} ${JSON.stringify(String(p.category ?? ""))}${p.description ? ` (${String(p.description)})` : ""}${via}`;
      case "scene_object_removed":
        return `Removed object #${object("object")}${via}`;
      case "scene_object_edited":
        return `Set ${String(p.field ?? "?")} of object #${object("object")} = ${JSON.stringify(String(p.value ?? ""))}${via}`;
      case "relation_added":
        return `Related object #${object("subject")} ${JSON.stringify(String(p.relation ?? ""))} object #${object("object")}${via}`;
      case "relation_removed":
        return `Removed relation ${oneBased(p, "index")} of object #${object("subject")}${via}`;
      case "actions_scrolled":
        return `Reading actions ${oneBased(p, "first")}–${oneBased(p, "last")}`;
      case "actions_searched":
        return p.query ? `Filtered the actions for ${JSON.stringify(String(p.query))}` : "Cleared the action filter";
      case "scene_text_edited": {
        const value = String(p.value ?? "");
        return `Description typed (${value.length} characters): ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}`;
      }
      default:
        return null;
    }
  },
} satisfies KindEvents<typeof payloadSchemas>;
