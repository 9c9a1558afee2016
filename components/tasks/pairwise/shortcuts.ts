import type { Shortcut } from "@/components/tasks/shared/types";
import { playerShortcuts } from "@/components/tasks/shared/media/shortcuts";

export const shortcuts: Shortcut[] = [
  { keys: "↑ ↓", action: "choose the dimension row" },
  { keys: "1 / 2", action: "video 1 / video 2 is better" },
  { keys: "T or 0", action: "a tie" },
  ...playerShortcuts,
];
