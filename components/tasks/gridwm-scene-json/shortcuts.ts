import type { Shortcut } from "@/components/tasks/shared/types";

export const shortcuts: Shortcut[] = [{ keys: "← ↑ → ↓", action: "turn the agent west, north, east, south" }];
