import { emptyExploreDraft, isExploreDraft, type ExploreDraft, type ExploreDraftObject } from "@/lib/tasks/explore-scene/events";
import { EXPLORE_ANSWER_LIMITS as L } from "@/lib/tasks/shared/explore/limits";

/**
 * The pure side of the EXPLORE scene editor: names of the draft's objects (the answer's relation
 * naming, docs/task-kinds.md: `category.k`, or the bare category when the scene has one object of
 * it), the answer built from the draft with its generated text, what is still missing, and the
 * draft that shows a given answer (practice key, replay).
 */

export const COMMON_RELATIONS = [
  "on",
  "in",
  "under",
  "next to",
  "holding",
  "covering",
  "inside",
  "on top of",
  "behind",
  "in front of",
  "attached to",
  "leaning against",
];
export const ATTRIBUTE_CHIPS: Record<string, string[]> = {
  color: ["white", "black", "red", "green", "blue", "yellow", "brown", "grey", "silver"],
  material: ["wooden", "metal", "plastic", "glass", "ceramic", "fabric", "paper"],
  shape: ["round", "square", "rectangular", "cylindrical", "flat"],
  size: ["small", "medium", "large"],
  state: ["open", "closed", "empty", "full", "clean", "dirty", "wet", "on", "off", "folded"],
};

export interface ExploreView {
  initialImage: string;
  actions: string[];
  vocabulary?: string[];
  /** the study's free-text mode: the annotator types the description instead of building the scene */
  freeText?: boolean;
}

export const isFreeTextView = (view: unknown): boolean => view !== null && typeof view === "object" && (view as ExploreView).freeText === true;

/** Free-text mode: what keeps the typed description from being submitted; "" when it can be. */
export function exploreTextProblem(draft: ExploreDraft): string {
  const text = (draft.text ?? "").trim();
  if (text === "") return "Describe the final scene in the text box";
  return text.length > L.freeTextChars ? `Shorten the description to at most ${L.freeTextChars.toLocaleString("en-US")} characters` : "";
}

export interface ExploreAnswerShape {
  objects: Array<{ category: string; description: string; relation: string[] }>;
  text: string;
}

/** lower case, single spaces: how the scorer groups categories */
export function normalizeCategory(category: string): string {
  return category.trim().toLowerCase().replace(/\s+/g, " ");
}

/** Per object (in list order): `ref` for relations ("bowl.1", or "bowl" when alone) and `label` for sentences ("bowl 2", or "bowl"). */
export function objectLabels(objects: ReadonlyArray<{ category: string }>): Array<{ ref: string; label: string }> {
  const counts = new Map<string, number>();
  for (const object of objects) counts.set(normalizeCategory(object.category), (counts.get(normalizeCategory(object.category)) ?? 0) + 1);
  const seen = new Map<string, number>();
  return objects.map((object) => {
    const category = normalizeCategory(object.category);
    const k = seen.get(category) ?? 0;
    seen.set(category, k + 1);
    const alone = (counts.get(category) ?? 0) <= 1;
    return { ref: alone ? category : `${category}.${k}`, label: alone ? category : `${category} ${k + 1}` };
  });
}

/** One sentence per object: "The bowl is white ceramic, on the kitchen counter and next to the sink." */
export function sceneText(draft: ExploreDraft): string {
  const labels = objectLabels(draft.objects);
  const byId = new Map(draft.objects.map((object, i) => [object.id, labels[i]]));
  return draft.objects
    .map((object, i) => {
      const name = labels[i].label;
      const description = object.description.trim().replace(/[.\s]+$/, "");
      const relations = object.relations
        .map((relation) => {
          const target = byId.get(relation.target);
          return target ? `${relation.relation.trim()} the ${target.label}` : null;
        })
        .filter((part): part is string => part !== null);
      if (description === "" && relations.length === 0) return `There is a ${name}.`;
      const parts = [description, relations.join(" and ")].filter(Boolean).join(", ");
      return `The ${name} is ${parts}.`;
    })
    .join(" ");
}

/** What still keeps the draft from being a valid answer, in a few words; "" when it can be submitted. */
export function exploreDraftProblem(draft: ExploreDraft): string {
  if (draft.objects.length === 0) return "Add at least one object of the final scene";
  // the answer's caps (lib/tasks/shared/explore/limits.ts), said before the server would refuse the answer
  if (draft.objects.length > L.objects) return `At most ${L.objects} objects: remove ${draft.objects.length - L.objects}`;
  const relations = draft.objects.reduce((sum, object) => sum + object.relations.length, 0);
  if (relations > L.relations) return `At most ${L.relations} relations in all: remove ${relations - L.relations}`;
  const crowded = draft.objects.findIndex((object) => object.relations.length > L.relationsPerObject);
  if (crowded >= 0) return `Object ${crowded + 1} has more than ${L.relationsPerObject} relations`;
  const long = draft.objects.findIndex((object) => object.category.trim().length > L.categoryChars || object.description.length > L.descriptionChars);
  if (long >= 0) return `Object ${long + 1}: a category has at most ${L.categoryChars} characters, attributes at most ${L.descriptionChars}`;
  const unnamed = draft.objects.findIndex((object) => normalizeCategory(object.category) === "");
  if (unnamed >= 0) return `Object ${unnamed + 1} needs a category`;
  const ids = new Set(draft.objects.map((object) => object.id));
  const labels = objectLabels(draft.objects);
  for (const [i, object] of draft.objects.entries()) {
    if (object.relations.some((relation) => !ids.has(relation.target) || relation.target === object.id))
      return `A relation of ${labels[i].ref} points at no other object`;
    if (object.relations.some((relation) => relation.relation.trim() === "")) return `A relation of ${labels[i].ref} has no relation word`;
  }
  return "";
}

