import type { Shortcut } from "@/components/tasks/shared/types";

export const shortcuts: Shortcut[] = [{ keys: "1–9 or A–I", action: "choose the option at that place (as shown)" }];
