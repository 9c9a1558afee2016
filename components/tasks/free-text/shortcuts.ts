import type { Shortcut } from "@/components/tasks/shared/types";

export const shortcuts: Shortcut[] = [
  { keys: "Tab", action: "into the answer box, then to the confidence and Submit" },
  { keys: "Esc", action: "leave the answer box" },
];
