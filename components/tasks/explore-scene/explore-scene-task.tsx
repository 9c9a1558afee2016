"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  applyExploreEvent,
  emptyExploreDraft,
  isExploreDraft,
  type ExploreDraft,
  type ExploreDraftObject,
  type ExploreEventType,
} from "@/lib/tasks/explore-scene/events";
import type { TrajectoryEventInput } from "@/lib/validations/annotate";
import { useAnnotationStore, useAnnotationStoreApi } from "@/components/annotate/annotation-store-provider";
import { Lightbox } from "@/components/tasks/shared/lightbox";
import { TaskPanel, ZoomableImage } from "@/components/tasks/shared/panel";
import { viaOf } from "@/components/tasks/shared/task-keys";
import type { TaskUiProps } from "@/components/tasks/shared/types";
import { EXPLORE_ANSWER_LIMITS } from "@/lib/tasks/shared/explore/limits";
import {
  ATTRIBUTE_CHIPS,
  COMMON_RELATIONS,
  exploreDraftProblem,
  exploreTextProblem,
  normalizeCategory,
  objectLabels,
  sceneText,
  type ExploreView,
} from "@/components/tasks/explore-scene/explore-draft";

/**
 * EXPLORE-Bench final-scene prediction (`explore-scene`): the initial image (opens large), the
 * numbered atomic actions (scroll inside their panel, filter box; the reading position is kept in
 * the draft and recorded as `actions_scrolled`, at most one a second, and `actions_searched`), and
 * the scene editor: objects (category with type-ahead from the item's vocabulary and the
 * categories already used; attributes as free text with chips), relations picked as subject,
 * relation word and object among the scene's objects. Every change is one event
 * (lib/tasks/item-state.ts applyExploreEvent); the answer and its text follow from the draft.
 * Keyboard: Enter adds (in the new-object and new-relation fields), Delete removes the focused
 * object or relation row. In a study's free-text mode (view.freeText) a text box replaces the
 * scene editor: the description is recorded as `scene_text_edited` once typing pauses and when
 * the box loses focus, and submitted as `{objects: [], text}`.
 */

type Via = "click" | "keyboard" | "touch";
type ExploreEvent = Extract<TrajectoryEventInput, { type: ExploreEventType }>;

const inputClass =
  "h-10 min-w-0 lg:h-7 rounded border border-slate-300 bg-white px-1.5 text-xs focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500 disabled:bg-slate-50";
const buttonClass =
  "h-10 shrink-0 lg:h-7 rounded bg-brand-600 px-2 text-xs font-medium text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-300";
const SCROLL_EVERY_MS = 1000;
const SEARCH_AFTER_MS = 600;

export default function ExploreSceneTask({ view }: TaskUiProps) {
  const item = view as ExploreView;
  const stored = useAnnotationStore((s) => s.answer);
  const draft: ExploreDraft = isExploreDraft(stored) ? stored : emptyExploreDraft();
  const zoom = useAnnotationStore((s) => s.zoom);
  const locked = useAnnotationStore((s) => s.readOnly || s.submitted);
  const api = useAnnotationStoreApi();

  /** records one EXPLORE event when it changes the draft (and nothing otherwise) */
  const act = useCallback(
    (event: ExploreEvent) => {
      const state = api.getState();
      if (state.readOnly || state.submitted || !isExploreDraft(state.answer)) return false;
      if (applyExploreEvent(state.answer, event.type, event.payload) === state.answer) return false;
      return state.dispatch(event);
    },
    [api],
  );

  return (
    // below lg (phones): one column, the page scrolls; the action list keeps a scroll of its own
    <div
      className="flex flex-col gap-2 lg:grid lg:h-full lg:min-h-0 lg:grid-cols-[minmax(220px,300px)_minmax(260px,1fr)_minmax(380px,1.3fr)] xl:gap-3"
      data-testid="explore-task"
    >
      <TaskPanel title="Initial scene" label="Initial scene" bodyClassName="flex flex-col gap-2">
        <ZoomableImage
          src={item.initialImage}
          alt="The initial scene"
          onZoom={() => zoom(item.initialImage, "initial", 0)}
          className="mx-auto aspect-[4/3] w-full max-w-md shrink-0 lg:max-w-none"
        />
        {item.freeText ? (
          <p className="text-[11px] leading-snug text-slate-500">
            Read the actions in order and describe the scene <strong>after the last one</strong> in the text box: its objects, their attributes and how they
            relate.
          </p>
        ) : (
          <p className="text-[11px] leading-snug text-slate-500">
            Read the actions in order and describe the scene <strong>after the last one</strong>: its objects, their attributes (colour, material, state...) and
            how they relate. Objects are named <code>bowl.0</code>, <code>bowl.1</code> when there are several of a category.
          </p>
        )}
      </TaskPanel>
      <ActionList actions={item.actions} draft={draft} act={act} locked={locked} />
      {item.freeText ? <FreeTextEditor draft={draft} act={act} locked={locked} /> : <SceneEditor item={item} draft={draft} act={act} locked={locked} />}
      <Lightbox describe={() => "The initial scene"} />
    </div>
  );
}

