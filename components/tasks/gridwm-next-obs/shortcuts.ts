import type { Shortcut } from "@/components/tasks/shared/types";

export const shortcuts: Shortcut[] = [{ keys: "1–4 or A–D", action: "choose candidate A–D" }];
