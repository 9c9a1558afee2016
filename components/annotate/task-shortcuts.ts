import { getTaskUi, type TaskUi } from "@/components/tasks/registry";
import type { Shortcut } from "@/components/tasks/shared/types";

/**
 * The keyboard shortcuts listed on every item page: the kind's own (TaskUi.shortcuts, from
 * components/tasks/<kind>/shortcuts.ts) and the ones every page has. Pure data, no React.
 */
export type { Shortcut };

export const commonShortcuts: Shortcut[] = [
  { keys: "Tab, Shift+Tab", action: "move between the controls" },
  { keys: "Enter, Space", action: "press the focused button" },
  { keys: "Esc", action: "close a picture shown large" },
];

/** The kind's shortcuts (from `ui`, else from the kind's registered UI) and those of every page. */
export function shortcutsFor(kind: string, ui: Pick<TaskUi, "shortcuts"> | null): Shortcut[] {
  return [...((ui ?? getTaskUi(kind))?.shortcuts ?? []), ...commonShortcuts];
}
