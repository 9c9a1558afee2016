import { isPresent, type World } from "@/lib/tasks/ego2world-play/world";

/**
 * The person's notes: their belief graph, one row per object (docs/ego2world.md, "The player"). A row holds
 * the believed area (an area name, `hand` or `gone`), free state text, a confidence and where the
 * belief comes from (seen, feedback, guess). Rows change only through trajectory events
 * (`note_added`, `note_edited`, `note_removed`), so the notes at any moment are a replay of them;
 * the player's store and the dashboard both use `applyNoteEvent`. Pure and browser-safe.
 */

export const NOTE_SOURCES = ["seen", "feedback", "guess"] as const;
export type NoteSource = (typeof NOTE_SOURCES)[number];
export const NOTE_CONFIDENCES = ["low", "medium", "high"] as const;
export type NoteConfidence = (typeof NOTE_CONFIDENCES)[number];
export const NOTE_FIELDS = ["area", "state", "confidence", "source"] as const;
export type NoteField = (typeof NOTE_FIELDS)[number];

/** Believed areas besides the area names: held, or no longer there at all. */
export const HAND_AREA = "hand";
export const GONE_AREA = "gone";

export interface Note {
  object: string;
  /** an area name, `hand`, `gone`, or null (not noted) */
  area: string | null;
  state: string;
  confidence: NoteConfidence;
  source: NoteSource;
}

/** The player's draft: the notes and whether the server said the episode is over. */
export interface EgoDraft {
  draft: "ego2world";
  notes: Note[];
  finished: boolean;
}

export function emptyEgoDraft(): EgoDraft {
  return { draft: "ego2world", notes: [], finished: false };
}

export function isEgoDraft(value: unknown): value is EgoDraft {
  return (
    value !== null && typeof value === "object" && (value as { draft?: unknown }).draft === "ego2world" && Array.isArray((value as { notes?: unknown }).notes)
  );
}

const field = (payload: unknown, name: string): unknown =>
  payload !== null && typeof payload === "object" ? (payload as Record<string, unknown>)[name] : undefined;
const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === "string" && (values as readonly string[]).includes(value);

/** The notes after one event; the same array (===) when the event is malformed or changes nothing. */
export function applyNoteEvent(notes: Note[], type: string, payload: unknown): Note[] {
  const object = field(payload, "object");
  if (typeof object !== "string" || object === "") return notes;
  const index = notes.findIndex((note) => note.object === object);
  switch (type) {
    case "note_added": {
      const area = field(payload, "area");
      const state = field(payload, "state");
      const confidence = field(payload, "confidence");
      const source = field(payload, "source");
      if (
        index >= 0 ||
        (area !== null && typeof area !== "string") ||
        typeof state !== "string" ||
        !isOneOf(NOTE_CONFIDENCES, confidence) ||
        !isOneOf(NOTE_SOURCES, source)
      )
        return notes;
      return [...notes, { object, area, state, confidence, source }];
    }
    case "note_edited": {
      const name = field(payload, "field");
      const value = field(payload, "value");
      if (index < 0 || !isOneOf(NOTE_FIELDS, name)) return notes;
      const note = notes[index];
      let next: Note;
      if (name === "area" && (value === null || typeof value === "string")) next = { ...note, area: value === "" ? null : value };
      else if (name === "state" && typeof value === "string") next = { ...note, state: value };
      else if (name === "confidence" && isOneOf(NOTE_CONFIDENCES, value)) next = { ...note, confidence: value };
      else if (name === "source" && isOneOf(NOTE_SOURCES, value)) next = { ...note, source: value };
      else return notes;
      if (JSON.stringify(next) === JSON.stringify(note)) return notes;
      return notes.map((entry, i) => (i === index ? next : entry));
    }
    case "note_removed":
      return index < 0 ? notes : notes.filter((_, i) => i !== index);
    default:
      return notes;
  }
}

/** The draft after one event (notes events, and `episode_finished`). */
export function applyEgoEvent(draft: EgoDraft, type: string, payload: unknown): EgoDraft {
  if (type === "episode_finished") return draft.finished ? draft : { ...draft, finished: true };
  const notes = applyNoteEvent(draft.notes, type, payload);
  return notes === draft.notes ? draft : { ...draft, notes };
}

/** Whether a believed area is true of the world: `hand` when held, `gone` when absent, else the object's area (and not held). */
export function noteAreaMatches(world: World, object: string, area: string): boolean {
  if (area === HAND_AREA) return world.agent.hand === object;
  if (area === GONE_AREA) return !isPresent(world, object);
  return isPresent(world, object) && world.agent.hand !== object && world.objects[object].area === area;
}

/** Share of the noted areas that match the world; null when no row has an area. */
export function beliefAccuracy(notes: readonly Note[], world: World): number | null {
  const noted = notes.filter((note): note is Note & { area: string } => note.area !== null);
  if (noted.length === 0) return null;
  return noted.filter((note) => noteAreaMatches(world, note.object, note.area)).length / noted.length;
}
