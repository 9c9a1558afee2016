import type { Shortcut } from "@/components/tasks/shared/types";

/** The slot-filling kinds' keys (components/tasks/shared/enact/ordering.tsx). */
export const orderingShortcuts: Shortcut[] = [
  { keys: "Tab", action: "reach a candidate or a step" },
  { keys: "1–9, 0", action: "put the focused candidate into that step (0: step 10)" },
  { keys: "1–9, 0 on a step", action: "move its candidate there (swaps a filled step)" },
  { keys: "Delete", action: "clear the focused step" },
];
