import type { Shortcut } from "@/components/tasks/shared/types";

export const shortcuts: Shortcut[] = [{ keys: "1–9", action: "pick that action of the palette (then choose its objects and press Do it)" }];
