import type { Shortcut } from "@/components/tasks/shared/types";

export const shortcuts: Shortcut[] = [
  { keys: "Enter", action: "add the object or relation typed" },
  { keys: "Delete", action: "remove the focused object or relation" },
];
