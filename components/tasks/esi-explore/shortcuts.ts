import type { Shortcut } from "@/components/tasks/shared/types";
import { ACTION_KEYS, ACTION_WORDS, type ActionName } from "@/lib/tasks/esi-explore/actions";

/** ESI-Bench's movement keys, from the table its key handler reads (lib/tasks/esi-explore/actions.ts). */
const moves: Shortcut[] = (Object.entries(ACTION_KEYS) as Array<[ActionName, { key: string; label: string }]>).map(([name, shortcut]) => ({
  keys: shortcut.label,
  action: ACTION_WORDS[name].toLowerCase(),
}));

export const shortcuts: Shortcut[] = [
  { keys: "1–9", action: "choose that option as your current answer (multiple-choice questions)" },
  ...moves.map((shortcut) => ({ ...shortcut, action: `${shortcut.action} (while exploring)` })),
  { keys: "← →", action: "previous / next view (when the item shows several views)" },
];
