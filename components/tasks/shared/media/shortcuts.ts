import type { Shortcut } from "@/components/tasks/shared/types";

/** The player's keys (components/tasks/shared/media/player.tsx), for the generic kinds' shortcut lists. */
export const playerShortcuts: Shortcut[] = [
  { keys: "Space or K", action: "play / pause (the player focused)" },
  { keys: "← → / Home", action: "5 s back / on, to the start (the player focused)" },
  { keys: "R, < >", action: "replay; slower / faster (the player focused)" },
];
