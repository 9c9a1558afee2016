import type { TaskUi } from "@/components/tasks/registry";
import { ACTION_KEYS, ACTION_WORDS, type ActionName } from "@/lib/esi/actions";

/**
 * The keyboard shortcuts listed on every item page: the kind's own (TaskUi.shortcuts, or the
 * entries below for the first kinds, taken from their components' key handlers) and the ones
 * every page has. Pure data, no React.
 */
export interface Shortcut {
  keys: string;
  action: string;
}

const ordering: Shortcut[] = [
  { keys: "Tab", action: "reach a candidate or a step" },
  { keys: "1–9, 0", action: "put the focused candidate into that step (0: step 10)" },
  { keys: "1–9, 0 on a step", action: "move its candidate there (swaps a filled step)" },
  { keys: "Delete", action: "clear the focused step" },
];

/** ESI-Bench's movement keys, from the table its key handler reads (lib/esi/actions.ts). */
const esiMoves: Shortcut[] = (Object.entries(ACTION_KEYS) as Array<[ActionName, { key: string; label: string }]>).map(([name, shortcut]) => ({
  keys: shortcut.label,
  action: ACTION_WORDS[name].toLowerCase(),
}));

const byKind: Record<string, Shortcut[]> = {
  "enact-forward": ordering,
  "enact-inverse": ordering,
  "gridwm-next-obs": [{ keys: "1–4 or A–D", action: "choose candidate A–D" }],
  "gridwm-scene-json": [{ keys: "← ↑ → ↓", action: "turn the agent west, north, east, south" }],
  "gridwm-judge": [
    { keys: "S / F", action: "verdict Success / Fail" },
    { keys: "← →", action: "previous / next frame while one is open large" },
  ],
  "explore-scene": [
    { keys: "Enter", action: "add the object or relation typed" },
    { keys: "Delete", action: "remove the focused object or relation" },
  ],
  "esi-explore": [
    { keys: "1–9", action: "choose that option as your current answer (multiple-choice questions)" },
    ...esiMoves.map((shortcut) => ({ ...shortcut, action: `${shortcut.action} (while exploring)` })),
    { keys: "← →", action: "previous / next view (when the item shows several views)" },
  ],
  "ego2world-play": [{ keys: "1–9", action: "pick that action of the palette (then choose its objects and press Do it)" }],
};

export const commonShortcuts: Shortcut[] = [
  { keys: "Tab, Shift+Tab", action: "move between the controls" },
  { keys: "Enter, Space", action: "press the focused button" },
  { keys: "Esc", action: "close a picture shown large" },
];

export function shortcutsFor(kind: string, ui: Pick<TaskUi, "shortcuts"> | null): Shortcut[] {
  return [...(ui?.shortcuts ?? byKind[kind] ?? []), ...commonShortcuts];
}
