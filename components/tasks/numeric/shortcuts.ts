import type { Shortcut } from "@/components/tasks/shared/types";

export const shortcuts: Shortcut[] = [{ keys: "0–9 . -", action: "type the number (the box has focus when the item opens)" }];