type Act = (event: ExploreEvent) => boolean;

// ---------------------------------------------------------------------------------------------
// The action list

function ActionList({ actions, draft, act, locked }: { actions: string[]; draft: ExploreDraft; act: Act; locked: boolean }) {
  const [query, setQuery] = useState(draft.query);
  const listRef = useRef<HTMLOListElement>(null);
  const lastSent = useRef(0);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const restored = useRef(false);
  const needle = query.trim().toLowerCase();
  const shown = useMemo(
    () => actions.map((text, index) => ({ text, index })).filter((a) => needle === "" || a.text.toLowerCase().includes(needle)),
    [actions, needle],
  );

  // back where the person was reading (resume, replay)
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const first = draft.reading?.first;
    if (first === undefined || !listRef.current) return;
    const row = listRef.current.querySelector<HTMLElement>(`[data-action="${first}"]`);
    if (row) listRef.current.scrollTop = row.offsetTop - listRef.current.offsetTop;
  }, [draft.reading]);

  // the filter is recorded once typing pauses
  useEffect(() => {
    if (query === draft.query) return;
    const timer = setTimeout(() => act({ type: "actions_searched", payload: { query: query.slice(0, 200) } }), SEARCH_AFTER_MS);
    return () => clearTimeout(timer);
  }, [query, draft.query, act]);

  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );

  const sendPosition = useCallback(() => {
    pending.current = null;
    const list = listRef.current;
    if (!list) return;
    const top = list.scrollTop;
    const bottom = top + list.clientHeight;
    let first: number | null = null;
    let last: number | null = null;
    for (const row of list.querySelectorAll<HTMLElement>("[data-action]")) {
      const start = row.offsetTop - list.offsetTop;
      const end = start + row.offsetHeight;
      if (end > top && start < bottom) {
        const index = Number(row.dataset.action);
        first ??= index;
        last = index;
      }
    }
    if (first === null || last === null) return;
    lastSent.current = Date.now();
    act({ type: "actions_scrolled", payload: { first, last } });
  }, [act]);

  const onScroll = () => {
    if (locked || pending.current) return;
    // one event a second while scrolling, and one when it stops
    const wait = Math.max(0, SCROLL_EVERY_MS - (Date.now() - lastSent.current));
    pending.current = setTimeout(sendPosition, wait);
  };

  return (
    <TaskPanel
      title={`Actions (${actions.length})`}
      label="Actions"
      aside={draft.reading ? `reading ${draft.reading.first + 1}–${draft.reading.last + 1}` : undefined}
      bodyClassName="flex flex-col gap-1.5"
    >
      <input
        type="search"
        aria-label="Filter the actions"
        placeholder="Filter actions (e.g. bowl)"
        className={inputClass}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {needle !== "" ? (
        <p className="text-[11px] text-slate-500">
          {shown.length} of {actions.length} actions match
        </p>
      ) : null}
      <ol
        ref={listRef}
        onScroll={onScroll}
        className="relative min-h-0 flex-1 overflow-y-auto rounded border border-slate-100 text-xs max-lg:max-h-[50dvh]"
        data-testid="explore-actions"
        tabIndex={0}
        aria-label="Atomic actions in order"
      >
        {shown.map(({ text, index }) => (
          <li key={index} data-action={index} className="flex gap-2 border-b border-slate-50 px-1.5 py-0.5 leading-snug odd:bg-slate-50/60">
            <span className="w-8 shrink-0 text-right tabular-nums text-slate-400">{index + 1}</span>
            <span className="text-slate-800">{highlight(text, needle)}</span>
          </li>
        ))}
      </ol>
    </TaskPanel>
  );
}

