import type { Shortcut } from "@/components/tasks/shared/types";
import { playerShortcuts } from "@/components/tasks/shared/media/shortcuts";

export const shortcuts: Shortcut[] = [
  { keys: "↑ ↓", action: "choose the rubric row" },
  { keys: "0–9", action: "rate the chosen Likert row" },
  { keys: "Y / N", action: "answer the chosen check" },
  ...playerShortcuts,
];
