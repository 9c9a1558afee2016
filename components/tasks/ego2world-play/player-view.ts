import { GONE_AREA, HAND_AREA, emptyEgoDraft, isEgoDraft, type EgoDraft, type Note } from "@/lib/tasks/ego2world-play/notes";
import type { Ego2worldView } from "@/lib/tasks/ego2world-play";

/**
 * Pure helpers of the Ego2World player (components/tasks/ego2world-play): the public view's shape,
 * the options of an action's pickers (only what the person can see or holds, and the areas), the
 * action text, the notes to pre-fill from what is seen, and the registry's answer functions.
 */

/** The public view (lib/tasks/ego2world-play/index.ts publicView). */
export interface EpisodeView {
  title: string;
  areas: Record<string, { image: string }>;
  startArea: string;
  tasks: Array<{ id: string; instruction: string }>;
  actions: Array<{ name: string; params: string[] }>;
}

export type PlayView = Ego2worldView;

export interface PickerOption {
  value: string;
  label: string;
  group: "hand" | "here" | "area";
}

/** "coffee_station" -> "Coffee station" */
export function areaName(area: string): string {
  const words = area.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An object's label from its id when it was never seen ("bread_slice_01" -> "bread_slice"). */
export function labelFromId(id: string): string {
  return id.replace(/_\d+$/, "");
}

/** What a picker offers: the held object, the objects here, then every area. */
export function pickerOptions(view: PlayView, areas: readonly string[]): PickerOption[] {
  return [
    ...(view.hand ? [{ value: view.hand.id, label: `${view.hand.id} (in hand)`, group: "hand" as const }] : []),
    ...view.objects.map((object) => ({ value: object.id, label: `${object.id} (${object.label})`, group: "here" as const })),
    ...areas.map((area) => ({ value: area, label: areaName(area), group: "area" as const })),
  ];
}

/** `name(a, b)` once every argument is chosen; null before. */
export function composeAction(name: string, args: ReadonlyArray<string | null | undefined>): string | null {
  if (args.some((arg) => !arg)) return null;
  return `${name}(${args.join(", ")})`;
}

/** Rows to add for what the view shows and the notes lack: seen here, or in the hand. */
export function notesToPrefill(view: PlayView, notes: readonly Note[]): Array<{ object: string; area: string }> {
  const known = new Set(notes.map((note) => note.object));
  const rows: Array<{ object: string; area: string }> = [];
  if (view.hand && !known.has(view.hand.id)) rows.push({ object: view.hand.id, area: HAND_AREA });
  for (const object of view.objects) if (!known.has(object.id)) rows.push({ object: object.id, area: view.area });
  return rows;
}

/** The believed-area choices of a note: each area, in the hand, gone. */
export function noteAreaOptions(areas: readonly string[]): Array<{ value: string; label: string }> {
  return [
    ...areas.map((area) => ({ value: area, label: areaName(area) })),
    { value: HAND_AREA, label: "In my hand" },
    { value: GONE_AREA, label: "Gone / used up" },
  ];
}

export function draftOf(answer: unknown): EgoDraft {
  return isEgoDraft(answer) ? answer : emptyEgoDraft();
}

/**
 * What the browser submits once every task is done: the server rebuilds the answer from the steps
 * it recorded (playAnswer), so the browser claims no actions.
 */
export function ego2worldAnswerOf(answer: unknown): { tasks: [] } | null {
  return isEgoDraft(answer) && answer.finished ? { tasks: [] } : null;
}

export function ego2worldMissing(answer: unknown): string {
  return isEgoDraft(answer) && answer.finished ? "" : "Finish every task first";
}

export function describeEgo2worldAnswer(answer: unknown): string {
  const tasks = (answer as { tasks?: Array<{ actions?: unknown[] }> } | null)?.tasks;
  if (!Array.isArray(tasks)) return "notes";
  const actions = tasks.reduce((sum, task) => sum + (Array.isArray(task.actions) ? task.actions.length : 0), 0);
  return `${actions} action${actions === 1 ? "" : "s"} over ${tasks.length} task${tasks.length === 1 ? "" : "s"}`;
}