// ---------------------------------------------------------------------------------------------
// Free-text mode

const TEXT_AFTER_MS = 500;
const TEXT_MAX = EXPLORE_ANSWER_LIMITS.freeTextChars;

function FreeTextEditor({ draft, act, locked }: { draft: ExploreDraft; act: Act; locked: boolean }) {
  const stored = draft.text ?? "";
  const [text, setText] = useState(stored);
  const shown = locked ? stored : text;
  const problem = exploreTextProblem(draft);
  const words = shown.trim() === "" ? 0 : shown.trim().split(/\s+/).length;

  // what is typed is recorded once typing pauses (and on blur, below)
  useEffect(() => {
    if (locked || text === stored) return;
    const timer = setTimeout(() => act({ type: "scene_text_edited", payload: { value: text } }), TEXT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [text, stored, locked, act]);

  return (
    <TaskPanel title="Final scene" label="Final scene" aside={`${words} word${words === 1 ? "" : "s"}`} bodyClassName="flex flex-col gap-2">
      <label htmlFor="explore-free-text" className="text-xs text-slate-600">
        Describe the scene <strong>after the last action</strong> in your own words: which objects are there, their attributes (colour, material, shape, size,
        state) and how they relate (on, in, under, next to, holding…).
      </label>
      <textarea
        id="explore-free-text"
        data-testid="explore-free-text"
        aria-label="Description of the final scene"
        placeholder="e.g. A white ceramic bowl sits on the kitchen counter next to the sink. Shredded green cabbage is in a metal colander inside the sink."
        className="min-h-0 flex-1 resize-none rounded border max-lg:min-h-[40dvh] border-slate-300 bg-white p-2 text-sm leading-relaxed focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500 disabled:bg-slate-50"
        value={shown}
        maxLength={TEXT_MAX}
        disabled={locked}
        onChange={(event) => setText(event.target.value)}
        onBlur={() => {
          if (text !== stored) act({ type: "scene_text_edited", payload: { value: text } });
        }}
      />
      {problem && !locked ? <p className="text-xs text-amber-700">{problem}</p> : null}
    </TaskPanel>
  );
}

function highlight(text: string, needle: string): React.ReactNode {
  if (needle === "") return text;
  const at = text.toLowerCase().indexOf(needle);
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <mark className="rounded bg-amber-100 px-0.5">{text.slice(at, at + needle.length)}</mark>
      {text.slice(at + needle.length)}
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// The scene editor

function SceneEditor({ item, draft, act, locked }: { item: ExploreView; draft: ExploreDraft; act: Act; locked: boolean }) {
  const labels = objectLabels(draft.objects);
  const categories = useMemo(() => {
    const all = [...draft.objects.map((o) => normalizeCategory(o.category)), ...(item.vocabulary ?? [])].filter(Boolean);
    return [...new Set(all)].sort();
  }, [draft.objects, item.vocabulary]);
  const [category, setCategory] = useState("");
  const [description, setDescription] = useState("");
  const [selected, setSelected] = useState<number | null>(null);
  const categoryInput = useRef<HTMLInputElement>(null);
  const problem = exploreDraftProblem(draft);

  const addObject = (via: Via) => {
    const name = category.trim();
    if (name === "") return;
    if (act({ type: "scene_object_added", payload: { object: draft.nextId, category: name, description: description.trim(), via } })) {
      setSelected(draft.nextId);
      setCategory("");
      setDescription("");
      categoryInput.current?.focus();
    }
  };

  return (
    <TaskPanel
      title="Final scene"
      label="Final scene"
      aside={`${draft.objects.length} object${draft.objects.length === 1 ? "" : "s"}`}
      bodyClassName="flex flex-col gap-2"
    >
      <datalist id="explore-categories">
        {categories.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
      <datalist id="explore-relations">
        {COMMON_RELATIONS.map((r) => (
          <option key={r} value={r} />
        ))}
      </datalist>
      <form
        className="flex items-center gap-1"
        aria-label="New object"
        onSubmit={(event) => {
          event.preventDefault();
          addObject("keyboard");
        }}
      >
        <input
          ref={categoryInput}
          aria-label="New object's category"
          placeholder="category, e.g. bowl"
          list="explore-categories"
          className={`${inputClass} w-28 lg:w-36`}
          value={category}
          disabled={locked}
          onChange={(e) => setCategory(e.target.value)}
        />
        <input
          aria-label="New object's attributes"
          placeholder="attributes, e.g. white ceramic"
          className={`${inputClass} flex-1`}
          value={description}
          disabled={locked}
          onChange={(e) => setDescription(e.target.value)}
        />
        <button
          type="submit"
          className={buttonClass}
          disabled={locked || category.trim() === ""}
          onClick={(e) => {
            // Enter in a field clicks this button too (detail 0: "keyboard")
            e.preventDefault();
            addObject(viaOf(e));
          }}
        >
          Add object
        </button>
      </form>

      {draft.objects.length === 0 ? (
        <p className="rounded border border-dashed border-slate-300 p-3 text-center text-xs text-slate-500">No objects yet: type a category and press Enter.</p>
      ) : null}
      <ul className="flex flex-col gap-1" aria-label="Objects of the final scene">
        {draft.objects.map((object, i) => (
          <ObjectRow
            key={object.id}
            object={object}
            ref_={labels[i].ref}
            draft={draft}
            labels={labels}
            act={act}
            locked={locked}
            selected={selected === object.id}
            onSelect={() => setSelected(object.id)}
          />
        ))}
      </ul>

      {draft.objects.length >= 2 ? <RelationForm draft={draft} labels={labels} act={act} locked={locked} /> : null}

      <section aria-label="Generated description" className="mt-auto rounded border border-slate-100 bg-slate-50 p-2 text-xs">
        <h3 className="mb-0.5 font-semibold text-slate-700">Description (generated)</h3>
        <p data-testid="explore-text" className="text-slate-700">
          {sceneText(draft) || "—"}
        </p>
        {problem ? <p className="mt-1 text-amber-700">{problem}</p> : null}
      </section>
    </TaskPanel>
  );
}

function ObjectRow({
  object,
  ref_,
  draft,
  labels,
  act,
  locked,
  selected,
  onSelect,
}: {
  object: ExploreDraftObject;
  ref_: string;
  draft: ExploreDraft;
  labels: Array<{ ref: string; label: string }>;
  act: Act;
  locked: boolean;
  selected: boolean;
  onSelect: () => void;
}) {
  const [group, setGroup] = useState<keyof typeof ATTRIBUTE_CHIPS>("color");
  const descriptionInput = useRef<HTMLInputElement>(null);
  const refOf = (id: number) => {
    const index = draft.objects.findIndex((o) => o.id === id);
    return index >= 0 ? labels[index].ref : null;
  };
  const edit = (field: "category" | "description", value: string, via: Via) =>
    act({ type: "scene_object_edited", payload: { object: object.id, field, value, via } });
  const commitOnEnter = (field: "category" | "description") => (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      edit(field, event.currentTarget.value, "keyboard");
    } else if (event.key === "Escape") {
      event.currentTarget.value = object[field];
    }
  };
  const addChip = (word: string, via: Via) => {
    const current = (descriptionInput.current?.value ?? object.description).trim();
    if (current.split(/\s+/).includes(word)) return;
    const value = current === "" ? word : `${word} ${current}`;
    if (descriptionInput.current) descriptionInput.current.value = value;
    edit("description", value, via);
  };

  return (
    <li
      tabIndex={0}
      data-object={object.id}
      data-ref={ref_}
      aria-label={`Object ${ref_}`}
      onFocus={onSelect}
      onKeyDown={(event) => {
        if (event.target !== event.currentTarget || locked) return;
        if (event.key === "Delete" || event.key === "Backspace") {
          event.preventDefault();
          const next = (event.currentTarget.nextElementSibling ?? event.currentTarget.previousElementSibling) as HTMLElement | null;
          act({ type: "scene_object_removed", payload: { object: object.id, via: "keyboard" } });
          next?.focus();
        }
      }}
      className={`rounded border px-2 py-1 outline-none focus:ring-2 focus:ring-brand-500 ${selected ? "border-brand-300 bg-brand-50/40" : "border-slate-200"}`}
    >
      <div className="flex items-center gap-1">
        <span className="w-24 shrink-0 truncate font-mono text-[11px] text-slate-500" title={ref_}>
          {ref_}
        </span>
        <input
          key={`c:${object.category}`}
          aria-label={`Category of ${ref_}`}
          list="explore-categories"
          defaultValue={object.category}
          disabled={locked}
          className={`${inputClass} w-32`}
          onBlur={(e) => edit("category", e.target.value, "click")}
          onKeyDown={commitOnEnter("category")}
        />
        <input
          key={`d:${object.description}`}
          ref={descriptionInput}
          aria-label={`Attributes of ${ref_}`}
          placeholder="attributes"
          defaultValue={object.description}
          disabled={locked}
          className={`${inputClass} flex-1`}
          onBlur={(e) => edit("description", e.target.value, "click")}
          onKeyDown={commitOnEnter("description")}
        />
        <button
          type="button"
          aria-label={`Remove ${ref_}`}
          disabled={locked}
          className="h-10 w-10 shrink-0 rounded text-slate-400 lg:h-7 lg:w-7 hover:bg-red-50 hover:text-red-600"
          onClick={(e) => act({ type: "scene_object_removed", payload: { object: object.id, via: viaOf(e) } })}
        >
          ✕
        </button>
      </div>
      {selected && !locked ? (
        <div className="mt-1 flex flex-wrap items-center gap-1 pl-[6.25rem] text-[11px]" aria-label={`Attribute chips for ${ref_}`}>
          {(Object.keys(ATTRIBUTE_CHIPS) as Array<keyof typeof ATTRIBUTE_CHIPS>).map((name) => (
            <button
              key={name}
              type="button"
              aria-pressed={group === name}
              className={`rounded px-1 ${group === name ? "bg-slate-700 text-white" : "text-slate-500 hover:bg-slate-100"}`}
              onClick={() => setGroup(name)}
            >
              {name}
            </button>
          ))}
          <span className="text-slate-300">|</span>
          {ATTRIBUTE_CHIPS[group].map((word) => (
            <button
              key={word}
              type="button"
              className="rounded-full border border-slate-200 px-1.5 text-slate-600 hover:border-brand-400 hover:text-brand-700"
              onClick={(e) => addChip(word, viaOf(e))}
            >
              {word}
            </button>
          ))}
        </div>
      ) : null}
      {object.relations.length > 0 ? (
        <ul className="mt-1 flex flex-col gap-0.5 pl-[6.25rem]" aria-label={`Relations of ${ref_}`}>
          {object.relations.map((relation, index) => {
            const target = refOf(relation.target);
            const text = target ? `${ref_} ${relation.relation} ${target}` : relation.relation;
            return (
              <li
                key={`${relation.relation}:${relation.target}`}
                tabIndex={0}
                data-relation={text}
                aria-label={`Relation ${text}`}
                className="flex items-center gap-1 rounded bg-slate-50 px-1 text-[11px] text-slate-700 outline-none focus:ring-2 focus:ring-brand-500"
                onKeyDown={(event) => {
                  if (locked || (event.key !== "Delete" && event.key !== "Backspace")) return;
                  event.preventDefault();
                  event.stopPropagation();
                  act({ type: "relation_removed", payload: { subject: object.id, index, via: "keyboard" } });
                }}
              >
                <span className="flex-1">
                  <span className="text-slate-400">{ref_}</span> <strong>{relation.relation}</strong> {target ?? ""}
                </span>
                <button
                  type="button"
                  aria-label={`Remove relation ${text}`}
                  disabled={locked}
                  className="px-1 text-slate-400 hover:text-red-600"
                  onClick={(e) => act({ type: "relation_removed", payload: { subject: object.id, index, via: viaOf(e) } })}
                >
                  ✕
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </li>
  );
}

function RelationForm({ draft, labels, act, locked }: { draft: ExploreDraft; labels: Array<{ ref: string }>; act: Act; locked: boolean }) {
  const [subject, setSubject] = useState<number | null>(null);
  const [relation, setRelation] = useState("");
  const [target, setTarget] = useState<number | null>(null);
  const ids = draft.objects.map((o) => o.id);
  const subjectId = subject !== null && ids.includes(subject) ? subject : (ids[0] ?? null);
  const others = draft.objects.filter((o) => o.id !== subjectId);
  const targetId = target !== null && target !== subjectId && ids.includes(target) ? target : (others[0]?.id ?? null);
  const ready = !locked && subjectId !== null && targetId !== null && relation.trim() !== "";
  const add = (via: Via) => {
    if (!ready) return;
    if (act({ type: "relation_added", payload: { subject: subjectId!, relation: relation.trim(), object: targetId!, via } })) setRelation("");
  };
  const refOf = (id: number) => labels[draft.objects.findIndex((o) => o.id === id)]?.ref ?? "?";
  const selectClass = `${inputClass} max-w-[9rem]`;
  return (
    <form
      aria-label="New relation"
      className="flex flex-wrap items-center gap-1 rounded border border-slate-200 bg-slate-50/60 p-1.5"
      onSubmit={(event) => {
        event.preventDefault();
        add("keyboard");
      }}
    >
      <span className="text-xs font-medium text-slate-700">Relation</span>
      <select
        aria-label="Relation subject"
        className={selectClass}
        value={subjectId ?? ""}
        disabled={locked}
        onChange={(e) => setSubject(Number(e.target.value))}
      >
        {draft.objects.map((o) => (
          <option key={o.id} value={o.id}>
            {refOf(o.id)}
          </option>
        ))}
      </select>
      <input
        aria-label="Relation"
        placeholder="on, in, next to…"
        list="explore-relations"
        className={`${inputClass} w-28`}
        value={relation}
        disabled={locked}
        onChange={(e) => setRelation(e.target.value)}
      />
      <select aria-label="Relation object" className={selectClass} value={targetId ?? ""} disabled={locked} onChange={(e) => setTarget(Number(e.target.value))}>
        {others.map((o) => (
          <option key={o.id} value={o.id}>
            {refOf(o.id)}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className={buttonClass}
        disabled={!ready}
        onClick={(e) => {
          e.preventDefault();
          add(viaOf(e));
        }}
      >
        Add relation
      </button>
    </form>
  );
}