/**
 * The answer to submit (`{objects: [{category, description, relation}], text}`), or null while
 * incomplete; in free-text mode `{objects: [], text}` with the typed text.
 */
export function exploreAnswerOf(draft: ExploreDraft, freeText = false): ExploreAnswerShape | null {
  if (freeText) return exploreTextProblem(draft) === "" ? { objects: [], text: (draft.text ?? "").trim() } : null;
  if (exploreDraftProblem(draft) !== "") return null;
  const labels = objectLabels(draft.objects);
  const refById = new Map(draft.objects.map((object, i) => [object.id, labels[i].ref]));
  return {
    objects: draft.objects.map((object, i) => ({
      category: object.category.trim(),
      description: object.description.trim(),
      relation: object.relations.map((relation) => `${labels[i].ref} ${relation.relation.trim()} ${refById.get(relation.target)}`),
    })),
    text: sceneText(draft),
  };
}

/** The draft that shows an answer (or a key): relations are matched back to objects by their refs; one that names none keeps its text (target -1). */
export function exploreDraftFromAnswer(answer: unknown): ExploreDraft {
  if (isExploreDraft(answer)) return answer;
  const draft = emptyExploreDraft();
  const text = answer !== null && typeof answer === "object" ? (answer as { text?: unknown }).text : undefined;
  if (typeof text === "string" && text !== "") draft.text = text;
  const raw = answer !== null && typeof answer === "object" ? (answer as { objects?: unknown }).objects : undefined;
  if (!Array.isArray(raw)) return draft;
  const objects: ExploreDraftObject[] = raw.map((entry, id) => {
    const o = (entry ?? {}) as Record<string, unknown>;
    return { id, category: String(o.category ?? ""), description: String(o.description ?? ""), relations: [] };
  });
  const labels = objectLabels(objects);
  const names = new Map<string, number>();
  labels.forEach((label, i) => {
    names.set(label.ref, i);
    const bare = normalizeCategory(objects[i].category);
    if (!names.has(bare)) names.set(bare, i);
  });
  const byLength = [...names.keys()].sort((a, b) => b.length - a.length);
  raw.forEach((entry, i) => {
    const relations = (entry as { relation?: unknown } | null)?.relation;
    if (!Array.isArray(relations)) return;
    for (const text of relations) {
      const t = normalizeCategory(String(text));
      const subject = byLength.find((name) => t.startsWith(`${name} `));
      const rest = subject ? t.slice(subject.length + 1) : t;
      const object = byLength.find((name) => rest.endsWith(` ${name}`) && rest.length > name.length + 1);
      if (object !== undefined && names.get(object) !== i)
        objects[i].relations.push({ relation: rest.slice(0, rest.length - object.length - 1), target: names.get(object)! });
      else objects[i].relations.push({ relation: String(text), target: -1 });
    }
  });
  return { ...draft, objects, nextId: objects.length };
}

export function exploreMissing(answer: unknown, freeText = false): string {
  if (!isExploreDraft(answer)) return freeText ? "Describe the final scene in the text box" : "Add at least one object of the final scene";
  return freeText ? exploreTextProblem(answer) : exploreDraftProblem(answer);
}

/** "3 objects: bowl (white), counter, sink; 2 relations" */
export function describeExploreAnswer(answer: unknown): string {
  const objects = (answer as { objects?: Array<{ category?: unknown; description?: unknown; relation?: unknown }> } | null)?.objects;
  const text = (answer as { text?: unknown } | null)?.text;
  if (Array.isArray(objects) && objects.length === 0 && typeof text === "string")
    return `free text: ${JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text)}`;
  if (!Array.isArray(objects)) return "?";
  const relations = objects.reduce((sum, o) => sum + (Array.isArray(o.relation) ? o.relation.length : 0), 0);
  const names = objects.map((o) => `${String(o.category ?? "?")}${o.description ? ` (${String(o.description)})` : ""}`);
  return `${objects.length} object${objects.length === 1 ? "" : "s"}: ${names.join(", ")}; ${relations} relation${relations === 1 ? "" : "s"}`;
}
