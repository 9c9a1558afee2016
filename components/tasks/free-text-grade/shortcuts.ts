import type { Shortcut } from "@/components/tasks/shared/types";

export const shortcuts: Shortcut[] = [{ keys: "1–5", action: "grade the answer (5: same meaning as a reference)" }];
